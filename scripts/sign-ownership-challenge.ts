/**
 * Signs an ownership challenge the way the wallets do, for trying the API by hand and for
 * docs/payments.md. Prints the wallet address and the signature (and checks it with the service's own
 * verifier before printing).
 *
 *   npx tsx scripts/sign-ownership-challenge.ts --type ETHEREUM_WALLET --private-key <hex> --message '<text>'
 *   npx tsx scripts/sign-ownership-challenge.ts --type SOLANA_WALLET --private-key <32-byte seed hex> --message '<text>'
 *   npx tsx scripts/sign-ownership-challenge.ts --type SPARK_WALLET --private-key <hex> --message '<text>' [--hrp sparkrt]
 *   npx tsx scripts/sign-ownership-challenge.ts --type TRON_WALLET --new-key
 *
 * Types: BASE_WALLET, ETHEREUM_WALLET, POLYGON_WALLET, PLASMA_WALLET, ARBITRUM_WALLET (EIP-191
 * personal_sign), TRON_WALLET (TIP-191), SOLANA_WALLET (ed25519, Base58 signature), SPARK_WALLET
 * (Bitcoin message signing with the identity key, base64 compact signature, header 31–34).
 * Test keys only: a private key on a command line ends up in the shell history.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { parseArgs } from 'node:util';
import { encodeBase58 } from '../src/domain/identifiers/base58';
import { toChecksumAddress } from '../src/domain/identifiers/evm-address';
import { encodeSparkAddress, SPARK_HRPS, type SparkHrp } from '../src/domain/identifiers/spark-address';
import { tronAddressFromPublicKey } from '../src/domain/identifiers/tron-address';
import { isWalletAccountType, WALLET_ADDRESS_FORMATS, type WalletAddressFormat } from '../src/domain/identifiers/wallet-addresses';
import {
  bitcoinMessageHash,
  ethereumMessageHash,
  tronMessageHash,
  verifyOwnershipSignature,
} from '../src/contexts/external-accounts/domain/ownership-signatures';

const USAGE = `usage: sign-ownership-challenge --type <WALLET_TYPE> (--private-key <hex> --message <text> | --new-key) [--hrp spark|sparkt|sparkrt|sparks|sparkl]
wallet types: ${Object.keys(WALLET_ADDRESS_FORMATS).join(', ')}`;

const toHex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

function parsePrivateKey(text: string, format: WalletAddressFormat): Uint8Array {
  const hex = text.replace(/^0x/i, '');
  if (!/^[0-9a-fA-F]+$/.test(hex)) fail('--private-key must be hex.');
  const bytes = Uint8Array.from(Buffer.from(hex, 'hex'));
  // A Solana keypair (64 bytes: seed then public key) is accepted too; its first half is the seed.
  if (format === 'solana' && bytes.length === 64) return bytes.subarray(0, 32);
  if (bytes.length !== 32) fail('--private-key must be 32 bytes (64 hex digits).');
  if (format !== 'solana' && !secp256k1.utils.isValidSecretKey(bytes)) fail('--private-key is not a valid secp256k1 private key.');
  return bytes;
}

function addressOf(format: WalletAddressFormat, privateKey: Uint8Array, hrp: SparkHrp): string {
  switch (format) {
    case 'evm': {
      const publicKey = secp256k1.getPublicKey(privateKey, false);
      return toChecksumAddress(`0x${toHex(keccak_256(publicKey.subarray(1)).subarray(12))}`);
    }
    case 'tron':
      return tronAddressFromPublicKey(secp256k1.getPublicKey(privateKey, false));
    case 'solana':
      return encodeBase58(ed25519.getPublicKey(privateKey));
    case 'spark':
      return encodeSparkAddress(secp256k1.getPublicKey(privateKey, true), hrp);
  }
}

/** r ‖ s and the recovery id of an ECDSA signature over a 32-byte hash (RFC 6979, low-s). */
function signRecoverable(hash: Uint8Array, privateKey: Uint8Array): { rs: Uint8Array; recovery: number } {
  const recovered = secp256k1.sign(hash, privateKey, { prehash: false, format: 'recovered' });
  return { rs: recovered.subarray(1), recovery: recovered[0] };
}

function sign(format: WalletAddressFormat, privateKey: Uint8Array, message: string): string {
  switch (format) {
    case 'evm':
    case 'tron': {
      const hash = format === 'evm' ? ethereumMessageHash(message) : tronMessageHash(message);
      const { rs, recovery } = signRecoverable(hash, privateKey);
      return `0x${toHex(rs)}${(27 + recovery).toString(16)}`;
    }
    case 'solana':
      return encodeBase58(ed25519.sign(new TextEncoder().encode(message), privateKey));
    case 'spark': {
      // Header 31–34: compressed key, accepted under both the bip137 and electrum schemes.
      const { rs, recovery } = signRecoverable(bitcoinMessageHash(message), privateKey);
      return Buffer.from(Uint8Array.from([31 + recovery, ...rs])).toString('base64');
    }
  }
}

function main(): void {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        type: { type: 'string' },
        'private-key': { type: 'string' },
        message: { type: 'string' },
        'new-key': { type: 'boolean', default: false },
        hrp: { type: 'string', default: 'spark' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    }));
  } catch (error) {
    fail((error as Error).message);
  }
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const accountType = values.type ?? fail('--type is required.');
  if (!isWalletAccountType(accountType)) fail(`Unknown wallet type ${accountType}.`);
  const format = WALLET_ADDRESS_FORMATS[accountType];
  const hrp = values.hrp as SparkHrp;
  if (!(SPARK_HRPS as readonly string[]).includes(hrp)) fail(`--hrp must be one of ${SPARK_HRPS.join(', ')}.`);

  if (values['new-key']) {
    const privateKey = format === 'solana' ? ed25519.utils.randomSecretKey() : secp256k1.utils.randomSecretKey();
    console.log(`type:        ${accountType}`);
    console.log(`private key: ${toHex(privateKey)}${format === 'solana' ? '  (ed25519 seed)' : ''}`);
    console.log(`address:     ${addressOf(format, privateKey, hrp)}`);
    if (values.message === undefined) return;
    printSignature(accountType, format, privateKey, values.message, hrp);
    return;
  }
  const privateKeyText = values['private-key'] ?? fail('--private-key (or --new-key) is required.');
  const message = values.message ?? fail('--message is required.');
  const privateKey = parsePrivateKey(privateKeyText, format);
  console.log(`type:        ${accountType}`);
  console.log(`address:     ${addressOf(format, privateKey, hrp)}`);
  printSignature(accountType, format, privateKey, message, hrp);
}

function printSignature(accountType: string, format: WalletAddressFormat, privateKey: Uint8Array, message: string, hrp: SparkHrp): void {
  const address = addressOf(format, privateKey, hrp);
  const signature = sign(format, privateKey, message);
  const check = verifyOwnershipSignature({ accountType, address, message, signature });
  if (!check.valid) throw new Error(`The signature does not verify: ${check.reason}`);
  console.log(`message:     ${JSON.stringify(message)}`);
  console.log(`signature:   ${signature}`);
  if (format === 'spark') console.log('scheme:      bip137 (header 31–34, also valid as electrum)');
}

main();

import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { encodeBase58 } from '../../src/domain/identifiers/base58';
import { toChecksumAddress } from '../../src/domain/identifiers/evm-address';
import { encodeSparkAddress } from '../../src/domain/identifiers/spark-address';
import { tronAddressFromPublicKey } from '../../src/domain/identifiers/tron-address';
import {
  bitcoinMessageHash,
  ethereumMessageHash,
  tronMessageHash,
  verifyOwnershipSignature,
} from '../../src/contexts/external-accounts/domain/ownership-signatures';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
const fromHex = (text: string): Uint8Array => Uint8Array.from(Buffer.from(text.replace(/^0x/, ''), 'hex'));
const base64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');

const CURVE_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const NOT_THE_SIGNER = 'The signature was not made with the key of this address.';
const MESSAGE = 'Prove ownership of this wallet for payments-service: nonce 5f2c9e, 2026-05-01T12:00:00Z ✓';

/** Signs a 32-byte hash and returns r ‖ s and the recovery id. */
function signHash(hash: Uint8Array, privateKey: Uint8Array): { rs: Uint8Array; recovery: number } {
  const recovered = secp256k1.sign(hash, privateKey, { prehash: false, format: 'recovered' });
  return { rs: recovered.subarray(1), recovery: recovered[0] };
}
const rsv = (rs: Uint8Array, v: number): string => `0x${hex(rs)}${v.toString(16).padStart(2, '0')}`;

function evmAddress(privateKey: Uint8Array): string {
  const key = secp256k1.getPublicKey(privateKey, false);
  return toChecksumAddress(`0x${hex(keccak_256(key.subarray(1)).subarray(12))}`);
}

/** The same signature with s replaced by n - s (and the recovery parity flipped). */
function highS(rs: Uint8Array, recovery: number): { rs: Uint8Array; recovery: number } {
  const s = BigInt(`0x${hex(rs.subarray(32))}`);
  const flipped = (CURVE_N - s).toString(16).padStart(64, '0');
  return { rs: Uint8Array.from([...rs.subarray(0, 32), ...fromHex(flipped)]), recovery: recovery ^ 1 };
}

describe('message hashes', () => {
  it('EIP-191 personal message hash', () => {
    // ethers: hashMessage("hello world")
    expect(hex(ethereumMessageHash('hello world'))).toBe('d9eba16ed0ecae432b71fe008c98cc872bb4cc214d3220a36f365326cf807d68');
    // The length is the UTF-8 byte length.
    expect(ethereumMessageHash('é')).toEqual(keccak_256(Uint8Array.from([...Buffer.from('\x19Ethereum Signed Message:\n2'), 0xc3, 0xa9])));
  });

  it('TIP-191 (TronWeb signMessageV2) hash', () => {
    expect(tronMessageHash('hello world')).toEqual(keccak_256(Buffer.from('\x19TRON Signed Message:\n11hello world')));
    expect(tronMessageHash('hello world')).not.toEqual(ethereumMessageHash('hello world'));
  });

  it('Bitcoin signed-message hash (bitcoinjs-message magicHash vectors)', () => {
    expect(hex(bitcoinMessageHash(''))).toBe('80e795d4a4caadd7047af389d9f7f220562feb6196032e2131e10563352c4bcc');
    expect(hex(bitcoinMessageHash('Vires is Numeris'))).toBe('f8a5affbef4a3241b19067aa694562f64f513310817297089a8929a930f4f933');
  });

  it('uses a multi-byte length prefix for long messages', () => {
    const long = 'x'.repeat(300);
    expect(() => bitcoinMessageHash(long)).not.toThrow();
    expect(bitcoinMessageHash(long)).not.toEqual(bitcoinMessageHash('x'.repeat(299)));
  });
});

describe('EVM wallets (EIP-191 personal_sign)', () => {
  // @metamask/eth-sig-util personal_sign vector: key 0x69…69 signs "hello world".
  const KNOWN = {
    key: fromHex('69'.repeat(32)),
    address: '0xbe93f9bacbcffc8ee6663f2647917ed7a20a57bb',
    message: 'hello world',
    signature: '0xce909e8ea6851bc36c007a0072d0524b07a3ff8d4e623aca4c71ca8e57250c4d0a3fc38fa8fbaaa81ead4b9f6bd03356b6f8bf18bccad167d78891636e1d69561b',
  };

  it('verifies the known-answer vector and reproduces it', () => {
    for (const accountType of ['ETHEREUM_WALLET', 'BASE_WALLET', 'POLYGON_WALLET', 'PLASMA_WALLET', 'ARBITRUM_WALLET']) {
      expect(verifyOwnershipSignature({ accountType, address: KNOWN.address, message: KNOWN.message, signature: KNOWN.signature })).toEqual({
        valid: true,
      });
    }
    expect(evmAddress(KNOWN.key).toLowerCase()).toBe(KNOWN.address);
    const { rs, recovery } = signHash(ethereumMessageHash(KNOWN.message), KNOWN.key);
    expect(rsv(rs, 27 + recovery)).toBe(KNOWN.signature);
  });

  it('compares addresses case-insensitively but refuses a broken EIP-55 checksum', () => {
    const checksummed = toChecksumAddress(KNOWN.address);
    const base = { accountType: 'ETHEREUM_WALLET', message: KNOWN.message, signature: KNOWN.signature };
    expect(verifyOwnershipSignature({ ...base, address: checksummed })).toEqual({ valid: true });
    expect(verifyOwnershipSignature({ ...base, address: KNOWN.address.toUpperCase().replace('0X', '0x') })).toEqual({ valid: true });
    const broken = checksummed.slice(0, -1) + (checksummed.endsWith('B') ? 'b' : 'B');
    expect(verifyOwnershipSignature({ ...base, address: broken }).valid).toBe(false);
  });

  const key = secp256k1.utils.randomSecretKey();
  const address = evmAddress(key);
  const signed = signHash(ethereumMessageHash(MESSAGE), key);
  const base = { accountType: 'ETHEREUM_WALLET', address, message: MESSAGE };

  it('accepts v as 27/28 or 0/1, with or without 0x', () => {
    expect(verifyOwnershipSignature({ ...base, signature: rsv(signed.rs, 27 + signed.recovery) })).toEqual({ valid: true });
    expect(verifyOwnershipSignature({ ...base, signature: rsv(signed.rs, signed.recovery) })).toEqual({ valid: true });
    expect(verifyOwnershipSignature({ ...base, signature: rsv(signed.rs, 27 + signed.recovery).slice(2) })).toEqual({ valid: true });
  });

  it('accepts the high-s twin of a valid signature', () => {
    const twin = highS(signed.rs, signed.recovery);
    expect(verifyOwnershipSignature({ ...base, signature: rsv(twin.rs, 27 + twin.recovery) })).toEqual({ valid: true });
  });

  it('refuses a tampered message, another key and the wrong recovery id', () => {
    const signature = rsv(signed.rs, 27 + signed.recovery);
    expect(verifyOwnershipSignature({ ...base, message: `${MESSAGE}.`, signature })).toEqual({ valid: false, reason: NOT_THE_SIGNER });
    expect(verifyOwnershipSignature({ ...base, address: evmAddress(secp256k1.utils.randomSecretKey()), signature })).toEqual({
      valid: false,
      reason: NOT_THE_SIGNER,
    });
    expect(verifyOwnershipSignature({ ...base, signature: rsv(signed.rs, 28 - signed.recovery) }).valid).toBe(false);
  });

  it.each([
    ['', '65 bytes'],
    ['0x1234', '65 bytes'],
    [`0x${'zz'.repeat(65)}`, '65 bytes'],
    [`0x${'11'.repeat(64)}1d`, 'recovery byte'],
    [`0x${'11'.repeat(64)}25`, 'recovery byte'],
    [`0x${'00'.repeat(64)}1b`, 'malformed'],
    [`0x${'ff'.repeat(64)}1b`, 'malformed'],
  ])('refuses the malformed signature %s', (signature, reason) => {
    const result = verifyOwnershipSignature({ ...base, signature });
    expect(result.valid).toBe(false);
    if (!result.valid) expect(result.reason).toContain(reason);
  });

  it('refuses an invalid address', () => {
    const result = verifyOwnershipSignature({ ...base, address: '0x1234', signature: rsv(signed.rs, 27 + signed.recovery) });
    expect(result.valid).toBe(false);
  });
});

describe('Tron wallets (TIP-191 signMessageV2)', () => {
  const key = secp256k1.utils.randomSecretKey();
  const address = tronAddressFromPublicKey(secp256k1.getPublicKey(key, false));
  const signed = signHash(tronMessageHash(MESSAGE), key);
  const base = { accountType: 'TRON_WALLET', address, message: MESSAGE };

  it('verifies a signature by the address key', () => {
    expect(verifyOwnershipSignature({ ...base, signature: rsv(signed.rs, 27 + signed.recovery) })).toEqual({ valid: true });
    expect(verifyOwnershipSignature({ ...base, signature: rsv(signed.rs, signed.recovery) })).toEqual({ valid: true });
  });

  it('refuses an Ethereum-prefixed signature, a tampered message, another key and junk', () => {
    const eth = signHash(ethereumMessageHash(MESSAGE), key);
    expect(verifyOwnershipSignature({ ...base, signature: rsv(eth.rs, 27 + eth.recovery) })).toEqual({ valid: false, reason: NOT_THE_SIGNER });
    const signature = rsv(signed.rs, 27 + signed.recovery);
    expect(verifyOwnershipSignature({ ...base, message: 'another message', signature })).toEqual({ valid: false, reason: NOT_THE_SIGNER });
    const other = tronAddressFromPublicKey(secp256k1.getPublicKey(secp256k1.utils.randomSecretKey(), false));
    expect(verifyOwnershipSignature({ ...base, address: other, signature })).toEqual({ valid: false, reason: NOT_THE_SIGNER });
    expect(verifyOwnershipSignature({ ...base, signature: signature.slice(0, -2) }).valid).toBe(false);
    expect(verifyOwnershipSignature({ ...base, address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6T', signature }).valid).toBe(false);
  });
});

describe('Solana wallets (ed25519)', () => {
  it('verifies RFC 8032 test 1 (empty message)', () => {
    const address = encodeBase58(fromHex('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a'));
    const signature = 'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b';
    expect(verifyOwnershipSignature({ accountType: 'SOLANA_WALLET', address, message: '', signature })).toEqual({ valid: true });
    expect(verifyOwnershipSignature({ accountType: 'SOLANA_WALLET', address, message: ' ', signature })).toEqual({
      valid: false,
      reason: NOT_THE_SIGNER,
    });
  });

  const seed = ed25519.utils.randomSecretKey();
  const address = encodeBase58(ed25519.getPublicKey(seed));
  const signature = ed25519.sign(new TextEncoder().encode(MESSAGE), seed);
  const base = { accountType: 'SOLANA_WALLET', address, message: MESSAGE };

  it.each([
    ['Base58', encodeBase58(signature)],
    ['hex', hex(signature)],
    ['0x hex', `0x${hex(signature)}`],
    ['base64', base64(signature)],
  ])('accepts a %s signature', (_encoding, encoded) => {
    expect(verifyOwnershipSignature({ ...base, signature: encoded })).toEqual({ valid: true });
  });

  it('refuses a tampered message, another key and a flipped bit', () => {
    expect(verifyOwnershipSignature({ ...base, message: MESSAGE.toUpperCase(), signature: encodeBase58(signature) })).toEqual({
      valid: false,
      reason: NOT_THE_SIGNER,
    });
    const other = encodeBase58(ed25519.getPublicKey(ed25519.utils.randomSecretKey()));
    expect(verifyOwnershipSignature({ ...base, address: other, signature: encodeBase58(signature) })).toEqual({
      valid: false,
      reason: NOT_THE_SIGNER,
    });
    const flipped = Uint8Array.from(signature);
    flipped[10] ^= 1;
    expect(verifyOwnershipSignature({ ...base, signature: encodeBase58(flipped) }).valid).toBe(false);
  });

  it.each(['', 'not a signature!', hex(signature).slice(2), base64(signature.subarray(1))])('refuses the malformed signature %#', (bad) => {
    const result = verifyOwnershipSignature({ ...base, signature: bad });
    expect(result).toEqual({ valid: false, reason: 'The signature must be 64 bytes in Base58, hex or base64.' });
  });

  it('refuses an invalid address', () => {
    expect(verifyOwnershipSignature({ ...base, address: '0OIl', signature: hex(signature) }).valid).toBe(false);
  });
});

describe('Spark wallets (Bitcoin message signing with the identity key)', () => {
  // bitcoinjs-message fixtures: private key 1 (public key G) signs "vires is numeris"; the same r, s
  // under the compressed (I…), P2SH-P2WPKH (J…, BIP-137 header 36) and P2WPKH (K…, header 40) headers.
  const G = fromHex('0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798');
  const gAddress = encodeSparkAddress(G);
  const compressed = 'IF8nHqFr3K2UKYahhX3soVeoW8W1ECNbr0wfck7lzyXjCS5Q16Ek45zyBuy1Fiy9sTPKVgsqqOuPvbycuVSSVl8=';
  const p2shP2wpkh = 'JF8nHqFr3K2UKYahhX3soVeoW8W1ECNbr0wfck7lzyXjCS5Q16Ek45zyBuy1Fiy9sTPKVgsqqOuPvbycuVSSVl8=';
  const p2wpkh = 'KF8nHqFr3K2UKYahhX3soVeoW8W1ECNbr0wfck7lzyXjCS5Q16Ek45zyBuy1Fiy9sTPKVgsqqOuPvbycuVSSVl8=';
  // Signed by the key of 1PMycacnJaSqwwJqjawXBErnLsZ7RkXUAs, not key 1.
  const otherKeys = 'H8JawPtQOrybrSP1WHQnQPr67B9S3qrxBrl1mlzoTJOSHEpmnF7D3+t+LX0Xei9J20B5AIdPbeL3AaTBZ4N3bY0=';
  const known = { accountType: 'SPARK_WALLET', address: gAddress, message: 'vires is numeris' };

  it('verifies the known-answer vectors (bip137 by default)', () => {
    expect(verifyOwnershipSignature({ ...known, signature: compressed })).toEqual({ valid: true });
    expect(verifyOwnershipSignature({ ...known, signature: p2shP2wpkh })).toEqual({ valid: true });
    expect(verifyOwnershipSignature({ ...known, signature: p2wpkh, signatureScheme: 'bip137' })).toEqual({ valid: true });
    expect(verifyOwnershipSignature({ ...known, signature: compressed, signatureScheme: 'electrum' })).toEqual({ valid: true });
    expect(verifyOwnershipSignature({ ...known, signature: otherKeys })).toEqual({ valid: false, reason: NOT_THE_SIGNER });
    expect(verifyOwnershipSignature({ ...known, message: 'Vires is numeris', signature: compressed })).toEqual({
      valid: false,
      reason: NOT_THE_SIGNER,
    });
  });

  it('refuses the SegWit headers under the electrum scheme, and unknown schemes', () => {
    expect(verifyOwnershipSignature({ ...known, signature: p2wpkh, signatureScheme: 'electrum' })).toEqual({
      valid: false,
      reason: 'The signature header byte must be between 27 and 34 for electrum.',
    });
    expect(verifyOwnershipSignature({ ...known, signature: compressed, signatureScheme: 'bip322' })).toEqual({
      valid: false,
      reason: 'Unknown signature scheme bip322: use bip137 or electrum.',
    });
  });

  const key = secp256k1.utils.randomSecretKey();
  const address = encodeSparkAddress(secp256k1.getPublicKey(key, true), 'sparkrt');
  const signed = signHash(bitcoinMessageHash(MESSAGE), key);
  const compact = (header: number, rs = signed.rs): string => base64(Uint8Array.from([header, ...rs]));
  const base = { accountType: 'SPARK_WALLET', address, message: MESSAGE };

  it('accepts every header range carrying the right recovery id', () => {
    for (const offset of [27, 31, 35, 39]) {
      expect(verifyOwnershipSignature({ ...base, signature: compact(offset + signed.recovery) })).toEqual({ valid: true });
    }
    const twin = highS(signed.rs, signed.recovery);
    expect(verifyOwnershipSignature({ ...base, signature: compact(31 + twin.recovery, twin.rs) })).toEqual({ valid: true });
  });

  it('refuses a tampered message, another key, a wrong recovery id and bad headers', () => {
    expect(verifyOwnershipSignature({ ...base, message: 'x', signature: compact(31 + signed.recovery) })).toEqual({
      valid: false,
      reason: NOT_THE_SIGNER,
    });
    expect(verifyOwnershipSignature({ ...base, address: gAddress, signature: compact(31 + signed.recovery) })).toEqual({
      valid: false,
      reason: NOT_THE_SIGNER,
    });
    expect(verifyOwnershipSignature({ ...base, signature: compact(31 + (signed.recovery ^ 1)) }).valid).toBe(false);
    for (const header of [26, 43, 0, 255]) {
      const result = verifyOwnershipSignature({ ...base, signature: compact(header) });
      expect(result).toEqual({ valid: false, reason: 'The signature header byte must be between 27 and 42 for bip137.' });
    }
  });

  it.each([
    ['', '65 bytes in base64'],
    [hex(Uint8Array.from([31, ...signed.rs])), '65 bytes in base64'],
    [base64(signed.rs), '65 bytes in base64'],
    ['!!!!', '65 bytes in base64'],
    [base64(Uint8Array.from([31, ...new Uint8Array(64)])), 'malformed'],
  ])('refuses the malformed signature %#', (signature, reason) => {
    const result = verifyOwnershipSignature({ ...base, signature });
    expect(result.valid).toBe(false);
    if (!result.valid) expect(result.reason).toContain(reason);
  });

  it('refuses an invalid address', () => {
    const result = verifyOwnershipSignature({ ...base, address: 'spark1qqqqqq', signature: compact(31 + signed.recovery) });
    expect(result.valid).toBe(false);
  });
});

describe('other account types', () => {
  it.each(['IBAN', 'US_ACCOUNT', 'LIGHTNING', ''])('refuses %j', (accountType) => {
    expect(verifyOwnershipSignature({ accountType, address: 'x', message: 'm', signature: 's' })).toEqual({
      valid: false,
      reason: `ownership signatures are not supported for ${accountType}`,
    });
  });
});

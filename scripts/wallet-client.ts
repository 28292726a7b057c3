/**
 * What an app does with an embedded wallet, from the command line, for trying the API by hand and
 * for docs/wallets-and-sca.md (the same client modules the tests use: test/support/wallet/).
 *
 *   npx tsx scripts/wallet-client.ts keypair                                  → {"publicKey","privateKey"} (hex)
 *   npx tsx scripts/wallet-client.ts encrypt-otp <targetBundle> <publicKey> <code>   → the encryptedOtpBundle
 *   npx tsx scripts/wallet-client.ts stamp <privateKey> <payloadToSign>        → the Svc-Wallet-Signature value
 *   npx tsx scripts/wallet-client.ts login --base <url> --auth <tokenId:secret> --credential <AuthMethod:…> [--code 000000]
 *       → the whole OTP login (challenge, sealed code, 202, stamped retry): {"session", "privateKey"}
 *   npx tsx scripts/wallet-client.ts pay-quote --base <url> --auth <tokenId:secret> --quote <Quote:…> --private-key <hex>
 *       → signs the quote's EMBEDDED_WALLET payloadToSign with the session key and executes it: the quote, PROCESSING
 *
 * Any argument may be `-` to read it from stdin (payloads hold quotes). Test keys only: a private
 * key on a command line ends up in the shell history.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { deviceKeyOf, newDeviceKey } from '../test/support/wallet/keys';
import { encryptOtp } from '../test/support/wallet/otp';
import { otpLoginOverHttp } from '../test/support/wallet/http-login';
import { payQuoteOverHttp } from '../test/support/wallet/http-pay';
import { stamp } from '../test/support/wallet/stamp';

const arg = (value: string | undefined, name: string): string => {
  if (value === undefined) throw new Error(`missing ${name}`);
  return value === '-' ? readFileSync(0, 'utf8').replace(/\n$/, '') : value;
};
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  switch (command) {
    case 'keypair': {
      const key = newDeviceKey();
      return { publicKey: key.publicKey, privateKey: hex(key.privateKey) };
    }
    case 'encrypt-otp':
      return encryptOtp(arg(rest[0], 'targetBundle'), arg(rest[2], 'code'), arg(rest[1], 'publicKey'));
    case 'stamp':
      return stamp(deviceKeyOf(arg(rest[0], 'privateKey')), arg(rest[1], 'payloadToSign'));
    case 'login': {
      const { values } = parseArgs({
        args: rest,
        options: { base: { type: 'string' }, auth: { type: 'string' }, credential: { type: 'string' }, code: { type: 'string' } },
      });
      return otpLoginOverHttp(arg(values.base, '--base'), arg(values.auth, '--auth'), arg(values.credential, '--credential'), values.code ?? '000000');
    }
    case 'pay-quote': {
      const { values } = parseArgs({
        args: rest,
        options: { base: { type: 'string' }, auth: { type: 'string' }, quote: { type: 'string' }, 'private-key': { type: 'string' } },
      });
      return payQuoteOverHttp(
        arg(values.base, '--base'),
        arg(values.auth, '--auth'),
        arg(values.quote, '--quote'),
        arg(values['private-key'], '--private-key'),
      );
    }
    default:
      throw new Error(
        'usage: wallet-client.ts keypair | encrypt-otp <bundle> <publicKey> <code> | stamp <privateKey> <payload> | login --base --auth --credential | pay-quote --base --auth --quote --private-key',
      );
  }
}

main().then(
  (out) => console.log(typeof out === 'string' ? out : JSON.stringify(out, null, 2)),
  (err: Error) => {
    console.error(err.message);
    process.exit(1);
  },
);

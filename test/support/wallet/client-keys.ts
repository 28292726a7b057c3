import { Aes256Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from '@hpke/core';
import { p256 } from '@noble/curves/nist.js';
import { decodeBase58Check } from '../../../src/domain/identifiers/base58';
import { SESSION_KEY_INFO, WALLET_EXPORT_INFO, sealingAad } from '../../../src/contexts/wallet-auth/services/client-sealing';

const suite = new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes256Gcm() });

/** A client's fresh P-256 key pair, as an app generates one per authentication or export. */
export class ClientKeyPair {
  readonly privateKey = p256.utils.randomSecretKey();
  /** Uncompressed (04…) hex: the reference's legacy and export form. */
  readonly publicKeyHex = Buffer.from(p256.getPublicKey(this.privateKey, false)).toString('hex');
  readonly compressedPublicKeyHex = Buffer.from(p256.getPublicKey(this.privateKey, true)).toString('hex');

  private async open(enc: Uint8Array, ciphertext: Uint8Array, info: string): Promise<Uint8Array> {
    const recipientKey = await suite.kem.deserializePrivateKey(this.privateKey);
    const recipient = p256.getPublicKey(this.privateKey, false);
    const context = await suite.createRecipientContext({ recipientKey, enc, info: new TextEncoder().encode(info) });
    return new Uint8Array(await context.open(ciphertext, sealingAad(enc, recipient)));
  }

  /** Opens `encryptedSessionSigningKey`: the session's 32-byte private scalar. */
  async openSessionSigningKey(bundle: string): Promise<Uint8Array> {
    const decoded = decodeBase58Check(bundle);
    if (!decoded.ok) throw new Error(decoded.reason);
    const enc = p256.Point.fromBytes(decoded.payload.slice(0, 33)).toBytes(false);
    return this.open(enc, decoded.payload.slice(33), SESSION_KEY_INFO);
  }

  /** Opens an export's `encryptedWalletCredentials` envelope: the wallet's secret. */
  async openWalletExport(envelope: string): Promise<string> {
    const { data } = JSON.parse(envelope) as { data: string };
    const inner = JSON.parse(Buffer.from(data, 'hex').toString('utf8')) as { encappedPublic: string; ciphertext: string };
    const plain = await this.open(Buffer.from(inner.encappedPublic, 'hex'), Buffer.from(inner.ciphertext, 'hex'), WALLET_EXPORT_INFO);
    return new TextDecoder().decode(plain);
  }
}

import { p256 } from '@noble/curves/nist.js';
import { newSessionKeyPair, sealSessionSigningKey, sealWalletExport } from '../../src/contexts/wallet-auth/services/client-sealing';
import { ClientKeyPair } from '../support/wallet/client-keys';

describe('sealing to the client key (HPKE P-256 / HKDF-SHA256 / AES-256-GCM)', () => {
  test('a session signing key sealed to the client opens with its private key only, to the key whose public half is stored', async () => {
    const client = new ClientKeyPair();
    const session = newSessionKeyPair();
    for (const clientKey of [client.publicKeyHex, client.compressedPublicKeyHex]) {
      const bundle = await sealSessionSigningKey(clientKey, session.privateKey);
      const opened = await client.openSessionSigningKey(bundle);
      expect(Buffer.from(p256.getPublicKey(opened, true)).toString('hex')).toBe(session.publicKeyHex);
      await expect(new ClientKeyPair().openSessionSigningKey(bundle)).rejects.toThrow();
    }
  });

  test("an export envelope is the reference's shape and opens with the client's private key only", async () => {
    const client = new ClientKeyPair();
    const envelope = await sealWalletExport(client.publicKeyHex, 'InternalAccount:1', 'secret words');
    const parsed = JSON.parse(envelope) as Record<string, string>;
    expect(parsed).toEqual({ version: 'v1.0.0', data: expect.stringMatching(/^[0-9a-f]+$/), dataSignature: '', enclaveQuorumPublic: '' });
    expect(JSON.parse(Buffer.from(parsed.data!, 'hex').toString())).toEqual({
      encappedPublic: expect.stringMatching(/^04/),
      ciphertext: expect.any(String),
      organizationId: 'InternalAccount:1',
    });
    expect(envelope).not.toContain('secret words');
    await expect(client.openWalletExport(envelope)).resolves.toBe('secret words');
    await expect(new ClientKeyPair().openWalletExport(envelope)).rejects.toThrow();
  });

  test('a key that is not a P-256 point is refused', async () => {
    await expect(sealSessionSigningKey(`04${'00'.repeat(64)}`, newSessionKeyPair().privateKey)).rejects.toThrow();
  });
});

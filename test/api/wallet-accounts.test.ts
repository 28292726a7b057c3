import { mnemonicToEntropy, validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { DelegatedKey } from '../../src/contexts/cards/entities';
import { WalletSecret } from '../../src/contexts/wallet-auth/entities';
import { decrypt } from '../../src/security/secrets';
import { eventually } from '../support/eventually';
import { Harness } from '../support/harness';
import { ClientKeyPair } from '../support/wallet/client-keys';
import { newDeviceKey } from '../support/wallet/keys';
import { walletWithSession } from '../support/wallet/session-fixture';
import { signedHeaders } from '../support/wallet/stamp';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
}, 120_000);
afterAll(async () => {
  await h.stop();
});

const walletPlatform = () => h.platform({ embeddedWalletsSupported: true });
type Api = Awaited<ReturnType<Harness['platform']>>['api'];
type Signer = Awaited<ReturnType<typeof walletWithSession>>['key'];

/** Both legs of a signed POST: the 202, then the same body signed. */
async function signedPost(api: Api, path: string, body: unknown, key: Signer) {
  const first = await api.post(path, body);
  expect(first.status).toBe(202);
  expect(first.body).toEqual({ payloadToSign: expect.any(String), requestId: expect.stringMatching(/^Request:/), expiresAt: expect.any(String) });
  return { first, retry: await api.post(path, body, signedHeaders(key, first.body)) };
}

describe('POST /internal-accounts/{id}/export', () => {
  test("the wallet's credentials, sealed to the request's clientPublicKey: only its private key opens them; the same secret each time", async () => {
    const { api, platform } = await walletPlatform();
    const { walletId, key } = await walletWithSession(h.orm, api, platform.id);
    const client = new ClientKeyPair();
    const { first, retry } = await signedPost(api, `/internal-accounts/${walletId}/export`, { clientPublicKey: client.publicKeyHex }, key);
    expect(JSON.parse(first.body.payloadToSign)).toMatchObject({
      organizationId: walletId,
      type: 'ACTIVITY_TYPE_EXPORT_WALLET',
      parameters: { targetPublicKey: client.publicKeyHex },
    });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual({ id: walletId, encryptedWalletCredentials: expect.any(String) });
    const secret = await client.openWalletExport(retry.body.encryptedWalletCredentials);
    // The reference's plaintext: a BIP-39 mnemonic (24 English words: the 256-bit seed with its checksum).
    expect(secret.split(' ')).toHaveLength(24);
    expect(validateMnemonic(secret, wordlist)).toBe(true);
    await expect(new ClientKeyPair().openWalletExport(retry.body.encryptedWalletCredentials)).rejects.toThrow();
    // Stored sealed under the master key, never in clear: the seed the words encode.
    const stored = await h.orm.em.fork().findOneOrFail(WalletSecret, { accountId: walletId }, { populate: ['sealedSeed'] });
    const seed = decrypt(h.masterKey, stored.sealedSeed);
    expect(stored.sealedSeed).not.toContain(seed);
    expect(Buffer.from(mnemonicToEntropy(secret, wordlist)).toString('hex')).toBe(seed);
    // A second export (another fresh key) gives the same wallet secret.
    const again = new ClientKeyPair();
    const second = await signedPost(api, `/internal-accounts/${walletId}/export`, { clientPublicKey: again.publicKeyHex }, key);
    await expect(again.openWalletExport(second.retry.body.encryptedWalletCredentials)).resolves.toBe(secret);
  });

  test('the retry must carry the same clientPublicKey (401 WALLET_SIGNATURE_BODY_MISMATCH)', async () => {
    const { api, platform } = await walletPlatform();
    const { walletId, key } = await walletWithSession(h.orm, api, platform.id);
    const first = await api.post(`/internal-accounts/${walletId}/export`, { clientPublicKey: new ClientKeyPair().publicKeyHex });
    const swapped = await api.post(
      `/internal-accounts/${walletId}/export`,
      { clientPublicKey: new ClientKeyPair().publicKeyHex },
      signedHeaders(key, first.body),
    );
    expect(swapped.status).toBe(401);
    expect(swapped.body.code).toBe('WALLET_SIGNATURE_BODY_MISMATCH');
  });

  test('a stamp by a key that is no session of the wallet is 401 WALLET_SIGNATURE_INVALID', async () => {
    const { api, platform } = await walletPlatform();
    const { walletId } = await walletWithSession(h.orm, api, platform.id);
    const body = { clientPublicKey: new ClientKeyPair().publicKeyHex };
    const first = await api.post(`/internal-accounts/${walletId}/export`, body);
    const res = await api.post(`/internal-accounts/${walletId}/export`, body, signedHeaders(newDeviceKey(), first.body));
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('WALLET_SIGNATURE_INVALID');
  });

  test('the export key must be an uncompressed P-256 key (400)', async () => {
    const { api, platform } = await walletPlatform();
    const { walletId } = await walletWithSession(h.orm, api, platform.id);
    const res = await api.post(`/internal-accounts/${walletId}/export`, { clientPublicKey: new ClientKeyPair().compressedPublicKeyHex });
    expect(res.status).toBe(400);
    expect(res.body.details.errors[0].field).toBe('clientPublicKey');
  });
});

describe('PATCH /internal-accounts/{id}', () => {
  test('privateEnabled is toggled by the signed retry (200) and nothing changes before it', async () => {
    const { api, platform } = await walletPlatform();
    const { walletId, customerId, key } = await walletWithSession(h.orm, api, platform.id);
    const path = `/internal-accounts/${walletId}`;
    const first = await api.patch(path, { privateEnabled: true });
    expect(first.status).toBe(202);
    const read = async () => (await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&type=EMBEDDED_WALLET`)).body.data[0];
    expect((await read()).privateEnabled).toBe(false);
    const retry = await api.patch(path, { privateEnabled: true }, signedHeaders(key, first.body));
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ id: walletId, type: 'EMBEDDED_WALLET', privateEnabled: true });
    expect((await read()).privateEnabled).toBe(true);
  });

  test('one settings change waits for its signature at a time: another body is 409 OPERATION_IN_PROGRESS, the same one gets its challenge again', async () => {
    const { api, platform } = await walletPlatform();
    const { walletId, key } = await walletWithSession(h.orm, api, platform.id);
    const path = `/internal-accounts/${walletId}`;
    const first = await api.patch(path, { privateEnabled: true });
    expect(first.status).toBe(202);
    expect((await api.patch(path, { privateEnabled: true })).body.requestId).toBe(first.body.requestId);
    const other = await api.patch(path, { privateEnabled: false });
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('OPERATION_IN_PROGRESS');
    expect((await api.patch(path, { privateEnabled: true }, signedHeaders(key, first.body))).status).toBe(200);
    expect((await api.patch(path, { privateEnabled: false })).status).toBe(202);
  });

  test('an empty body is 400; an account that is no embedded wallet is 409 WALLET_NOT_PROVISIONED', async () => {
    const { api, platform } = await walletPlatform();
    const { walletId, customerId } = await walletWithSession(h.orm, api, platform.id);
    expect((await api.patch(`/internal-accounts/${walletId}`, {})).status).toBe(400);
    const usd = (await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&currency=USD`)).body.data[0];
    const res = await api.patch(`/internal-accounts/${usd.id}`, { privateEnabled: true });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('WALLET_NOT_PROVISIONED');
  });

  test("tenant isolation: another platform's PATCH or export of the wallet is 404, even with the owner's signed request", async () => {
    const { api, platform } = await walletPlatform();
    const { api: other } = await walletPlatform();
    const { walletId, key } = await walletWithSession(h.orm, api, platform.id);
    const first = await api.patch(`/internal-accounts/${walletId}`, { privateEnabled: true });
    expect((await other.patch(`/internal-accounts/${walletId}`, { privateEnabled: true }, signedHeaders(key, first.body))).status).toBe(404);
    expect((await other.post(`/internal-accounts/${walletId}/export`, { clientPublicKey: new ClientKeyPair().publicKeyHex })).status).toBe(404);
  });
});

describe('delegated keys', () => {
  async function walletCard(api: Api, platformId: string) {
    const wallet = await walletWithSession(h.orm, api, platformId);
    const card = await api.post('/cards', { cardholderId: wallet.customerId, form: 'VIRTUAL', fundingSources: [wallet.walletId] });
    expect(card.status).toBe(201);
    return { ...wallet, cardId: card.body.id as string };
  }

  async function createKey(api: Api, wallet: Awaited<ReturnType<typeof walletCard>>, nickname = 'Card key') {
    const body = { cardId: wallet.cardId, internalAccountId: wallet.walletId, nickname };
    const { retry: second } = await signedPost(api, '/auth/delegated-keys', body, wallet.key);
    expect(second.status).toBe(202);
    const pending = await api.get(`/auth/delegated-keys?accountId=${encodeURIComponent(wallet.walletId)}`);
    expect(pending.body.data.at(-1)).toMatchObject({ status: 'PENDING' });
    const third = await api.post('/auth/delegated-keys', body, signedHeaders(wallet.key, second.body));
    return third;
  }

  test('three legs: 202, 202 (the key made PENDING), 201 ACTIVE; its private key is sealed at rest and never shown', async () => {
    const { api, platform } = await walletPlatform();
    const wallet = await walletCard(api, platform.id);
    const res = await createKey(api, wallet);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^DelegatedKey:/),
      cardId: wallet.cardId,
      fundingSourceId: wallet.walletId,
      accountId: wallet.walletId,
      publicKey: expect.stringMatching(/^0[23][0-9a-f]{64}$/),
      nickname: 'Card key',
      status: 'ACTIVE',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await api.get(`/auth/delegated-keys/${res.body.id}`)).body).toEqual(res.body);
    expect((await api.get(`/auth/delegated-keys?fundingSourceId=${encodeURIComponent(wallet.walletId)}`)).body.data.map((k: { id: string }) => k.id)).toContain(
      res.body.id,
    );
    const row = await h.orm.em.fork().findOneOrFail(DelegatedKey, { id: res.body.id }, { populate: ['sealedPrivateKey'] });
    expect(row.sealedPrivateKey).toMatch(/^v1\./);
    expect(decrypt(h.masterKey, row.sealedPrivateKey)).toMatch(/^[0-9a-f]{64}$/);
  });

  test('a card funded by the wallet authorizes only while an ACTIVE delegated key exists for it: declined FUNDING_SOURCE_NOT_AUTHORIZED before and after', async () => {
    const { api, platform } = await walletPlatform();
    const wallet = await walletCard(api, platform.id);
    expect((await api.post(`/sandbox/internal-accounts/${wallet.walletId}/fund`, { amount: 10_000 })).status).toBe(200);
    const card = await eventually(
      () => api.get(`/cards/${wallet.cardId}`),
      (r) => r.body.state === 'ACTIVE',
    );
    const merchant = { descriptor: 'CORNER SHOP', mcc: '5411', country: 'US' };
    const authorize = () =>
      api.post(`/sandbox/cards/${wallet.cardId}/simulate/authorization`, { amount: 500, currency: { code: card.body.currency }, merchant });
    const before = await authorize();
    expect([before.status, before.body.declineReason, before.body.cardTransactionId]).toEqual([202, 'FUNDING_SOURCE_NOT_AUTHORIZED', undefined]);
    const key = await createKey(api, wallet);
    expect(key.status).toBe(201);
    const approved = await authorize();
    expect([approved.status, approved.body.declineReason, approved.body.cardTransactionId]).toEqual([
      202,
      undefined,
      expect.stringMatching(/^CardTransaction:/),
    ]);
    expect((await api.delete(`/auth/delegated-keys/${key.body.id}`)).status).toBe(204);
    expect((await authorize()).body.declineReason).toBe('FUNDING_SOURCE_NOT_AUTHORIZED');
  });

  test('one ACTIVE key per card funding source (409); revoke is 204, then 400 as it is no longer ACTIVE', async () => {
    const { api, platform } = await walletPlatform();
    const wallet = await walletCard(api, platform.id);
    const key = await createKey(api, wallet);
    const again = await api.post('/auth/delegated-keys', { cardId: wallet.cardId, internalAccountId: wallet.walletId, nickname: 'Second' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('CONFLICT');
    expect((await api.delete(`/auth/delegated-keys/${key.body.id}`)).status).toBe(204);
    expect((await api.get(`/auth/delegated-keys/${key.body.id}`)).body.status).toBe('REVOKED');
    const twice = await api.delete(`/auth/delegated-keys/${key.body.id}`);
    expect(twice.status).toBe(400);
    expect((await createKey(api, wallet, 'Replacement')).status).toBe(201);
  });

  test('the account must be a funding source of the card (400); the list needs accountId or fundingSourceId (400)', async () => {
    const { api, platform } = await walletPlatform();
    const wallet = await walletCard(api, platform.id);
    const other = await walletWithSession(h.orm, api, platform.id);
    const res = await api.post('/auth/delegated-keys', { cardId: wallet.cardId, internalAccountId: other.walletId, nickname: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.details.errors[0].field).toBe('internalAccountId');
    expect((await api.get('/auth/delegated-keys')).status).toBe(400);
  });

  test("tenant isolation: another platform cannot create on, read, list or revoke a platform's delegated keys", async () => {
    const { api, platform } = await walletPlatform();
    const { api: other } = await walletPlatform();
    const wallet = await walletCard(api, platform.id);
    const key = await createKey(api, wallet);
    expect((await other.get(`/auth/delegated-keys/${key.body.id}`)).status).toBe(404);
    expect((await other.delete(`/auth/delegated-keys/${key.body.id}`)).status).toBe(404);
    expect((await other.get(`/auth/delegated-keys?accountId=${encodeURIComponent(wallet.walletId)}`)).body.data).toEqual([]);
    expect((await other.post('/auth/delegated-keys', { cardId: wallet.cardId, internalAccountId: wallet.walletId, nickname: 'x' })).status).toBe(404);
    expect((await api.get(`/auth/delegated-keys/${key.body.id}`)).body.status).toBe('ACTIVE');
  });
});

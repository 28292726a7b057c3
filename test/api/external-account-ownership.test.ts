import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { ExternalAccount } from '../../src/contexts/external-accounts/entities';
import { encodeBase58 } from '../../src/domain/identifiers/base58';
import { toChecksumAddress } from '../../src/domain/identifiers/evm-address';
import { encodeSparkAddress } from '../../src/domain/identifiers/spark-address';
import { bitcoinMessageHash, ethereumMessageHash } from '../../src/contexts/external-accounts/domain/ownership-signatures';
import { eventually } from '../support/eventually';
import { Harness } from '../support/harness';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

type Api = Awaited<ReturnType<Harness['platform']>>['api'];

/** An EVM key pair and an EIP-191 personal-sign over a message, as a wallet makes it. */
function evmWallet() {
  const secret = secp256k1.utils.randomSecretKey();
  const address = toChecksumAddress(`0x${Buffer.from(keccak_256(secp256k1.getPublicKey(secret, false).subarray(1)).subarray(12)).toString('hex')}`);
  const sign = (message: string) => {
    const sig = secp256k1.sign(ethereumMessageHash(message), secret, { prehash: false, format: 'recovered' });
    return `0x${Buffer.concat([Buffer.from(sig.subarray(1)), Buffer.from([sig[0]! + 27])]).toString('hex')}`;
  };
  return { address, sign };
}

/** A platform subject to counterparty (travel-rule) requirements, in the EU. */
async function travelRulePlatform() {
  const { api } = await h.platform({ region: 'EU', counterpartyInformationRequired: true });
  const customer = await api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `c-${Math.random()}`, fullName: 'Jane Doe' });
  return { api, customerId: customer.body.id as string };
}

const wallet = (customerId: string, accountType: string, address: string, extra: Record<string, unknown> = {}) => ({
  customerId,
  currency: accountType === 'SPARK_WALLET' ? 'BTC' : 'USDC',
  ownershipType: 'FIRST_PARTY',
  accountInfo: { accountType, address },
  ...extra,
});

async function statusOf(api: Api, id: string) {
  return (await api.get(`/customers/external-accounts/${id}`)).body.status as string;
}

describe('ownership of self-custody wallets', () => {
  test('EVM: challenge, a wrong signature (UNVERIFIED), a new challenge, the right signature (ACTIVE), each change announced', async () => {
    const { api, customerId } = await travelRulePlatform();
    const key = evmWallet();
    const created = await api.post('/customers/external-accounts', wallet(customerId, 'ETHEREUM_WALLET', key.address.toLowerCase()));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'PENDING_OWNERSHIP_VERIFICATION', ownershipType: 'FIRST_PARTY', accountInfo: { address: key.address } });
    expect(created.body.beneficiaryVerificationStatus).toBeUndefined();
    const id = created.body.id as string;

    const noChallengeYet = await api.post(`/customers/external-accounts/${id}/verify`, { signature: key.sign('anything') });
    expect(noChallengeYet.status).toBe(409);

    const first = await api.post(`/customers/external-accounts/${id}/challenge`, { method: 'WALLET_SIGNATURE' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ method: 'WALLET_SIGNATURE', messageToSign: expect.stringContaining(id) });
    expect(Date.parse(first.body.expiresAt)).toBeGreaterThan(Date.now());

    const stranger = evmWallet();
    const wrong = await api.post(`/customers/external-accounts/${id}/verify`, { signature: stranger.sign(first.body.messageToSign) });
    expect(wrong.status).toBe(400);
    expect(wrong.body.details.errors[0]).toMatchObject({ field: 'signature' });
    expect(await statusOf(api, id)).toBe('UNVERIFIED');
    // The failed challenge is spent: the right signature now needs a new one.
    expect((await api.post(`/customers/external-accounts/${id}/verify`, { signature: key.sign(first.body.messageToSign) })).status).toBe(409);

    const second = await api.post(`/customers/external-accounts/${id}/challenge`, { method: 'WALLET_SIGNATURE' });
    expect(second.status).toBe(201);
    expect(second.body.messageToSign).not.toBe(first.body.messageToSign);
    expect(await statusOf(api, id)).toBe('PENDING_OWNERSHIP_VERIFICATION');
    const right = await api.post(`/customers/external-accounts/${id}/verify`, { signature: key.sign(second.body.messageToSign) });
    expect(right.status).toBe(200);
    expect(right.body).toMatchObject({ id, status: 'ACTIVE' });

    await h.receiver.waitFor((hooks) => hooks.filter((w) => w.body.data.id === id).length >= 3);
    const statuses = h.receiver.received
      .filter((w) => w.body.type === 'EXTERNAL_ACCOUNT.STATUS_UPDATED' && w.body.data.id === id)
      .map((w) => w.body.data.status);
    expect(statuses).toEqual(['UNVERIFIED', 'PENDING_OWNERSHIP_VERIFICATION', 'ACTIVE']);
    // Verified: nothing left to challenge.
    expect((await api.post(`/customers/external-accounts/${id}/challenge`, { method: 'WALLET_SIGNATURE' })).status).toBe(409);
  });

  test('Solana (ed25519) and Spark (Bitcoin message signing over the identity key)', async () => {
    const { api, customerId } = await travelRulePlatform();
    const solSecret = ed25519.utils.randomSecretKey();
    const solAddress = encodeBase58(ed25519.getPublicKey(solSecret));
    const sol = await api.post('/customers/external-accounts', wallet(customerId, 'SOLANA_WALLET', solAddress));
    expect(sol.status).toBe(201);
    const solChallenge = await api.post(`/customers/external-accounts/${sol.body.id}/challenge`, { method: 'WALLET_SIGNATURE' });
    const solSignature = encodeBase58(ed25519.sign(new TextEncoder().encode(solChallenge.body.messageToSign), solSecret));
    const solVerified = await api.post(`/customers/external-accounts/${sol.body.id}/verify`, { signature: solSignature });
    expect(solVerified.status).toBe(200);
    expect(solVerified.body.status).toBe('ACTIVE');

    const sparkSecret = secp256k1.utils.randomSecretKey();
    const sparkAddress = encodeSparkAddress(secp256k1.getPublicKey(sparkSecret, true));
    const spark = await api.post('/customers/external-accounts', wallet(customerId, 'SPARK_WALLET', sparkAddress));
    expect(spark.status).toBe(201);
    const sparkChallenge = await api.post(`/customers/external-accounts/${spark.body.id}/challenge`, { method: 'WALLET_SIGNATURE' });
    const sig = secp256k1.sign(bitcoinMessageHash(sparkChallenge.body.messageToSign), sparkSecret, { prehash: false, format: 'recovered' });
    // BIP-137 compact form: header 31 + recovery id (compressed key), then r and s.
    const signature = Buffer.concat([Buffer.from([31 + sig[0]!]), Buffer.from(sig.subarray(1))]).toString('base64');
    const sparkVerified = await api.post(`/customers/external-accounts/${spark.body.id}/verify`, { signature, signatureScheme: 'bip137' });
    expect(sparkVerified.status).toBe(200);
    expect(sparkVerified.body.status).toBe('ACTIVE');
  });

  test('LIVENESS: a hosted link; the sandbox completes the flow and the outcome arrives asynchronously', async () => {
    const { api, customerId } = await travelRulePlatform();
    const created = await api.post('/customers/external-accounts', wallet(customerId, 'BASE_WALLET', evmWallet().address));
    const id = created.body.id as string;
    expect((await api.post(`/sandbox/external-accounts/${id}/liveness`, { result: 'PASSED' })).status).toBe(409);
    const challenge = await api.post(`/customers/external-accounts/${id}/challenge`, { method: 'LIVENESS' });
    expect(challenge.status).toBe(201);
    expect(challenge.body).toMatchObject({
      method: 'LIVENESS',
      verificationLink: expect.stringContaining(`/sandbox/external-accounts/${encodeURIComponent(id)}/liveness`),
    });
    // LIVENESS never uses the verify endpoint.
    expect((await api.post(`/customers/external-accounts/${id}/verify`, { signature: '0x00' })).status).toBe(409);
    expect((await api.post(`/sandbox/external-accounts/${id}/liveness`, { result: 'FAILED' })).status).toBe(202);
    expect(
      await eventually(
        () => statusOf(api, id),
        (s) => s === 'UNVERIFIED',
      ),
    ).toBe('UNVERIFIED');
    await api.post(`/customers/external-accounts/${id}/challenge`, { method: 'LIVENESS' });
    expect((await api.post(`/sandbox/external-accounts/${id}/liveness`, { result: 'PASSED' })).status).toBe(202);
    expect(
      await eventually(
        () => statusOf(api, id),
        (s) => s === 'ACTIVE',
      ),
    ).toBe('ACTIVE');
  });

  test('where ownership verification does not apply, a challenge is 409', async () => {
    const { api, customerId } = await travelRulePlatform();
    const custodial = await api.post(
      '/customers/external-accounts',
      wallet(customerId, 'ETHEREUM_WALLET', evmWallet().address, {
        accountInfo: { accountType: 'ETHEREUM_WALLET', address: evmWallet().address, vaspName: 'kraken' },
      }),
    );
    expect(custodial.status).toBe(201);
    expect(custodial.body).toMatchObject({ status: 'ACTIVE', accountInfo: { vaspName: 'Kraken' } });
    const thirdParty = await api.post(
      '/customers/external-accounts',
      wallet(customerId, 'ETHEREUM_WALLET', evmWallet().address, {
        ownershipType: 'THIRD_PARTY',
        accountInfo: {
          accountType: 'ETHEREUM_WALLET',
          address: evmWallet().address,
          beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Max Muster', countryOfResidence: 'DE' },
        },
      }),
    );
    expect(thirdParty.status).toBe(201);
    for (const id of [custodial.body.id, thirdParty.body.id]) {
      expect((await api.post(`/customers/external-accounts/${id}/challenge`, { method: 'WALLET_SIGNATURE' })).status).toBe(409);
    }
  });

  test('counterparty rules and address checks refuse bad wallets; nothing is stored', async () => {
    const { api, customerId } = await travelRulePlatform();
    const address = evmWallet().address;
    const badChecksum =
      address.slice(0, 2) + [...address.slice(2)].map((c) => (/[a-f]/.test(c) ? c.toUpperCase() : /[A-F]/.test(c) ? c.toLowerCase() : c)).join('');
    const cases: [Record<string, unknown>, string[]][] = [
      [{ ...wallet(customerId, 'ETHEREUM_WALLET', address), ownershipType: undefined }, ['ownershipType']],
      [{ ...wallet(customerId, 'ETHEREUM_WALLET', address), ownershipType: 'THIRD_PARTY' }, ['accountInfo.beneficiary']],
      [wallet(customerId, 'ETHEREUM_WALLET', badChecksum), ['accountInfo.address']],
      [wallet(customerId, 'TRON_WALLET', 'TLyqzVGLV1srkB7dToTAEqgDSfPtXRJZYX', { currency: 'USDT' }), ['accountInfo.address']],
      [
        wallet(customerId, 'ETHEREUM_WALLET', address, { accountInfo: { accountType: 'ETHEREUM_WALLET', address, vaspName: 'Nobody Exchange' } }),
        ['accountInfo.vaspName'],
      ],
      [wallet(customerId, 'SOLANA_WALLET', address), ['accountInfo.address']],
      [wallet(customerId, 'TRON_WALLET', 'TLyqzVGLV1srkB7dToTAEqgDSfPtXRJZYH'), ['currency']],
    ];
    for (const [body, fields] of cases) {
      const res = await api.post('/customers/external-accounts', body);
      expect(res.status).toBe(400);
      expect((res.body.details.errors as { field: string }[]).map((e) => e.field)).toEqual(fields);
    }
    expect(await h.orm.em.fork().count(ExternalAccount, { customerId })).toBe(0);
  });

  test('Lightning: exactly one destination; LIGHTNING_ACCOUNT is accepted and answered as LIGHTNING', async () => {
    const { api, customerId } = await travelRulePlatform();
    const address = await api.post('/customers/external-accounts', {
      customerId,
      currency: 'BTC',
      accountInfo: { accountType: 'LIGHTNING_ACCOUNT', lightningAddress: 'Jane@Wallet.Example.com' },
    });
    expect(address.status).toBe(201);
    expect(address.body).toMatchObject({ status: 'ACTIVE', accountInfo: { accountType: 'LIGHTNING', lightningAddress: 'jane@wallet.example.com' } });
    expect(address.body.accountInfo.paymentRails).toBeUndefined();
    const none = await api.post('/customers/external-accounts', { customerId, currency: 'BTC', accountInfo: { accountType: 'LIGHTNING' } });
    expect(none.status).toBe(400);
    const two = await api.post('/customers/external-accounts', {
      customerId,
      currency: 'BTC',
      accountInfo: { accountType: 'LIGHTNING', lightningAddress: 'a@b.example', bolt12: 'lno1xyz' },
    });
    expect(two.status).toBe(400);
  });
});

import { issueScaChallenge, resendScaChallenge, scaProofError, verifyScaProof, type ScaCodeSender } from '../../src/contexts/sca';
import { ScaChallenge, ScaSecurityState } from '../../src/contexts/sca/entities';
import { DomainError } from '../../src/domain/errors';
import { Harness } from '../support/harness';
import { scaCustomer } from '../support/sca/fixtures';
import { SANDBOX_CODE, totpCode } from '../support/sca/sca-client';

// The proof verifier other contexts use (quote and beneficiary challenges), through the face.

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

const em = () => h.orm.em.fork();
const BINDING = 'Quote:1|EUR|1000|ExternalAccount:2';

async function customer(options: { loggedIn?: boolean } = {}) {
  const c = await scaCustomer(h, options);
  const base = { platformId: c.platform.id, customerId: c.customerId, masterKey: h.masterKey };
  return { ...c, base };
}

describe('dynamic linking', () => {
  test('a bound SMS challenge is satisfied only with the same purpose and binding; onValid runs with it', async () => {
    const { base } = await customer();
    const issued = await issueScaChallenge(em(), { ...base, purpose: 'QUOTE', factor: 'SMS_OTP', binding: BINDING, environment: 'SANDBOX' });
    const verify = (over: object) =>
      verifyScaProof(
        em(),
        {
          ...base,
          factor: 'SMS_OTP',
          proof: { code: SANDBOX_CODE },
          challengeId: issued.id,
          purpose: 'QUOTE',
          binding: BINDING,
          environment: 'SANDBOX',
          ...over,
        },
        async () => 'authorized',
      );
    expect(await verify({ binding: 'Quote:1|EUR|9999|ExternalAccount:2' })).toMatchObject({ valid: false, failure: 'NOT_ISSUED' });
    expect(await verify({ purpose: 'LOGIN' })).toMatchObject({ valid: false, failure: 'NOT_ISSUED' });
    expect(await verify({})).toEqual({ valid: true, result: 'authorized' });
    expect(await verify({})).toMatchObject({ valid: false, failure: 'NOT_ISSUED' });
  });

  test('TOTP cannot answer a bound challenge (it carries no link to what it authorizes); not counted as a failure', async () => {
    const { base, client } = await customer({ loggedIn: true });
    await client.enrolTotp();
    const verdict = await verifyScaProof(em(), {
      ...base,
      factor: 'TOTP',
      proof: { code: totpCode(client.totpSecret!, new Date(Date.now() + 30_000)) },
      purpose: 'QUOTE',
      binding: BINDING,
      environment: 'SANDBOX',
    });
    expect(verdict).toMatchObject({ valid: false, failure: 'FACTOR_NOT_ALLOWED', field: 'factor' });
    expect(await em().count(ScaSecurityState, { customerId: base.customerId })).toBe(0);
  });

  test("a passkey assertion over one challenge does not answer another; the bound challenge's own assertion does", async () => {
    const { base, client } = await customer({ loggedIn: true });
    await client.enrolPasskey();
    const issue = () => issueScaChallenge(em(), { ...base, purpose: 'QUOTE', factor: 'PASSKEY', binding: BINDING, environment: 'SANDBOX' });
    const first = await issue();
    const second = await issue();
    const origin = first.allowedOrigins![0]!;
    const overFirst = client.authenticator.assert(first.passkeyOptions as { challenge: string; rpId: string }, origin);
    const input = { ...base, factor: 'PASSKEY' as const, purpose: 'QUOTE' as const, binding: BINDING, environment: 'SANDBOX' as const };
    expect(await verifyScaProof(em(), { ...input, challengeId: second.id, proof: { passkeyAssertion: overFirst, origin } })).toMatchObject({
      valid: false,
      failure: 'WRONG_PROOF',
    });
    const overSecond = client.authenticator.assert(second.passkeyOptions as { challenge: string; rpId: string }, origin);
    expect(await verifyScaProof(em(), { ...input, challengeId: second.id, proof: { passkeyAssertion: overSecond, origin } })).toMatchObject({ valid: true });
  });
});

describe('all or nothing', () => {
  test("when the caller's work fails, the proof is not used up", async () => {
    const { base } = await customer();
    const issued = await issueScaChallenge(em(), { ...base, purpose: 'QUOTE', factor: 'SMS_OTP', binding: BINDING, environment: 'SANDBOX' });
    const input = {
      ...base,
      factor: 'SMS_OTP' as const,
      proof: { code: SANDBOX_CODE },
      challengeId: issued.id,
      purpose: 'QUOTE' as const,
      binding: BINDING,
      environment: 'SANDBOX' as const,
    };
    await expect(
      verifyScaProof(em(), input, async () => {
        throw new DomainError('CONFLICT', 'the quote expired meanwhile');
      }),
    ).rejects.toThrow('the quote expired meanwhile');
    expect((await em().findOneOrFail(ScaChallenge, { id: issued.id })).consumedAt).toBeNull();
    expect(await verifyScaProof(em(), input)).toMatchObject({ valid: true });
  });

  test('concurrent proofs of one challenge: exactly one succeeds', async () => {
    const { base } = await customer();
    const issued = await issueScaChallenge(em(), { ...base, purpose: 'QUOTE', factor: 'SMS_OTP', binding: BINDING, environment: 'SANDBOX' });
    let ran = 0;
    const verdicts = await Promise.all(
      Array.from({ length: 6 }, () =>
        verifyScaProof(
          em(),
          { ...base, factor: 'SMS_OTP', proof: { code: SANDBOX_CODE }, challengeId: issued.id, purpose: 'QUOTE', binding: BINDING, environment: 'SANDBOX' },
          // The caller's work takes a while: every other proof is judged meanwhile.
          async () => {
            ran++;
            await new Promise((r) => setTimeout(r, 150));
          },
        ),
      ),
    );
    expect(verdicts.filter((v) => v.valid)).toHaveLength(1);
    expect(ran).toBe(1);
  });
});

describe('resending an SMS code', () => {
  test('a new code replaces the old one; the expiry is not extended; a used challenge cannot be resent', async () => {
    const { base } = await customer();
    const sent: string[] = [];
    const sender: ScaCodeSender = async (m) => void sent.push(m.code);
    const issued = await issueScaChallenge(em(), {
      ...base,
      purpose: 'QUOTE',
      factor: 'SMS_OTP',
      binding: BINDING,
      environment: 'PRODUCTION',
      sender,
      context: 'EUR 10.00 to Ada',
    });
    const resent = await resendScaChallenge(em(), { ...base, challengeId: issued.id, purpose: 'QUOTE', environment: 'PRODUCTION', sender });
    expect(resent.expiresAt.getTime()).toBe(issued.expiresAt.getTime());
    expect(sent).toHaveLength(2);
    const input = {
      ...base,
      factor: 'SMS_OTP' as const,
      challengeId: issued.id,
      purpose: 'QUOTE' as const,
      binding: BINDING,
      environment: 'PRODUCTION' as const,
    };
    if (sent[0] !== sent[1])
      expect(await verifyScaProof(em(), { ...input, proof: { code: sent[0]! } })).toMatchObject({ valid: false, failure: 'WRONG_PROOF' });
    expect(await verifyScaProof(em(), { ...input, proof: { code: sent[1]! } })).toMatchObject({ valid: true });
    await expect(resendScaChallenge(em(), { ...base, challengeId: issued.id, environment: 'PRODUCTION', sender })).rejects.toMatchObject({ code: 'CONFLICT' });
  });
});

describe('refusals as errors', () => {
  test('a failed verdict becomes 400 INVALID_INPUT on its field, a lockout 423 ACCOUNT_LOCKED', () => {
    expect(scaProofError({ valid: false, failure: 'WRONG_PROOF', field: 'code', attemptsLeft: 2 })).toMatchObject({
      code: 'INVALID_INPUT',
      details: { errors: [{ field: 'code', constraint: 'invalid', message: 'the proof is not correct; 2 attempts left' }] },
    });
    const until = new Date('2026-12-02T10:15:00Z');
    expect(scaProofError({ valid: false, failure: 'LOCKED', lockout: { failedAttempts: 5, suspended: false, lockedUntil: until } })).toMatchObject({
      code: 'ACCOUNT_LOCKED',
      details: { failedAttempts: 5, suspended: false, lockedUntil: until.toISOString() },
    });
  });
});

describe('TOTP codes out of their window', () => {
  test('a code of two minutes ago is refused', async () => {
    const { base, client } = await customer({ loggedIn: true });
    await client.enrolTotp();
    const old = totpCode(client.totpSecret!, new Date(Date.now() - 120_000));
    const current = totpCode(client.totpSecret!);
    if (old === current) return; // one chance in a million: the old code happens to be right
    expect(await verifyScaProof(em(), { ...base, factor: 'TOTP', proof: { code: old }, purpose: 'LOGIN', environment: 'SANDBOX' })).toMatchObject({
      valid: false,
      failure: 'WRONG_PROOF',
    });
  });
});

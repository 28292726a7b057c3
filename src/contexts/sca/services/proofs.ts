import { looksLikeRecoveryCode, spendRecoveryCode } from '../domain/recovery-codes';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Environment } from '../../platforms';
import { decrypt } from '../../../security/secrets';
import type { ScaChallengePurpose, ScaFactorType } from '../domain/factors';
import { isLocked } from '../domain/lockout';
import { MAX_CHALLENGE_ATTEMPTS, SANDBOX_SCA_CODE, scaCodeMatches } from '../domain/one-time-codes';
import type { ScaProofVerdict } from '../domain/proof-verdicts';
import { checkTotp } from '../domain/totp';
import { ScaChallenge, ScaFactor } from '../entities';
import { lockoutOf, recordFailedAttempt } from './lockout';
import { verifyAssertion } from './passkeys';
import { assertionChallenge, assertionJson, PasskeyCheckFailed } from '../../../security/webauthn';
import { platformRelyingParty } from './relying-party';
import { loadScaCustomer, verifiedPhoneOf, type ScaCustomer } from './sca-customers';

/** The proof fields of the reference's authorize / confirm / login-complete bodies. */
export interface ScaProof {
  code?: string | null;
  passkeyAssertion?: Record<string, unknown> | null;
  origin?: string | null;
}

export interface VerifyScaProofInput {
  platformId: string;
  customerId: string;
  factor: ScaFactorType;
  proof: ScaProof;
  /** The challenge the proof answers: required for SMS_OTP; for PASSKEY the assertion's own challenge finds it when absent; none for TOTP. */
  challengeId?: string | null;
  /** The challenge must have been issued for this purpose… */
  purpose: ScaChallengePurpose;
  /** …and with this binding (dynamic linking). A bound proof cannot be TOTP. */
  binding?: string | null;
  environment: Environment;
  masterKey: Buffer;
  now?: Date;
}

type Refusal = Exclude<Extract<ScaProofVerdict, { valid: false }>, { failure: 'LOCKED' }>;
/** A judged proof; a refusal says whether it counts as a failed attempt, and on which challenge. */
type Judged = { valid: true; challenge: ScaChallenge | null } | (Refusal & { counts: boolean; challenge?: ScaChallenge });

/**
 * The one proof verifier of Strong Customer Authentication. Judges a proof of `factor` for the
 * customer: an SMS code (sandbox: SANDBOX_SCA_CODE; else the code sent, kept as a keyed hash), a
 * TOTP code (RFC 6238; a time step is accepted once; sandbox also SANDBOX_SCA_CODE), or a passkey
 * assertion (origin, relying party, challenge, user presence and verification, signature, and a
 * rising signature counter). A challenge is single-use and must match purpose and binding.
 *
 * Runs its own transaction with the customer row locked, so concurrent proofs are judged one at a
 * time; call it outside yours. A wrong proof is counted (on the challenge: MAX_CHALLENGE_ATTEMPTS
 * burn it; and on the customer's lockout ladder) and stays counted. While the customer is locked
 * out, the verdict is LOCKED without judging the proof. On success the challenge is consumed and
 * `onValid` runs in the same transaction (open a session, authorize a quote): all or nothing.
 */
export async function verifyScaProof<T = undefined>(
  em: EntityManager,
  input: VerifyScaProofInput,
  onValid?: (tx: EntityManager, scaCustomer: ScaCustomer) => Promise<T>,
): Promise<ScaProofVerdict<T>> {
  const now = input.now ?? new Date();
  return em.transactional(async (tx) => {
    const scaCustomer = await loadScaCustomer(tx, input.platformId, input.customerId, { lock: true });
    const lockout = await lockoutOf(tx, input.platformId, input.customerId, now);
    if (isLocked(lockout, now)) return { valid: false, failure: 'LOCKED', lockout } as const;
    const judged = await judge(tx, scaCustomer, input, now);
    if (!judged.valid) {
      const { counts, challenge, ...verdict } = judged;
      if (counts) {
        if (challenge) {
          challenge.attempts += 1;
          challenge.updatedAt = now;
          verdict.attemptsLeft = Math.max(0, MAX_CHALLENGE_ATTEMPTS - challenge.attempts);
        }
        await recordFailedAttempt(tx, input.platformId, input.customerId, now);
      }
      await tx.flush();
      return verdict;
    }
    if (judged.challenge) {
      judged.challenge.consumedAt = now;
      judged.challenge.updatedAt = now;
    }
    await tx.flush();
    const result = onValid ? await onValid(tx, scaCustomer) : (undefined as T);
    return { valid: true, result } as const;
  });
}

/**
 * The challenge a proof answers, and the field that named it. SMS_OTP names it by `challengeId`
 * (required). A passkey assertion names it itself: without a `challengeId` (the reference omits it
 * for passkeys) it is the customer's PASSKEY challenge of this purpose whose WebAuthn challenge the
 * assertion's client data carries; the assertion is then verified against that challenge, and a
 * consumed one is never found usable again.
 */
async function answeredChallenge(
  tx: EntityManager,
  customerId: string,
  input: VerifyScaProofInput,
): Promise<{ challenge: ScaChallenge | null; field: string } | { refusal: Refusal & { counts: false } }> {
  if (input.challengeId) {
    return { challenge: await tx.findOne(ScaChallenge, { id: input.challengeId, platformId: input.platformId, customerId }), field: 'challengeId' };
  }
  if (input.factor !== 'PASSKEY') {
    const detail = `an ${input.factor} code answers the challenge it was sent for: send the challengeId the challenge's start returned`;
    return { refusal: { valid: false, failure: 'MISSING_CHALLENGE', field: 'challengeId', detail, counts: false } };
  }
  const assertion = input.proof.passkeyAssertion;
  if (!assertion) return { refusal: { valid: false, failure: 'MISSING_PROOF', field: 'passkeyAssertion', counts: false } };
  const signed = assertionChallenge(assertionJson(assertion));
  if (!signed) {
    const detail = "the assertion's clientDataJSON names no challenge: sign the challenge of the passkeyOptions this customer was given";
    return { refusal: { valid: false, failure: 'NOT_ISSUED', field: 'passkeyAssertion', detail, counts: false } };
  }
  const challenge = await tx.findOne(ScaChallenge, {
    platformId: input.platformId,
    customerId,
    factor: 'PASSKEY',
    purpose: input.purpose,
    webauthnChallenge: signed,
  });
  return { challenge, field: 'passkeyAssertion' };
}

async function judge(tx: EntityManager, { customer, platform }: ScaCustomer, input: VerifyScaProofInput, now: Date): Promise<Judged> {
  const sandboxCode = input.environment === 'SANDBOX' && input.proof.code === SANDBOX_SCA_CODE;
  if (input.factor === 'TOTP') {
    // A TOTP code says nothing of what it authorizes: never for a bound (per-transaction) challenge.
    if (input.binding) return { valid: false, failure: 'FACTOR_NOT_ALLOWED', field: 'factor', counts: false };
    const code = input.proof.code;
    if (!code) return { valid: false, failure: 'MISSING_PROOF', field: 'code', counts: false };
    const factor = await tx.findOne(ScaFactor, { platformId: input.platformId, customerId: customer.id, type: 'TOTP', status: 'ACTIVE' });
    if (!factor?.sealedTotpSecret) return { valid: false, failure: 'FACTOR_NOT_ENROLLED', field: 'factor', counts: false };
    if (sandboxCode) return { valid: true, challenge: null };
    // A recovery code stands in for the app's code once (the device lost): spent here, counted like any wrong code if unknown.
    if (looksLikeRecoveryCode(code)) {
      const left = spendRecoveryCode(input.masterKey, factor.id, factor.recoveryCodeHashes ?? [], code);
      if (!left) return { valid: false, failure: 'WRONG_PROOF', field: 'code', counts: true };
      factor.recoveryCodeHashes = left;
      factor.updatedAt = now;
      return { valid: true, challenge: null };
    }
    const check = checkTotp(decrypt(input.masterKey, factor.sealedTotpSecret), code, factor.totpLastUsedStep, now);
    if (!check.valid) return { valid: false, failure: check.reused ? 'REUSED' : 'WRONG_PROOF', field: 'code', counts: true };
    factor.totpLastUsedStep = check.timeStep;
    factor.updatedAt = now;
    return { valid: true, challenge: null };
  }

  const answered = await answeredChallenge(tx, customer.id, input);
  if ('refusal' in answered) return answered.refusal;
  const { challenge, field: challengeField } = answered;
  const matchesIssue =
    challenge && challenge.purpose === input.purpose && challenge.factor === input.factor && (challenge.binding ?? null) === (input.binding ?? null);
  if (!challenge || !matchesIssue || challenge.consumedAt) return { valid: false, failure: 'NOT_ISSUED', field: challengeField, counts: false };
  if (challenge.attempts >= MAX_CHALLENGE_ATTEMPTS) return { valid: false, failure: 'ATTEMPTS_EXCEEDED', field: challengeField, counts: false };
  if (now.getTime() >= challenge.expiresAt.getTime()) return { valid: false, failure: 'EXPIRED', field: challengeField, counts: false };

  if (input.factor === 'SMS_OTP') {
    const code = input.proof.code;
    if (!code) return { valid: false, failure: 'MISSING_PROOF', field: 'code', counts: false };
    // A code sent to an earlier phone number is not valid for the current one.
    const live = challenge.codeHash && challenge.destination === verifiedPhoneOf(customer);
    if (!live) return { valid: false, failure: 'NOT_ISSUED', field: 'challengeId', counts: false };
    if (sandboxCode || scaCodeMatches(input.masterKey, challenge.id, code, challenge.codeHash)) return { valid: true, challenge };
    return { valid: false, failure: 'WRONG_PROOF', field: 'code', counts: true, challenge };
  }

  // PASSKEY
  const assertion = input.proof.passkeyAssertion;
  if (!assertion || !input.proof.origin) {
    return { valid: false, failure: 'MISSING_PROOF', field: assertion ? 'origin' : 'passkeyAssertion', counts: false };
  }
  const factor = await tx.findOne(ScaFactor, { platformId: input.platformId, customerId: customer.id, type: 'PASSKEY', status: 'ACTIVE' });
  if (!factor?.credentialId || !factor.passkeyPublicKey || factor.passkeyCounter == null) {
    return { valid: false, failure: 'FACTOR_NOT_ENROLLED', field: 'factor', counts: false };
  }
  try {
    const counter = await verifyAssertion(platformRelyingParty(platform), assertionJson(assertion), input.proof.origin, challenge.webauthnChallenge ?? '', {
      id: factor.credentialId,
      publicKey: factor.passkeyPublicKey,
      counter: Number(factor.passkeyCounter),
    });
    factor.passkeyCounter = BigInt(counter);
    factor.updatedAt = now;
    return { valid: true, challenge };
  } catch (err) {
    if (!(err instanceof PasskeyCheckFailed)) throw err;
    const field = err.failure === 'origin' ? 'origin' : 'passkeyAssertion';
    return {
      valid: false,
      failure: 'WRONG_PROOF',
      field,
      detail: `the passkey assertion did not verify (${err.failure.replace('_', ' ')})`,
      counts: true,
      challenge,
    };
  }
}

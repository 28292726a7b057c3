import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { createHash, randomBytes } from 'node:crypto';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import type { Environment } from '../../platforms';
import { DomainError } from '../../../domain/errors';
import { newId } from '../../../domain/ids';
import { logger } from '../../../logger';
import type { ScaChallengePurpose, ScaFactorType } from '../domain/factors';
import { hashScaCode, newScaCode, SCA_CODE_TTL_MS, SCA_SEND_WINDOW } from '../domain/one-time-codes';
import { ScaChallenge, ScaCodeSend, ScaFactor } from '../entities';
import { Customer } from '../../customers';
import { sendRetryAfterSeconds } from '../../../domain/send-window';
import { authenticationOptions } from './passkeys';
import { platformRelyingParty } from './relying-party';
import { loadScaCustomer, verifiedPhoneOf } from './sca-customers';

/**
 * Delivers an SCA code by SMS outside the sandbox. `context` is what the code authorizes, for the
 * message text (dynamic linking: amount and payee of a payment). The code is in the message only;
 * never log it.
 */
export type ScaCodeSender = (message: {
  to: string;
  code: string;
  customerId: string;
  platformId: string;
  purpose: ScaChallengePurpose;
  context?: string;
  expiresAt: Date;
}) => Promise<void>;

export interface IssueScaChallengeInput {
  platformId: string;
  customerId: string;
  purpose: ScaChallengePurpose;
  /** SMS_OTP or PASSKEY (a TOTP proof needs no challenge). */
  factor: Exclude<ScaFactorType, 'TOTP'>;
  /** Dynamic linking: what the proof authorizes (e.g. a digest of amount and payee); the proof must be verified with the same. */
  binding?: string | null;
  /** Human text of what is authorized, for the SMS (never stored). */
  context?: string;
  environment: Environment;
  masterKey: Buffer;
  sender?: ScaCodeSender;
  ttlMs?: number;
  now?: Date;
}

export interface IssuedScaChallenge {
  id: string;
  factor: Exclude<ScaFactorType, 'TOTP'>;
  expiresAt: Date;
  /** PASSKEY: the WebAuthn assertion request options, its relying party and allowed origins. */
  passkeyOptions?: Record<string, unknown>;
  allowedOrigins?: string[];
  relyingPartyId?: string;
}

function noSmsDelivery(): DomainError {
  // The server's operator has not set up SMS delivery: nothing the caller can fix, and nothing is stored.
  return new DomainError('NOT_IMPLEMENTED', 'No SMS delivery is configured on this server for SCA codes', { channel: 'phone', delivery: 'NOT_CONFIGURED' });
}

function factorUnavailable(factor: ScaFactorType, message: string): DomainError {
  return DomainError.invalidInput([{ field: 'factor', constraint: 'unavailable', message }], `The ${factor} factor is not available for this customer`);
}

/** The WebAuthn challenge: random, and when the challenge has a binding, a digest of both (the signature then covers it). */
function webauthnChallenge(binding: string | null | undefined): string {
  const nonce = randomBytes(32);
  const bytes = binding ? createHash('sha256').update(nonce).update(binding).digest() : nonce;
  return isoBase64URL.fromBuffer(new Uint8Array(bytes) as Uint8Array<ArrayBuffer>);
}

/**
 * Issues a challenge for the customer (404 for another platform's customer, 409 where SCA is not
 * required). SMS_OTP: a code to the verified phone (sandbox: SANDBOX_SCA_CODE, nothing sent;
 * production without an SMS sender: 501 and nothing stored). PASSKEY: WebAuthn assertion options
 * for the customer's enrolled passkey. Commits before the SMS goes out.
 */
export async function issueScaChallenge(em: EntityManager, input: IssueScaChallengeInput): Promise<IssuedScaChallenge> {
  if (input.factor === 'SMS_OTP' && input.environment !== 'SANDBOX' && !input.sender) throw noSmsDelivery();
  const now = input.now ?? new Date();
  const expiresAt = new Date(now.getTime() + (input.ttlMs ?? SCA_CODE_TTL_MS));
  const code = input.factor === 'SMS_OTP' ? newScaCode(input.environment) : null;
  const issued = await em.transactional(async (tx) => {
    const { customer, platform } = await loadScaCustomer(tx, input.platformId, input.customerId);
    const id = newId('ScaChallenge');
    const base = {
      id,
      platformId: input.platformId,
      customerId: customer.id,
      purpose: input.purpose,
      factor: input.factor,
      binding: input.binding ?? null,
      attempts: 0,
      expiresAt,
      consumedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    if (input.factor === 'SMS_OTP') {
      const phone = verifiedPhoneOf(customer);
      if (!phone) throw factorUnavailable('SMS_OTP', "the customer's phone number is not verified; verify it with POST /customers/{customerId}/verify-phone");
      if (input.purpose === 'LOGIN') await countCustomerCodeSend(tx, customer, now);
      tx.create(ScaChallenge, { ...base, codeHash: hashScaCode(input.masterKey, id, code!), destination: phone, webauthnChallenge: null });
      await tx.flush();
      return { challenge: { id, factor: input.factor, expiresAt } satisfies IssuedScaChallenge, phone };
    }
    const passkey = await tx.findOne(ScaFactor, { platformId: input.platformId, customerId: customer.id, type: 'PASSKEY', status: 'ACTIVE' });
    if (!passkey?.credentialId) throw factorUnavailable('PASSKEY', 'the customer has no enrolled passkey; enrol one with POST /sca/factors');
    const rp = platformRelyingParty(platform);
    const challenge = webauthnChallenge(input.binding);
    const options = await authenticationOptions(rp, [passkey.credentialId], challenge);
    tx.create(ScaChallenge, { ...base, codeHash: null, destination: null, webauthnChallenge: challenge });
    await tx.flush();
    return {
      challenge: {
        id,
        factor: input.factor,
        expiresAt,
        passkeyOptions: options as unknown as Record<string, unknown>,
        allowedOrigins: rp.origins,
        relyingPartyId: rp.rpId,
      } satisfies IssuedScaChallenge,
      phone: null,
    };
  });
  if (code && issued.phone) await deliver(em, input, issued.challenge.id, issued.phone, code, expiresAt);
  return issued.challenge;
}

/**
 * Counts an SMS code the customer asked for (a login start, a resend) against SCA_SEND_WINDOW,
 * under the customer's row lock so that concurrent requests count one after the other; beyond
 * the window's allowance, 429 RATE_LIMITED with retryAfterSeconds and nothing is sent.
 */
async function countCustomerCodeSend(em: EntityManager, customer: Customer, now: Date): Promise<void> {
  await em.findOneOrFail(Customer, { id: customer.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  const since = new Date(now.getTime() - SCA_SEND_WINDOW.windowMs);
  const recent = await em.find(ScaCodeSend, { customerId: customer.id, sentAt: { $gt: since } }, { fields: ['sentAt'] });
  const retryAfterSeconds = sendRetryAfterSeconds(
    recent.map((send) => send.sentAt),
    now,
    SCA_SEND_WINDOW,
  );
  if (retryAfterSeconds > 0) {
    throw new DomainError('RATE_LIMITED', `Too many SMS codes for this customer (${SCA_SEND_WINDOW.max} per 15 minutes); retry after ${retryAfterSeconds} s`, {
      retryAfterSeconds,
    });
  }
  em.create(ScaCodeSend, { id: newId('ScaCodeSend'), platformId: customer.platformId, customerId: customer.id, sentAt: now });
}

async function deliver(em: EntityManager, input: IssueScaChallengeInput | ResendInput, challengeId: string, to: string, code: string, expiresAt: Date) {
  if (input.environment === 'SANDBOX') return;
  try {
    await input.sender!({
      to,
      code,
      customerId: input.customerId,
      platformId: input.platformId,
      purpose: input.purpose ?? 'LOGIN',
      ...(input.context ? { context: input.context } : {}),
      expiresAt,
    });
  } catch (err) {
    // A provider's error text could echo the message; log only what failed, never the code.
    logger.error({ customerId: input.customerId, challengeId, error: err instanceof Error ? err.name : typeof err }, 'SCA code delivery failed');
    // An undelivered code is withdrawn: the challenge cannot be answered.
    await em.nativeUpdate(ScaChallenge, { id: challengeId }, { codeHash: null, updatedAt: new Date() });
    throw DomainError.internal('The SCA code could not be delivered; request a new one');
  }
}

interface ResendInput {
  platformId: string;
  customerId: string;
  challengeId: string;
  purpose?: ScaChallengePurpose;
  context?: string;
  environment: Environment;
  masterKey: Buffer;
  sender?: ScaCodeSender;
  now?: Date;
}

/**
 * Sends a new code for a live SMS_OTP challenge; the old code stops working, the expiry is not
 * extended and wrong attempts stay counted. 409 CONFLICT when the challenge is not a live SMS one.
 */
export async function resendScaChallenge(em: EntityManager, input: ResendInput): Promise<{ expiresAt: Date }> {
  if (input.environment !== 'SANDBOX' && !input.sender) throw noSmsDelivery();
  const now = input.now ?? new Date();
  const code = newScaCode(input.environment);
  const sent = await em.transactional(async (tx) => {
    const { customer } = await loadScaCustomer(tx, input.platformId, input.customerId);
    const challenge = await tx.findOne(ScaChallenge, { id: input.challengeId, platformId: input.platformId, customerId: customer.id });
    if (!challenge || challenge.factor !== 'SMS_OTP' || challenge.consumedAt || challenge.expiresAt.getTime() <= now.getTime()) {
      throw new DomainError('CONFLICT', 'There is no pending SMS challenge to resend a code for');
    }
    const phone = verifiedPhoneOf(customer);
    if (!phone) throw factorUnavailable('SMS_OTP', "the customer's phone number is not verified");
    await countCustomerCodeSend(tx, customer, now);
    challenge.codeHash = hashScaCode(input.masterKey, challenge.id, code);
    challenge.destination = phone;
    challenge.updatedAt = now;
    await tx.flush();
    return { phone, expiresAt: challenge.expiresAt };
  });
  await deliver(em, input, input.challengeId, sent.phone, code, sent.expiresAt);
  return { expiresAt: sent.expiresAt };
}

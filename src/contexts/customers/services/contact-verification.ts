import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { ContactVerificationCode, Customer } from '../entities';
import { Platform, type Environment } from '../../platforms';
import {
  CONTACT_CODE_TTL_MS,
  SANDBOX_CONTACT_CODE,
  codeAttemptError,
  contactCodeMatches,
  contactOf,
  contactRegionOf,
  contactVerificationRequired,
  hashContactCode,
  judgeCodeAttempt,
  newContactCode,
  reconcileContactVerification,
  type ContactChannel,
} from '../domain/contact-verification';
import { DomainError } from '../../../domain/errors';
import { logger } from '../../../logger';

/** Delivers a code by email or SMS. The code is in the message only; never log it. */
export type ContactCodeSender = (message: {
  channel: ContactChannel;
  to: string;
  code: string;
  customerId: string;
  platformId: string;
  expiresAt: Date;
}) => Promise<void>;

/**
 * Hook for whoever creates or changes customers: sets `contactVerification` as the platform's
 * region requires (null where it does not; otherwise one entry per contact on file, new ones
 * PENDING). Pass `changed` with the channels whose contact was replaced: they go back to
 * PENDING and their outstanding code is withdrawn. Idempotent; runs in the caller's
 * transaction and flushes.
 */
export async function applyContactVerificationRules(
  em: EntityManager,
  platform: Platform,
  customer: Customer,
  options: { changed?: ContactChannel[] } = {},
): Promise<void> {
  const changed = options.changed ?? [];
  const next = reconcileContactVerification(contactRegionOf(platform.region, customer.regionCode), customer.contactVerification, customer, changed);
  if (JSON.stringify(next) !== JSON.stringify(customer.contactVerification ?? null)) customer.contactVerification = next;
  if (changed.length > 0) await em.nativeDelete(ContactVerificationCode, { customerId: customer.id, channel: { $in: changed } });
  await em.flush();
}

const LABEL: Record<ContactChannel, { field: 'email' | 'phoneNumber'; noun: string }> = {
  email: { field: 'email', noun: 'email address' },
  phone: { field: 'phoneNumber', noun: 'phone number' },
};

interface Target {
  platformId: string;
  customerId: string;
  channel: ContactChannel;
}

/**
 * Loads and locks the customer and checks that the channel can be verified: 404 for another
 * platform's customer, 409 where the provider does not verify contacts or the channel is
 * already verified, 400 when the contact is not on file. Returns the customer, its platform
 * and the contact.
 */
async function verifiableChannel(em: EntityManager, target: Target) {
  const customer = await em.findOne(Customer, { id: target.customerId, platformId: target.platformId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!customer) throw DomainError.notFound('Customer');
  const platform = await em.findOneOrFail(Platform, { id: target.platformId });
  if (!contactVerificationRequired(contactRegionOf(platform.region, customer.regionCode))) {
    throw new DomainError('CONFLICT', "Contact verification is not required for this customer: the customer's payment provider does not verify contacts");
  }
  if (customer.isDeleted) throw new DomainError('CONFLICT', 'The customer is deleted');
  const { field, noun } = LABEL[target.channel];
  const contact = contactOf(customer, target.channel);
  if (!contact) {
    throw new DomainError('MISSING_MANDATORY_USER_INFO', `The customer has no ${noun} to verify`, {
      errors: [{ field, constraint: 'required', message: `the customer has no ${noun} on file; add one with PATCH /customers/{customerId}` }],
    });
  }
  // Customers created before the rules applied (or whose contact was added later) get their state now.
  const state = reconcileContactVerification(contactRegionOf(platform.region, customer.regionCode), customer.contactVerification, customer);
  if (state?.[target.channel] === 'VERIFIED') throw new DomainError('CONFLICT', `The ${noun} is already verified`);
  return { customer, platform, contact, state };
}

/**
 * Issues a new code for the channel (replacing any earlier one) and sends it. In the sandbox
 * the code is always SANDBOX_CONTACT_CODE and nothing is sent; elsewhere `sender` delivers it
 * after the code is stored.
 */
export async function sendContactVerificationCode(
  em: EntityManager,
  input: Target & { environment: Environment; masterKey: Buffer; sender?: ContactCodeSender },
): Promise<void> {
  if (input.environment !== 'SANDBOX' && !input.sender) {
    // Checked first so that nothing is stored for a code that could never arrive. The server's
    // operator has not set up delivery: not an internal error, and nothing the caller can fix.
    throw new DomainError(
      'NOT_IMPLEMENTED',
      `No ${input.channel === 'email' ? 'email' : 'SMS'} delivery is configured on this server for contact verification codes`,
      {
        channel: input.channel,
        delivery: 'NOT_CONFIGURED',
      },
    );
  }
  const code = newContactCode(input.environment);
  const issued = await em.transactional(async (tx) => {
    const { customer, contact, state } = await verifiableChannel(tx, input);
    const now = new Date();
    if (JSON.stringify(state) !== JSON.stringify(customer.contactVerification ?? null)) {
      customer.contactVerification = state;
      customer.updatedAt = now;
    }
    await tx.nativeDelete(ContactVerificationCode, { customerId: customer.id, channel: input.channel });
    const id = randomUUID();
    const expiresAt = new Date(now.getTime() + CONTACT_CODE_TTL_MS);
    tx.create(ContactVerificationCode, {
      id,
      platformId: input.platformId,
      customerId: customer.id,
      channel: input.channel,
      destination: contact,
      codeHash: hashContactCode(input.masterKey, id, code),
      attempts: 0,
      expiresAt,
      consumedAt: null,
      createdAt: now,
      updatedAt: now,
    });
    await tx.flush();
    return { id, to: contact, expiresAt };
  });
  if (input.environment !== 'SANDBOX') {
    try {
      await input.sender!({
        channel: input.channel,
        to: issued.to,
        code,
        customerId: input.customerId,
        platformId: input.platformId,
        expiresAt: issued.expiresAt,
      });
    } catch (err) {
      // A provider's error text could echo the message; log only what failed, never the code.
      logger.error(
        { customerId: input.customerId, channel: input.channel, error: err instanceof Error ? err.name : typeof err },
        'contact verification code delivery failed',
      );
      // An undelivered code is withdrawn again (the earlier one stays replaced).
      await em.nativeDelete(ContactVerificationCode, { id: issued.id });
      throw DomainError.internal('The verification code could not be delivered; request a new one');
    }
  }
}

/**
 * Checks a code and, when it is right, marks the channel VERIFIED and uses the code up. A wrong
 * attempt is counted (and stays counted although the request fails); the fifth burns the code.
 * With a sandbox token SANDBOX_CONTACT_CODE is always right for a live code.
 */
export async function confirmContactVerificationCode(
  em: EntityManager,
  input: Target & { code: string; environment: Environment; masterKey: Buffer },
): Promise<Customer> {
  const result = await em.transactional(async (tx) => {
    const { customer, contact, state } = await verifiableChannel(tx, input);
    const row = await tx.findOne(ContactVerificationCode, { customerId: customer.id, channel: input.channel });
    // A code sent to an earlier contact is not valid for the current one.
    const live = row && row.destination === contact ? row : null;
    const matches =
      !!live &&
      ((input.environment === 'SANDBOX' && input.code === SANDBOX_CONTACT_CODE) || contactCodeMatches(input.masterKey, live.id, input.code, live.codeHash));
    const now = new Date();
    const verdict = judgeCodeAttempt(live, now, matches);
    if (verdict.outcome === 'VERIFIED') {
      live!.consumedAt = now;
      live!.updatedAt = now;
      customer.contactVerification = { ...state, [input.channel]: 'VERIFIED' };
      customer.updatedAt = now;
    } else if (verdict.outcome === 'WRONG') {
      live!.attempts += 1;
      live!.updatedAt = now;
    }
    await tx.flush();
    return { customer, verdict };
  });
  if (result.verdict.outcome === 'VERIFIED') return result.customer;
  const { reason, constraint, message } = codeAttemptError(result.verdict, input.channel);
  throw DomainError.invalidInput([{ field: 'code', constraint, message }], reason);
}

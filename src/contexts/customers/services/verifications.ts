import { DomainError } from '../../../domain/errors';
import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/core';
import { BeneficialOwner, Customer, Document, Verification } from '../entities';
import { Platform, type Environment } from '../../platforms';
import { WebhookEvent, recordWebhookEvent } from '../../webhooks';
import type { KycStatus } from '../entities/Customer';
import { derivedId } from '../../../domain/ids';
import { kycEventType } from '../domain/onboarding';
import { packetErrors, type VerificationPacket } from '../domain/verification-requirements';
import {
  customerStatusAfter,
  decideSubmission,
  isTerminalKycStatus,
  ownerKycStatus,
  readyForVerification,
  verificationEventType,
  verificationStatusOf,
  type VerificationStatus,
} from '../domain/verification-sandbox';
import { recordOpenedAccountEvents } from '../../ledger';
import { provisionCustomerAccounts } from './account-provisioning';
import { verificationView, type VerificationView } from './verification-views';
import { customerView } from './customer-views';

/** The verification id of a customer: one verification per customer, so derived from its id. */
export function verificationIdFor(customerId: string): string {
  return derivedId('Verification', 'customer-verification', customerId);
}

export interface RecordedEvent {
  eventId: string;
  type: string;
}

export interface SubmissionResult {
  /** Null only when the submission was refused before any verification existed. */
  verification: VerificationView | null;
  /** Webhook events recorded by this step, for the workflow to deliver. */
  events: RecordedEvent[];
  /** The decision that waits for the workflow's timer, if any. */
  pending: { outcome: 'APPROVED' | 'REJECTED' } | null;
  /** The verification is APPROVED or REJECTED: nothing more will happen to it. */
  terminal: boolean;
  /** Set when the submission was refused (already decided): nothing changed. */
  refused?: string;
}

/** Loads what the completeness rules judge: the customer, its owners and all their documents. */
export async function loadPacket(em: EntityManager, platform: Platform, customer: Customer): Promise<{ packet: VerificationPacket; documents: Document[] }> {
  const owners =
    customer.customerType === 'BUSINESS' ? await em.find(BeneficialOwner, { customerId: customer.id }, { orderBy: { createdAt: 'asc', id: 'asc' } }) : [];
  const documents = await em.find(Document, { customerId: customer.id }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  const packet: VerificationPacket = {
    platform: { isRegulatedFinancialInstitution: platform.isRegulatedFinancialInstitution },
    customer: {
      id: customer.id,
      customerType: customer.customerType,
      regionCode: customer.regionCode,
      fullName: customer.fullName,
      birthDate: customer.birthDate,
      nationality: customer.nationality,
      email: customer.email,
      phoneNumber: customer.phoneNumber,
      address: customer.address as VerificationPacket['customer']['address'],
      hasIdentifier: !!customer.identifierEncrypted,
      profile: customer.profile ?? {},
    },
    owners: owners.map((o) => ({
      id: o.id,
      roles: o.roles,
      ownershipPercentage: o.ownershipPercentage,
      personalInfo: o.personalInfo,
      hasIdentifier: !!o.identifierEncrypted,
    })),
    documents: documents.map((d) => ({ id: d.id, documentHolder: d.documentHolder, documentType: d.documentType })),
  };
  return { packet, documents };
}

async function eventsAlreadyRecorded(em: EntityManager, ids: string[]): Promise<RecordedEvent[]> {
  const found = await em.find(WebhookEvent, { id: { $in: ids } });
  return ids.flatMap((id) => found.filter((e) => e.id === id).map((e) => ({ eventId: e.id, type: e.type })));
}

/** Every event id a step could have recorded, for a retried activity to find them again. */
function possibleEventIds(verificationId: string, step: string, customerType: Customer['customerType']): string[] {
  const types = [
    ...['RESOLVE_ERRORS', 'IN_PROGRESS', 'PENDING_MANUAL_REVIEW', 'APPROVED', 'REJECTED'].map((s) => verificationEventType(s as VerificationStatus)),
    ...(['PENDING', 'APPROVED', 'REJECTED'] as KycStatus[]).map((s) => kycEventType(customerType, s)!),
  ];
  return types.map((t) => derivedId('Webhook', verificationId, step, t));
}

interface Change {
  em: EntityManager;
  platform: Platform;
  customer: Customer;
  verification: Verification;
  step: string;
  environment: Environment;
  previousStatus: VerificationStatus | null;
  newCustomerStatus: KycStatus;
}

/**
 * Applies a verification's new state to the customer (status, owners, accounts on approval)
 * and records the webhooks of whatever changed: VERIFICATION.<status> and CUSTOMER.KYC_/KYB_<status>.
 */
async function applyChange(c: Change): Promise<RecordedEvent[]> {
  const { em, platform, customer, verification, step, environment } = c;
  const events: RecordedEvent[] = [];
  const record = async (type: string, data: unknown) => {
    const e = await recordWebhookEvent(em, { id: derivedId('Webhook', verification.id, step, type), platformId: platform.id, environment, type, data });
    events.push({ eventId: e.id, type: e.type });
  };
  if (c.previousStatus !== verification.verificationStatus) {
    await record(verificationEventType(verification.verificationStatus), verificationView(verification));
  }
  if (customer.kycStatus !== c.newCustomerStatus) {
    customer.kycStatus = c.newCustomerStatus;
    customer.updatedAt = new Date();
    await em.flush();
    if (isTerminalKycStatus(customer.kycStatus)) await resolveOwners(em, customer);
    if (customer.kycStatus === 'APPROVED') {
      // Approval is what lets the customer hold balances: open its accounts and announce them.
      const opened = await provisionCustomerAccounts(em, platform, customer);
      for (const e of await recordOpenedAccountEvents(em, environment, opened)) events.push({ eventId: e.id, type: e.type });
    }
    const type = kycEventType(customer.customerType, customer.kycStatus);
    if (type) await record(type, customerView(customer));
  }
  return events;
}

/** Owners still UNVERIFIED resolve by the sandbox lastName rule once their business is decided. */
async function resolveOwners(em: EntityManager, customer: Customer): Promise<void> {
  if (customer.customerType !== 'BUSINESS') return;
  const owners = await em.find(BeneficialOwner, { customerId: customer.id, kycStatus: 'UNVERIFIED' });
  const now = new Date();
  for (const owner of owners) {
    owner.kycStatus = ownerKycStatus(customer.kycStatus, owner.personalInfo.lastName);
    owner.updatedAt = now;
  }
  await em.flush();
}

export interface SubmissionInput {
  verificationId: string;
  platformId: string;
  customerId: string;
  environment: Environment;
  /** Unique per submission (workflow run and counter): a retry of an applied submission changes nothing. */
  submissionKey: string;
}

/**
 * Evaluates one POST /verifications in a single database transaction: completeness, the sandbox
 * decision, the verification row, the customer's status (accounts provisioned on approval, owners
 * resolved once decided), documents marked submitted, webhook events recorded.
 */
export async function applySubmission(em: EntityManager, input: SubmissionInput): Promise<SubmissionResult> {
  return em.transactional(async (tx) => {
    const customer = await tx.findOneOrFail(Customer, { id: input.customerId, platformId: input.platformId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const platform = await tx.findOneOrFail(Platform, { id: input.platformId });
    let verification = await tx.findOne(Verification, { id: input.verificationId });
    const step = `submission-${input.submissionKey}`;
    if (verification && verification.lastSubmissionKey === input.submissionKey) {
      // Already applied by an earlier attempt of this activity: report what it did.
      return {
        verification: verificationView(verification),
        events: await eventsAlreadyRecorded(tx, possibleEventIds(verification.id, step, customer.customerType)),
        pending: verification.pendingOutcome ? { outcome: verification.pendingOutcome } : null,
        terminal: verification.verificationStatus === 'APPROVED' || verification.verificationStatus === 'REJECTED',
      };
    }
    const { packet, documents } = await loadPacket(tx, platform, customer);
    const decision = decideSubmission({
      regulated: platform.isRegulatedFinancialInstitution,
      customerType: customer.customerType,
      customerId: customer.id,
      kycStatus: customer.kycStatus,
      fullName: customer.fullName,
      registrationNumber: (customer.profile?.businessInfo as { registrationNumber?: string } | undefined)?.registrationNumber,
      errors: packetErrors(packet),
      documents: packet.documents,
    });
    if (decision.kind === 'REFUSED') {
      return {
        verification: verification ? verificationView(verification) : null,
        events: [],
        pending: null,
        terminal: true,
        refused: decision.reason,
      };
    }
    const now = new Date();
    const previousStatus = verification?.verificationStatus ?? null;
    if (!verification) {
      verification = tx.create(Verification, {
        id: input.verificationId,
        platformId: platform.id,
        customerId: customer.id,
        verificationStatus: 'RESOLVE_ERRORS',
        errors: [],
        submissions: 0,
        lastSubmissionKey: null,
        pendingOutcome: null,
        createdAt: now,
        updatedAt: now,
      });
    }
    verification.verificationStatus = verificationStatusOf(decision);
    verification.errors = decision.kind === 'RESOLVE_ERRORS' ? decision.errors : [];
    verification.pendingOutcome = decision.kind === 'LATER' ? decision.outcome : null;
    verification.submissions += 1;
    verification.lastSubmissionKey = input.submissionKey;
    verification.updatedAt = now;
    if (decision.kind !== 'RESOLVE_ERRORS') {
      // The packet went to review (or was decided): its documents are evidence now.
      for (const d of documents.filter((d) => !d.submittedAt)) {
        d.submittedAt = now;
        d.submittedInVerificationId = verification.id;
      }
    }
    await tx.flush();
    const events = await applyChange({
      em: tx,
      platform,
      customer,
      verification,
      step,
      environment: input.environment,
      previousStatus,
      newCustomerStatus: customerStatusAfter(decision, customer.kycStatus),
    });
    return {
      verification: verificationView(verification),
      events,
      pending: decision.kind === 'LATER' ? { outcome: decision.outcome } : null,
      terminal: decision.kind === 'DECIDED',
    };
  });
}

/**
 * Carries out the decision a verification was waiting for (after the workflow's timer): the
 * verification and the customer become APPROVED or REJECTED in one transaction, with the
 * customer's accounts provisioned on approval. Repeats find it done and change nothing.
 */
export async function applyResolution(em: EntityManager, input: { verificationId: string; environment: Environment }): Promise<SubmissionResult> {
  return em.transactional(async (tx) => {
    // A missing verification is a refusal, not a transient failure: never retried.
    const found = await tx.findOne(Verification, { id: input.verificationId });
    if (!found) throw DomainError.notFound('Verification', 'VERIFICATION_NOT_FOUND');
    const customer = await tx.findOneOrFail(Customer, { id: found.customerId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const verification = await tx.findOneOrFail(Verification, { id: input.verificationId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    const platform = await tx.findOneOrFail(Platform, { id: verification.platformId });
    const step = 'resolution';
    const outcome = verification.pendingOutcome;
    if (!outcome) {
      return {
        verification: verificationView(verification),
        events: await eventsAlreadyRecorded(tx, possibleEventIds(verification.id, step, customer.customerType)),
        pending: null,
        terminal: verification.verificationStatus === 'APPROVED' || verification.verificationStatus === 'REJECTED',
      };
    }
    const previousStatus = verification.verificationStatus;
    verification.verificationStatus = outcome;
    verification.errors = [];
    verification.pendingOutcome = null;
    verification.updatedAt = new Date();
    await tx.flush();
    const events = await applyChange({
      em: tx,
      platform,
      customer,
      verification,
      step,
      environment: input.environment,
      previousStatus,
      newCustomerStatus: outcome,
    });
    return { verification: verificationView(verification), events, pending: null, terminal: true };
  });
}

/**
 * After a change to a customer's packet (its fields, a document, an owner): a verification sent
 * back for fixes (RESOLVE_ERRORS) whose packet is complete now becomes READY_FOR_VERIFICATION, its
 * errors cleared, and VERIFICATION.READY_FOR_VERIFICATION is recorded (once per submission round:
 * the event id derives from it). Resubmitting it (POST /verifications) decides it as before.
 * Returns the recorded event, for the caller to deliver; null when nothing changed.
 */
export async function markReadyForVerification(
  em: EntityManager,
  input: { platformId: string; customerId: string; environment: Environment },
): Promise<WebhookEvent | null> {
  const id = verificationIdFor(input.customerId);
  // Most changes are to customers with no verification sent back: one read, nothing locked.
  if (!(await em.fork().count(Verification, { id, platformId: input.platformId, verificationStatus: 'RESOLVE_ERRORS' }))) return null;
  return em.transactional(async (tx) => {
    // Locked as a submission locks it, so a resubmission and this never interleave.
    const customer = await tx.findOneOrFail(Customer, { id: input.customerId, platformId: input.platformId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const verification = await tx.findOneOrFail(Verification, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    const platform = await tx.findOneOrFail(Platform, { id: input.platformId });
    const { packet } = await loadPacket(tx, platform, customer);
    if (!readyForVerification(verification.verificationStatus, verification.errors, packetErrors(packet))) return null;
    verification.verificationStatus = 'READY_FOR_VERIFICATION';
    verification.errors = [];
    verification.updatedAt = new Date();
    await tx.flush();
    const type = verificationEventType('READY_FOR_VERIFICATION');
    return recordWebhookEvent(tx, {
      id: derivedId('Webhook', verification.id, `ready-${verification.submissions}`, type),
      platformId: platform.id,
      environment: input.environment,
      type,
      data: verificationView(verification),
    });
  });
}

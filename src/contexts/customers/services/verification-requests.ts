import type { EntityManager } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Environment } from '../../platforms';
import { DomainError } from '../../../domain/errors';
import type { SortOrder } from '../../../domain/pagination';
import { listPage } from '../../../services/listing';
import { submitCustomerVerification } from '../starters/customer-verification';
import { isTerminalKycStatus, SANDBOX_RESOLUTION_DELAY_SECONDS } from '../domain/verification-sandbox';
import { Customer, KycLink, Verification } from '../entities';
import { verificationView } from './verification-views';
import { verificationIdFor } from './verifications';

/** The simulated provider's hosted flow; links are single-use and expire. */
export const KYC_HOSTED_BASE_URL = 'https://kyc.sandbox.payments-service.example/onboard';
export const KYC_LINK_TTL_MS = 24 * 60 * 60 * 1000;

const alreadyDecided = (reason: string) => DomainError.invalidInput([{ field: 'customerId', constraint: 'notDecided', message: reason }], reason);

/** An active customer of the platform, or 404. */
async function activeCustomer(em: EntityManager, platformId: string, customerId: string): Promise<Customer> {
  const customer = await em.findOne(Customer, { id: customerId, platformId, isDeleted: false });
  if (!customer) throw DomainError.notFound('Customer');
  return customer;
}

/** POST /verifications: the customer's verification submitted to its workflow (400 once the customer's KYC is decided). */
export async function submitVerification(
  em: EntityManager,
  engine: { temporal: Client; taskQueue?: string },
  request: { platformId: string; environment: Environment; customerId: string },
) {
  const customer = await activeCustomer(em, request.platformId, request.customerId);
  if (isTerminalKycStatus(customer.kycStatus))
    throw alreadyDecided(`The customer's verification is already ${customer.kycStatus}; it cannot be submitted again`);
  return submitCustomerVerification(
    engine.temporal,
    {
      verificationId: verificationIdFor(customer.id),
      platformId: request.platformId,
      customerId: customer.id,
      environment: request.environment,
      resolutionDelaySeconds: SANDBOX_RESOLUTION_DELAY_SECONDS,
    },
    { taskQueue: engine.taskQueue },
  );
}

/** GET /verifications: the platform's verifications, a page at a time. */
export async function listVerifications(
  em: EntityManager,
  platformId: string,
  query: { limit: number; cursor?: string; sortOrder?: SortOrder; customerId?: string; verificationStatus?: Verification['verificationStatus'] },
) {
  const where = {
    platformId,
    ...(query.customerId ? { customerId: query.customerId } : {}),
    ...(query.verificationStatus ? { verificationStatus: query.verificationStatus } : {}),
  };
  return listPage(em, Verification, where, query, (rows) => rows.map(verificationView));
}

/** GET /verifications/{id}: one of the platform's verifications, or 404. */
export async function findVerification(em: EntityManager, platformId: string, verificationId: string): Promise<Verification> {
  const verification = await em.findOne(Verification, { id: verificationId, platformId });
  if (!verification) throw DomainError.notFound('Verification');
  return verification;
}

/**
 * POST /customers/{id}/kyc-link: a single-use hosted KYC/KYB link (its token stored hashed) and a
 * provider SDK token, once every contact of the customer is VERIFIED (409 before).
 */
export async function createKycLink(em: EntityManager, platformId: string, customerId: string, redirectUri: string | undefined) {
  const customer = await activeCustomer(em, platformId, customerId);
  const unverified = Object.entries(customer.contactVerification ?? {})
    .filter(([, state]) => state !== 'VERIFIED')
    .map(([channel]) => channel);
  if (unverified.length > 0) {
    throw new DomainError('CONFLICT', `Contact verification is not complete (${unverified.join(', ')}); verify it before starting KYC`, {
      unverifiedChannels: unverified,
    });
  }
  const linkToken = randomBytes(24).toString('base64url');
  const now = new Date();
  const expiresAt = new Date(now.getTime() + KYC_LINK_TTL_MS);
  em.create(KycLink, {
    id: `KycLink:${randomUUID()}`,
    platformId,
    customerId: customer.id,
    tokenHash: createHash('sha256').update(linkToken).digest('hex'),
    redirectUri: redirectUri ?? null,
    expiresAt,
    usedAt: null,
    createdAt: now,
  });
  await em.flush();
  return {
    kycUrl: `${KYC_HOSTED_BASE_URL}/${linkToken}`,
    expiresAt: expiresAt.toISOString(),
    provider: 'SUMSUB',
    token: `_act-sbx-${randomBytes(24).toString('base64url')}`,
  };
}

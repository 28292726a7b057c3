import type { EntityManager } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import { randomBytes } from 'node:crypto';
import type { InvitationLifecycleInput } from '../../../../workflows/invitations/definitions';
import { DomainError, type FieldError } from '../../../domain/errors';
import { logger } from '../../../logger';
import { cancelThroughWorkflow, claimThroughWorkflow, startInvitationLifecycle } from '../starters/invitation-lifecycle';
import { Customer, isUmaAddress } from '../../customers';
import { type Environment, Platform, isOnOwnUmaDomain } from '../../platforms';
import { assertCancellable, assertClaimable, invitationUrl } from '../domain/invitation-rules';
import { Invitation } from '../entities';
import { invitationView, type InvitationView } from './invitation-views';

export interface InvitationCaller {
  platformId: string;
  environment: Environment;
}

export interface WorkflowContext {
  temporal: Client;
  taskQueue?: string;
}

/** 64 random bits as 16 hex digits: unguessable, and short enough for a link. */
function newCode(): string {
  return randomBytes(8).toString('hex');
}

const lifecycleInput = (inv: Invitation): InvitationLifecycleInput => ({
  code: inv.code,
  platformId: inv.platformId,
  inviterCustomerId: inv.inviterCustomerId,
  expiresInMs: inv.expiresAt ? inv.expiresAt.getTime() - Date.now() : null,
});

const NOT_ON_OWN_DOMAIN = "is not on one of the platform's UMA domains";

/**
 * Field checks of POST /invitations that need stored data: an inviterUma that is well formed but
 * names none of the platform's (live) customers, or one whose address is on none of its UMA domains.
 */
export async function inviterProblems(em: EntityManager, platformId: string, body: unknown): Promise<FieldError[]> {
  const uma = (body as { inviterUma?: unknown } | null)?.inviterUma;
  if (!isUmaAddress(uma)) return [];
  const inviter = await findInviter(em, platformId, uma as string);
  if (!inviter) return [{ field: 'inviterUma', constraint: 'customer', message: "is not the UMA address of one of the platform's customers" }];
  const platform = await em.findOneOrFail(Platform, { id: platformId });
  return isOnOwnUmaDomain(inviter.umaAddress!, platform) ? [] : [{ field: 'inviterUma', constraint: 'domain', message: NOT_ON_OWN_DOMAIN }];
}

async function findInviter(em: EntityManager, platformId: string, uma: string): Promise<Customer | null> {
  return em.findOne(Customer, { platformId, isDeleted: false, umaAddress: { $ilike: uma.replace(/[\\%_]/g, (c) => `\\${c}`) } });
}

/** Invitations need the platform's UMA domain: their links live there. */
export async function assertInvitationsConfigured(em: EntityManager, platformId: string): Promise<Platform & { umaDomain: string }> {
  const platform = await em.findOneOrFail(Platform, { id: platformId });
  if (!platform.umaDomain) throw new DomainError('INVITATIONS_NOT_CONFIGURED', 'Invitations need the platform’s umaDomain: set it with PATCH /config');
  return platform as Platform & { umaDomain: string };
}

/**
 * POST /invitations: the row, then its lifecycle workflow (the expiry timer). amountToSend is in
 * the inviter's currency (its first), shown to the invitee; the platform sends it after the claim.
 */
export async function createInvitation(
  em: EntityManager,
  ctx: WorkflowContext,
  caller: InvitationCaller,
  input: { inviterUma: string; firstName?: string; amountToSend?: bigint; expiresAt?: string },
): Promise<InvitationView> {
  const platform = await assertInvitationsConfigured(em, caller.platformId);
  const inviter = await findInviter(em, caller.platformId, input.inviterUma);
  if (!inviter) throw new DomainError('INVALID_UMA_ADDRESS', "inviterUma is not the UMA address of one of the platform's customers");
  // Judged here too, not only by the route's check: the rule belongs to the invitation.
  if (!isOnOwnUmaDomain(inviter.umaAddress!, platform))
    throw DomainError.invalidInput([{ field: 'inviterUma', constraint: 'domain', message: NOT_ON_OWN_DOMAIN }]);
  const now = new Date();
  const code = newCode();
  const inv = em.create(Invitation, {
    code,
    platformId: caller.platformId,
    environment: caller.environment,
    inviterCustomerId: inviter.id,
    inviterUma: inviter.umaAddress,
    inviteeUma: null,
    firstName: input.firstName ?? null,
    amountToSend: input.amountToSend ?? null,
    currency: input.amountToSend !== undefined ? (inviter.currencies[0] ?? platform.supportedCurrencies[0]?.currencyCode ?? 'USD') : null,
    status: 'PENDING',
    url: invitationUrl(platform.umaDomain, code),
    expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
    claimedAt: null,
    cancelledAt: null,
    settledBy: null,
    createdAt: now,
    updatedAt: now,
  });
  await em.flush();
  try {
    await startInvitationLifecycle(ctx.temporal, lifecycleInput(inv), { taskQueue: ctx.taskQueue });
  } catch (err) {
    // The invitation exists; its status reads EXPIRED after expiresAt regardless, and a claim or
    // cancellation starts the workflow when it is missing.
    logger.error({ err, code }, 'could not start the invitation lifecycle workflow');
  }
  return invitationView(inv, now);
}

async function ownInvitation(em: EntityManager, platformId: string, code: string): Promise<Invitation> {
  const inv = await em.findOne(Invitation, { code, platformId });
  if (!inv) throw DomainError.notFound('Invitation');
  return inv;
}

export async function getInvitation(em: EntityManager, platformId: string, code: string): Promise<InvitationView> {
  return invitationView(await ownInvitation(em, platformId, code));
}

/**
 * After the workflow could not be reached (its run had ended): the row says why the invitation is
 * no longer open; if it is still open, the workflow is unavailable.
 */
async function answerFromRow(em: EntityManager, platformId: string, code: string, assert: (inv: Invitation, now: Date) => void): Promise<never> {
  em.clear();
  const inv = await ownInvitation(em, platformId, code);
  assert(inv, new Date());
  throw DomainError.internal('The invitation could not be updated now; try again');
}

/** POST /invitations/{code}/claim: refused at once when the row already says so, else decided by the workflow. */
export async function claimInvitation(em: EntityManager, ctx: WorkflowContext, platformId: string, code: string, inviteeUma: string): Promise<InvitationView> {
  const inv = await ownInvitation(em, platformId, code);
  assertClaimable(inv, inviteeUma, new Date());
  const claimed = await claimThroughWorkflow(ctx.temporal, lifecycleInput(inv), inviteeUma, { taskQueue: ctx.taskQueue });
  return claimed ?? answerFromRow(em, platformId, code, (row, now) => assertClaimable(row, inviteeUma, now));
}

/** POST /invitations/{code}/cancel. */
export async function cancelInvitation(em: EntityManager, ctx: WorkflowContext, platformId: string, code: string): Promise<InvitationView> {
  const inv = await ownInvitation(em, platformId, code);
  assertCancellable(inv, new Date());
  const cancelled = await cancelThroughWorkflow(ctx.temporal, lifecycleInput(inv), { taskQueue: ctx.taskQueue });
  return cancelled ?? answerFromRow(em, platformId, code, assertCancellable);
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/core';
import { InternalAccount, LedgerAccount } from '../entities';
import type { Environment } from '../../platforms';
import { type WebhookEvent, recordWebhookEvent } from '../../webhooks';
import { DomainError } from '../../../domain/errors';
import { internalAccountView } from './internal-account-views';
import { newFundingReference } from './internal-accounts';

export const FUNDING_INSTRUCTIONS_UPDATED = 'INTERNAL_ACCOUNT.FUNDING_INSTRUCTIONS_UPDATED';

/**
 * Sandbox: the account's funding coordinates are reissued, as a provider does when it withdraws
 * coordinates and serves new ones. A new deposit reference (everything in
 * fundingPaymentInstructions derives from it) in one transaction with the
 * INTERNAL_ACCOUNT.FUNDING_INSTRUCTIONS_UPDATED event, whose data is the account as GET shows it
 * now. An embedded wallet keeps its address (it is the wallet's own): 409.
 */
export async function reissueFundingInstructions(
  em: EntityManager,
  input: { platformId: string; accountId: string; environment: Environment },
): Promise<{ view: ReturnType<typeof internalAccountView>; event: WebhookEvent }> {
  return em.transactional(async (tx) => {
    const account = await tx.findOne(InternalAccount, { id: input.accountId, platformId: input.platformId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!account) throw DomainError.notFound('Internal account');
    if (account.type === 'EMBEDDED_WALLET') throw new DomainError('CONFLICT', "An embedded wallet's address is its own; it is not reissued");
    if (account.status !== 'ACTIVE') throw new DomainError('INVALID_STATE_TRANSITION', `The account is ${account.status}`);
    account.fundingReference = newFundingReference();
    account.updatedAt = new Date();
    await tx.flush();
    const view = internalAccountView(account, await tx.findOneOrFail(LedgerAccount, { id: account.id }, { refresh: true }));
    const event = await recordWebhookEvent(tx, {
      platformId: account.platformId,
      environment: input.environment,
      type: FUNDING_INSTRUCTIONS_UPDATED,
      data: view,
    });
    return { view, event };
  });
}

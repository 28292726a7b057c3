import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { InternalAccount } from '../entities';
import { Platform, type Environment } from '../../platforms';
import { type WebhookEvent, recordWebhookEvent } from '../../webhooks';
import { derivedId } from '../../../domain/ids';
import { missingAccounts, platformAccountPlan, type AccountSpec } from '../domain/internal-accounts';
import { internalAccountViews } from './internal-account-views';
import { openInternalAccount } from './internal-accounts';
import { payoutSystemAccounts } from './holds';
import { ensureSystemAccountSet, sandboxFundingAccountId } from './ledger';

/**
 * Opens the platform's missing own accounts (one per supported currency) and its system ledger
 * accounts of those currencies. Idempotent like a customer's provisioning (provisionCustomerAccounts in customers); the platform row is the lock.
 */
export async function provisionPlatformAccounts(em: EntityManager, platform: Platform): Promise<InternalAccount[]> {
  const plan = platformAccountPlan(platform);
  if (plan.length === 0) return [];
  if (!em.isInTransaction()) return em.transactional((tx) => provisionPlatformAccounts(tx, platform));
  await em.createQueryBuilder(Platform).select('id').where({ id: platform.id }).setLockMode(LockMode.PESSIMISTIC_WRITE).execute();
  // The system accounts payouts and sandbox funding post to, made now so that no payment pays for
  // them (postEntry still makes any missing one, for platforms provisioned before this).
  for (const currency of new Set(plan.map((spec) => spec.currency))) {
    await ensureSystemAccountSet(em, platform.id, currency, [
      ...payoutSystemAccounts(platform.id, currency),
      [sandboxFundingAccountId(platform.id, currency), 'SANDBOX_FUNDING_SOURCE'],
    ]);
  }
  return openPlannedAccounts(em, plan, { platformId: platform.id, customerId: null });
}

/**
 * Opens the planned accounts the owner (a customer, or the platform itself when customerId is
 * null) does not hold yet. The caller holds the owner's row lock, so concurrent calls never open
 * an account twice.
 */
export async function openPlannedAccounts(
  em: EntityManager,
  plan: AccountSpec[],
  owner: { platformId: string; customerId: string | null },
): Promise<InternalAccount[]> {
  const held = await em.find(InternalAccount, owner.customerId ? { customerId: owner.customerId } : { platformId: owner.platformId, customerId: null }, {
    refresh: true,
  });
  return open(em, missingAccounts(plan, held), owner);
}

async function open(em: EntityManager, specs: AccountSpec[], owner: { platformId: string; customerId: string | null }): Promise<InternalAccount[]> {
  const opened = specs.map((spec) => openInternalAccount(em, { ...owner, currency: spec.currency, type: spec.type }));
  if (opened.length > 0) await em.flush();
  return opened;
}

export const ACCOUNT_STATUS_UPDATED = 'INTERNAL_ACCOUNT.STATUS_UPDATED';

/** The id of the event announcing an account's status: one per account and status. */
export function accountStatusEventId(account: InternalAccount): string {
  return derivedId('Webhook', account.id, ACCOUNT_STATUS_UPDATED, account.status);
}

/**
 * Records one INTERNAL_ACCOUNT.STATUS_UPDATED event per account, with the account as GET shows
 * it. Event ids derive from account and status, so a retried activity records nothing twice.
 * For activities: record in the provisioning transaction, return the ids, start
 * `webhookDelivery` children from the workflow.
 */
export async function recordOpenedAccountEvents(em: EntityManager, environment: Environment, accounts: InternalAccount[]): Promise<WebhookEvent[]> {
  const views = await internalAccountViews(em, accounts);
  const events: WebhookEvent[] = [];
  for (const [i, account] of accounts.entries()) {
    events.push(
      await recordWebhookEvent(em, {
        id: accountStatusEventId(account),
        platformId: account.platformId,
        environment,
        type: ACCOUNT_STATUS_UPDATED,
        data: views[i],
      }),
    );
  }
  return events;
}

import type { MikroORM } from '@mikro-orm/postgresql';
import { WorkflowIdConflictPolicy, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import { createCard } from '../../src/contexts/cards/services/cards';
import { ensureSystemAccount, postEntry, sandboxFundingAccountId } from '../../src/contexts/ledger/services/ledger';
import { provisionCustomerAccounts } from '../../src/contexts/customers/services/account-provisioning';
import { createPlatform } from '../../src/contexts/platform-setup/services/platform-setup';
import type { cardLifecycle } from '../../workflows/cards/card-lifecycle';
import type { CardLifecycleInput } from '../../workflows/cards/definitions';
import { individualFields, insertCustomer } from './onboarding-fixtures';

/**
 * A sandbox card in PROCESSING for an approved cardholder whose USD account holds `funds`, made
 * through the services the API uses (for workflow tests, which have no API).
 */
export async function processingCard(orm: MikroORM, masterKey: Buffer, options: { webhookEndpoint: string; funds: bigint; platformCardId?: string }) {
  const platform = await createPlatform(orm.em.fork(), {
    name: 'wf-cards',
    webhookEndpoint: options.webhookEndpoint,
    isRegulatedFinancialInstitution: true,
    currencies: ['USD'],
  });
  const customer = await insertCustomer(orm, masterKey, platform.id, { ...individualFields('Ada Lovelace'), kycStatus: 'APPROVED' });
  const [account] = await provisionCustomerAccounts(orm.em.fork(), platform, customer);
  if (options.funds > 0n)
    await orm.em.fork().transactional(async (tx) => {
      const source = sandboxFundingAccountId(platform.id, 'USD');
      await ensureSystemAccount(tx, platform.id, source, 'SANDBOX_FUNDING_SOURCE', 'USD');
      await postEntry(tx, {
        platformId: platform.id,
        idempotencyKey: `wf-fund:${account!.id}`,
        description: 'test funding',
        lines: [
          { accountId: source, currency: 'USD', amount: -options.funds },
          { accountId: account!.id, currency: 'USD', amount: options.funds },
        ],
      });
    });
  const card = await createCard(orm.em.fork(), {
    platformId: platform.id,
    environment: 'SANDBOX',
    body: {
      cardholderId: customer.id,
      form: 'VIRTUAL',
      fundingSources: [account!.id],
      ...(options.platformCardId ? { platformCardId: options.platformCardId } : {}),
    },
  });
  return { platform, customer, accountId: account!.id, card };
}

export function startCard(
  client: Client,
  taskQueue: string,
  card: { id: string; platformId: string; cardholderId: string },
  timing: Pick<CardLifecycleInput, 'issuerResponseSeconds' | 'authorizationWindowSeconds'>,
) {
  return client.workflow.start<typeof cardLifecycle>('cardLifecycle', {
    workflowId: card.id,
    taskQueue,
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
    args: [{ cardId: card.id, platformId: card.platformId, customerId: card.cardholderId, environment: 'SANDBOX', ...timing }],
  });
}

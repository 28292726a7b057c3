import type { ActivityDeps } from '../deps';
import { expireOperation, recordFunding, settleOperation, startProcessing, submitOperation } from '../../src/contexts/stablecoins/services/operations';
import { advanceIssuance } from '../../src/contexts/stablecoins/services/stablecoins';
import { Stablecoin } from '../../src/contexts/stablecoins/entities';

/** The steps of stablecoin issuance and of mints and burns: each one provider call and one guarded status change. */
export function createActivities({ orm, masterKey }: ActivityDeps) {
  return {
    async stablecoinIssuanceStatus(input: { stablecoinId: string }) {
      return (await orm.em.fork().findOneOrFail(Stablecoin, { id: input.stablecoinId })).issuanceStatus;
    },
    async advanceStablecoinIssuance(input: { stablecoinId: string }) {
      return advanceIssuance(orm.em.fork(), masterKey, input.stablecoinId);
    },
    async submitStablecoinOperation(input: { operationId: string; fundingWindowSeconds: number }) {
      return submitOperation(orm.em.fork(), masterKey, input.operationId, input.fundingWindowSeconds);
    },
    async recordStablecoinFunding(input: { operationId: string }) {
      return recordFunding(orm.em.fork(), input.operationId);
    },
    async expireStablecoinOperation(input: { operationId: string }) {
      return expireOperation(orm.em.fork(), input.operationId);
    },
    async startStablecoinProcessing(input: { operationId: string }) {
      return startProcessing(orm.em.fork(), input.operationId);
    },
    async settleStablecoinOperation(input: { operationId: string }) {
      return settleOperation(orm.em.fork(), masterKey, input.operationId);
    },
  };
}

/** What the stablecoin workflows may call (imported type-only). */
export type StablecoinActivities = ReturnType<typeof createActivities>;

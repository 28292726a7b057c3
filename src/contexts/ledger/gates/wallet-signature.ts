import type { ExecutionGate } from '../../../domain/execution-gate';
import { PASS } from '../../../domain/execution-gate';
import { DomainError } from '../../../domain/errors';
import { InternalAccount } from '../entities';

/**
 * No embedded wallet pays without its owner's signature. Every execution path (quotes,
 * /transfer-out) meets this gate. Signatures cannot be verified in this version, so such a source
 * is refused; embedded-wallet authentication turns this refusal into a hold its signed retry approves.
 */
export const walletSignature: ExecutionGate = {
  name: 'wallet-signature',
  async check(em, subject) {
    if (!subject.payerAccountId) return PASS;
    if ((await em.findOne(InternalAccount, { id: subject.payerAccountId }))?.type === 'EMBEDDED_WALLET') {
      throw new DomainError('NOT_IMPLEMENTED', 'Wallet signatures cannot be verified yet: embedded-wallet sources cannot be executed in this version');
    }
    return PASS;
  },
};

import type { ExecutionGate } from '../domain/execution-gate-contract';
import { customerMayMoveMoney } from './customers';
import { externalAccountsUsable } from './external-accounts';
import { walletSignature } from './wallet-auth';
import { scaAuthorization } from './sca';
import { agentPolicy } from './agents';

/**
 * The gates every quote execution passes, in order, before its funds are held (the hold itself
 * is the last check: the funds must be there). Each gate lives in the context that owns its
 * rule; adding one is its own file there and one line here. Decisions come before proofs: an
 * agent's policy (and the platform's approval it may ask for) judges the payment before the
 * customer is asked to prove it is theirs (a wallet's signature, SCA), so the agent is answered
 * with its action at once and the customer never authorizes a payment the platform then refuses.
 */
export const EXECUTION_GATES: readonly ExecutionGate[] = [customerMayMoveMoney, externalAccountsUsable, agentPolicy, walletSignature, scaAuthorization];

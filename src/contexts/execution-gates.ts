import type { ExecutionGate } from '../domain/execution-gate';
import { customerMayMoveMoney } from './customers/gates/money-movement';
import { externalAccountsUsable } from './external-accounts/gates/accounts-usable';
import { walletSignature } from './wallet-auth/gates/wallet-signature';
import { scaAuthorization } from './sca/gates/sca-authorization';
import { agentPolicy } from './agents/gates/agent-policy';

/**
 * The gates every quote execution passes, in order, before its funds are held (the hold itself
 * is the last check: the funds must be there). Each gate lives in the context that owns its
 * rule; adding one is its own file there and one line here. The seams the coming work fills sit
 * after the wallet signature: SCA authorization, then agent policy, then platform approval —
 * each a gate that holds the payment until its proof or decision arrives.
 */
export const EXECUTION_GATES: readonly ExecutionGate[] = [customerMayMoveMoney, externalAccountsUsable, walletSignature, scaAuthorization, agentPolicy];

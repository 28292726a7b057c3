import type { EntityManager } from '@mikro-orm/postgresql';
import { runSignedOperation, type SignedCall, type SignedOperation } from '../../wallet-auth';
import { activateDelegatedKey, createPendingDelegatedKey, delegatedKeyTarget, delegatedKeyView, type DelegatedKeyRequest } from './delegated-keys';

/**
 * POST /auth/delegated-keys is the reference's three-leg signed flow: the first call is
 * challenged (202); its signed retry creates the key PENDING and is challenged again (a second
 * 202, for the key now made); that one's signed retry makes it ACTIVE (201). Both challenges
 * bind the same body, and one creation at a time waits on a wallet (OPERATION_IN_PROGRESS).
 */
export const DELEGATED_KEY_CREATE = 'DELEGATED_KEY_CREATE';
export const DELEGATED_KEY_ACTIVATE = 'DELEGATED_KEY_ACTIVATE';
const CONFLICT_GROUP = 'DELEGATED_KEY';

type View = ReturnType<typeof delegatedKeyView>;

function activateOperation(platformId: string, key?: { id: string; publicKey: string }): SignedOperation<View> {
  return {
    name: DELEGATED_KEY_ACTIVATE,
    activityType: 'ACTIVITY_TYPE_ACTIVATE_DELEGATED_KEY',
    conflictGroup: CONFLICT_GROUP,
    prepare: async () => ({ parameters: { delegatedKeyId: key?.id, publicKey: key?.publicKey }, data: { delegatedKeyId: key?.id } }),
    execute: async (tx, signed) => delegatedKeyView(await activateDelegatedKey(tx, platformId, String(signed.request.data?.delegatedKeyId))),
  };
}

function createOperation(masterKey: Buffer, call: SignedCall, request: DelegatedKeyRequest) {
  return {
    name: DELEGATED_KEY_CREATE,
    activityType: 'ACTIVITY_TYPE_CREATE_DELEGATED_KEY',
    conflictGroup: CONFLICT_GROUP,
    prepare: async (tx: EntityManager) => {
      await delegatedKeyTarget(tx, call.platformId, request);
      return { parameters: { cardId: request.cardId, nickname: request.nickname } };
    },
    execute: async (tx: EntityManager) => {
      await delegatedKeyTarget(tx, call.platformId, request);
      const key = await createPendingDelegatedKey(tx, masterKey, call.platformId, request);
      // The second challenge, for the key just made, in the same transaction: no key without its challenge.
      const second = await runSignedOperation(tx, { ...call, signature: undefined, requestId: undefined }, activateOperation(call.platformId, key));
      if (second.status !== 'CHALLENGE') throw new Error('a first call is always challenged');
      return second.challenge;
    },
  } satisfies SignedOperation<unknown>;
}

export type DelegatedKeyOutcome =
  { status: 'CHALLENGE'; challenge: { payloadToSign: string; requestId: string; expiresAt: string } } | { status: 'ACTIVE'; key: View };

/** One leg of the flow; the leg is the pending request the Request-Id names (none: the first). */
export async function createDelegatedKeyLeg(
  em: EntityManager,
  masterKey: Buffer,
  call: SignedCall,
  request: DelegatedKeyRequest,
  pendingOperation: string | undefined,
): Promise<DelegatedKeyOutcome> {
  if (pendingOperation === DELEGATED_KEY_ACTIVATE) {
    const outcome = await runSignedOperation(em, call, activateOperation(call.platformId));
    return outcome.status === 'DONE' ? { status: 'ACTIVE', key: outcome.result } : outcome;
  }
  const outcome = await runSignedOperation(em, call, createOperation(masterKey, call, request));
  return outcome.status === 'DONE' ? { status: 'CHALLENGE', challenge: outcome.result } : outcome;
}

import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  getExternalWorkflowHandle,
  proxyLocalActivities,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { ScaActivities } from '../../activities/sca';
import { ERROR } from '../../src/domain/errors';
import { resendRefusal, SCA_AUTHORIZATION_GATE } from '../../src/contexts/sca/domain/payment-challenges';
import { BusinessStatusKey } from '../../src/temporal/search-attributes';
import { holdDecidedSignal } from '../payments/definitions';
import { oneStepAtATime } from '../one-step-at-a-time';
import { asApplicationFailure } from '../update-failures';
import { authorizeChallengeUpdate, resendChallengeUpdate, SCA_NOT_COMPLETED, type ScaChallengeInput } from './definitions';

// One short database step per proof: a local activity, no task round trip through the server.
const { checkQuoteProof } = proxyLocalActivities<ScaActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

const refusal = (type: string, message: string) =>
  ApplicationFailure.create({ type, message, nonRetryable: true, ...(type === ERROR.RATE_LIMITED ? { details: [{ retryAfterSeconds: 1 }] } : {}) });

/**
 * One SCA challenge of a quote (workflow id = challenge id), from its issue to its end. Proofs
 * (POST /quotes/{id}/authorize) and resends arrive as updates and take turns; the sca context's
 * verifier judges each proof and counts the wrong ones. The challenge ends authorized, void (its
 * last wrong proof), or lapsed on a durable timer at its expiresAt; the outcome reaches the
 * payment's workflow exactly once, as a signal: an authorized HELD_EXECUTION releases the held
 * payment, and an unsatisfied challenge fails the payment (SCA_NOT_COMPLETED, nothing moved).
 * An authorized QUOTE_FUNDING challenge has moved its quote on already (the next challenge, or
 * PENDING with its instructions): the payment waits for its funds as any real-time quote.
 */
type Outcome = 'AUTHORIZED' | 'VOID' | 'LAPSED';

export async function scaChallenge(input: ScaChallengeInput): Promise<string> {
  let outcome = null as Outcome | null;
  let resends = 0;
  const turn = oneStepAtATime();

  setHandler(authorizeChallengeUpdate, (proof) =>
    turn.run(async () => {
      if (outcome === 'VOID') throw refusal(ERROR.RATE_LIMITED, 'Too many wrong proofs: the challenge is void and the payment was not authorized');
      if (outcome) throw refusal(ERROR.CONFLICT, `The challenge is ${outcome.toLowerCase()}: the quote has no pending challenge to authorize`);
      const checked = await checkQuoteProof({ quoteId: input.quoteId, challengeId: input.challengeId, proof }).catch((err: unknown) => {
        throw asApplicationFailure(err);
      });
      if (checked.authorized) {
        outcome = 'AUTHORIZED';
        return {
          challengeId: input.challengeId,
          transactionId: input.transactionId,
          ...(checked.next ? { next: { challengeId: checked.next.id, expiresAt: checked.next.expiresAt } } : {}),
        };
      }
      if (checked.burned) outcome = 'VOID';
      const { code, message, details } = checked.refusal;
      throw ApplicationFailure.create({ type: code, message, nonRetryable: true, ...(details ? { details: [details] } : {}) });
    }),
  );
  setHandler(resendChallengeUpdate, () =>
    turn.run(async () => {
      const refused = resendRefusal({ factor: input.factor, pending: outcome === null, resends });
      if (refused === 'TOO_MANY') throw refusal(ERROR.RATE_LIMITED, 'The code was re-sent too often; wait for it or let the challenge lapse');
      if (refused === 'NOT_RESENDABLE') throw refusal(ERROR.CONFLICT, 'A passkey challenge has no code to re-send');
      if (refused) throw refusal(ERROR.CONFLICT, 'The quote has no pending SMS challenge');
      // The sandbox's code is fixed and nothing is sent; the expiry is not extended either way.
      resends += 1;
    }),
  );

  const answered = await condition(() => outcome !== null, Math.max(input.expiresInMs, 1));
  await condition(() => !turn.busy);
  if (!answered && outcome === null) outcome = 'LAPSED';
  upsertSearchAttributes([{ key: BusinessStatusKey, value: outcome ?? 'LAPSED' }]);
  const payment = getExternalWorkflowHandle(input.transactionId);
  if (outcome !== 'AUTHORIZED') {
    await payment.signal(holdDecidedSignal, { gate: SCA_AUTHORIZATION_GATE, decision: 'REJECT', failureReason: SCA_NOT_COMPLETED }).catch(() => undefined);
  } else if (input.kind === 'HELD_EXECUTION') {
    await payment.signal(holdDecidedSignal, { gate: SCA_AUTHORIZATION_GATE, decision: 'APPROVE' }).catch(() => undefined);
  }
  await condition(allHandlersFinished);
  return outcome!;
}

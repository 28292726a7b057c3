import type { EntityManager } from '@mikro-orm/postgresql';
import { PASS, type ExecutionGate, type GateEvent } from '../../src/domain/execution-gate-contract';
import { EXECUTION_GATES } from '../../src/contexts/execution-gates';
import { recordWebhookEvent } from '../../src/contexts/webhooks';
import { Quote } from '../../src/contexts/payments/entities';

export const HELD_GATE = 'test-held';

/**
 * An execution gate only tests register. A quote whose description is `hold:<seconds>` is held
 * PENDING_AUTHORIZATION for that many seconds, until approved (the customer's proof, as SCA
 * holds). One described `wait:<seconds>` is held leaving the payment PENDING (a decision by
 * someone else, as a platform's approval), and the gate tells of its hold, its approval and its
 * ending with TEST webhooks of its own ({ gate, quoteId, step, reason }), recorded in the
 * database transaction of each. It proves a gate plugs in from outside the payments code (one
 * more entry in the list the worker is given) and that a held payment waits in its workflow for
 * a decision or its expiry.
 */
export const heldGate: ExecutionGate = {
  name: HELD_GATE,
  async check(em, subject, { approved }) {
    const match = /^(hold|wait):(\d+)$/.exec(subject.description ?? '');
    if (!match) return PASS;
    const waits = match[1] === 'wait';
    if (approved) return waits ? { pass: true, events: [await told(em, subject, 'APPROVED')] } : PASS;
    return {
      hold: {
        status: waits ? 'PENDING' : 'PENDING_AUTHORIZATION',
        expiresInSeconds: Number(match[2]),
        reason: 'held by the test gate until a decision',
        ...(waits ? { events: [await told(em, subject, 'HELD')] } : {}),
      },
    };
  },
  async holdEnded(em, ended) {
    if (ended.heldBy !== HELD_GATE) return [];
    return [await told(em, { quoteId: ended.quoteId, transactionId: ended.transactionId }, ended.outcome, ended.reason)];
  },
};

async function told(em: EntityManager, subject: { quoteId: string; transactionId: string }, step: string, reason?: string): Promise<GateEvent> {
  const quote = await em.findOneOrFail(Quote, { id: subject.quoteId });
  const event = await recordWebhookEvent(em, {
    id: `Webhook:test-held-${step}-${subject.transactionId}`,
    platformId: quote.platformId,
    environment: quote.environment,
    type: 'TEST',
    data: { gate: HELD_GATE, quoteId: subject.quoteId, step, ...(reason ? { reason } : {}) },
  });
  return { eventId: event.id, type: event.type };
}

/** The registered gates, then the test's. */
export const GATES_WITH_HELD = [...EXECUTION_GATES, heldGate];

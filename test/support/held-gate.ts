import { PASS, type ExecutionGate } from '../../src/domain/execution-gate';
import { EXECUTION_GATES } from '../../src/contexts/execution-gates';

export const HELD_GATE = 'test-held';

/**
 * An execution gate only tests register: it holds every execution whose quote's description is
 * `hold:<seconds>` for that many seconds, until approved. It proves a gate plugs in from outside
 * the payments code (one more entry in the list the worker is given) and that a held payment
 * waits in its workflow for a decision or its expiry.
 */
export const heldGate: ExecutionGate = {
  name: HELD_GATE,
  async check(_em, subject, { approved }) {
    const match = /^hold:(\d+)$/.exec(subject.description ?? '');
    if (!match || approved) return PASS;
    return { hold: { status: 'PENDING_AUTHORIZATION', expiresInSeconds: Number(match[1]), reason: 'held by the test gate until a decision' } };
  },
};

/** The registered gates, then the test's. */
export const GATES_WITH_HELD = [...EXECUTION_GATES, heldGate];

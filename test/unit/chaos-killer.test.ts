import { killThroughout } from '../proof/chaos/killer';
import { routedAround } from '../proof/chaos/routed-around';
import type { ProofStack } from '../proof/proof-stack';
import { Random } from '../proof/random';

/**
 * The crash campaign's killer on a stack of several API replicas (the production topology): it reads each
 * replica's metrics, so a replica restarted from 0 and the other one still answering are both seen, and it
 * counts what the other replica answered while the killed one was down (HAProxy routing around it).
 */

/** A stack whose API replicas count 2xx answers: api-2 keeps answering while api-1 is down. */
function fakeStack(otherAnswersWhileDown: boolean): ProofStack & { killed: string[] } {
  const answered: Record<string, number> = { 'api-1': 100, 'api-2': 100, 'worker-1': 5, 'worker-2': 5 };
  const down = new Set<string>();
  const killed: string[] = [];
  return {
    killed,
    dir: '/nowhere',
    components: ['api-1'],
    apiProcesses: ['api-1', 'api-2'],
    workerProcesses: ['worker-1', 'worker-2'],
    unplannedExits: {},
    databaseUrl: '',
    temporalAddress: '',
    baseUrl: '',
    masterKeyBase64: '',
    kill(component) {
      killed.push(component);
      down.add(component);
      answered[component] = 0;
      if (otherAnswersWhileDown) answered['api-2']! += 7;
    },
    async restart(component) {
      down.delete(component);
      // Back, the replica answers (its counter starts again from 0) and the workers keep delivering.
      answered[component] = 1;
      answered['worker-1']! += 1;
      return Promise.resolve();
    },
    stop: () => Promise.resolve(),
    async counter(process) {
      return Promise.resolve(down.has(process) ? undefined : answered[process]);
    },
    waitUntilReady: () => Promise.resolve(),
    sandboxPartner: () => Promise.reject(new Error('not used')),
  };
}

describe('the crash campaign on API replicas behind a load balancer', () => {
  test('a replica kill counts what the other replica answered while it was down', async () => {
    const stack = fakeStack(true);
    const kills = await killThroughout(stack, new Random(1), stack.components, 1, 0.01, () => undefined);
    expect(stack.killed).toEqual(['api-1']);
    expect(kills).toHaveLength(1);
    expect(kills[0]!.othersAnswered).toBe(7);
    // The restarted replica's counter started again from 0: its first answer counts as flowing again.
    expect(kills[0]!.answeringMs).not.toBeNull();
    expect(kills[0]!.deliveringMs).not.toBeNull();
    expect(routedAround(kills, stack.apiProcesses).ok).toBe(true);
  }, 20_000);

  test('the check fails when nothing answered partners during the outage', async () => {
    const stack = fakeStack(false);
    const kills = await killThroughout(stack, new Random(1), stack.components, 1, 0.01, () => undefined);
    expect(kills[0]!.othersAnswered).toBe(0);
    expect(routedAround(kills, stack.apiProcesses)).toMatchObject({ ok: false });
    expect(routedAround([], stack.apiProcesses)).toMatchObject({ ok: false, detail: 'no API replica was killed' });
  }, 20_000);
});

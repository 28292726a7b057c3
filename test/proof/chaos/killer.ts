import type { Random } from '../random';
import { sleep, type Component, type Stack } from '../stack';

/** One SIGKILL and how long the component, and the service as a whole, took to come back. */
export interface Kill {
  component: Component;
  /** Seconds into the campaign. */
  at: number;
  /** How long it stayed down before the restart began. */
  downMs: number;
  /** Kill → the component ready again (port open, worker polling, API answering). */
  componentBackMs: number;
  /** Kill → the API's readiness check answering 200 (PostgreSQL and Temporal reachable). */
  serviceReadyMs: number;
}

/**
 * Kills every component `each` times, one at a time, in a seeded random order, at a random
 * moment of its slot of the campaign, and restarts it after a random short outage.
 */
export async function killThroughout(stack: Stack, random: Random, components: readonly Component[], each: number, seconds: number, say: (m: string) => void): Promise<Kill[]> {
  const plan = random.shuffle(components.flatMap((c) => Array.from({ length: each }, () => c)));
  const slotMs = (seconds * 1000) / plan.length;
  const started = Date.now();
  const kills: Kill[] = [];
  for (const [i, component] of plan.entries()) {
    const slotStart = started + i * slotMs;
    // Somewhere in the first half of the slot, so that recovery fits in the rest of it.
    const at = slotStart + random.next() * slotMs * 0.5;
    if (at > Date.now()) await sleep(at - Date.now());
    const downMs = random.int(0, 3_000);
    const killedAt = Date.now();
    say(`killing ${component} (SIGKILL), restarting it in ${downMs} ms`);
    stack.kill(component);
    await sleep(downMs);
    await stack.restart(component);
    const componentBackMs = Date.now() - killedAt;
    await stack.waitUntilReady();
    kills.push({ component, at: Math.round((killedAt - started) / 1000), downMs, componentBackMs, serviceReadyMs: Date.now() - killedAt });
    say(`${component} back after ${componentBackMs} ms, service ready after ${Date.now() - killedAt} ms`);
  }
  return kills;
}

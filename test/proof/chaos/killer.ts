import type { ProofStack } from '../proof-stack';
import type { Random } from '../random';
import { sleep } from '../stack';

/** One SIGKILL and how long the component, and the service as a whole, took to come back. */
export interface Kill {
  component: string;
  /** Seconds into the campaign. */
  at: number;
  /** How long it stayed down before the restart began. */
  downMs: number;
  /** Kill → the component ready again (port open, worker polling, API answering). */
  componentBackMs: number;
  /** Kill → the API's readiness check answering 200 (PostgreSQL and Temporal reachable). */
  serviceReadyMs: number;
  /** Kill → the API's metrics counting a 2xx answer to a partner again (null: none within a minute). */
  answeringMs: number | null;
  /** Kill → the worker's metrics counting a webhook delivered again (null: none within a minute). */
  deliveringMs: number | null;
  /**
   * An API replica's kill (several replicas behind a load balancer): the partners' requests the other replicas
   * answered 2xx while it was down, from the kill until it was back.
   */
  othersAnswered?: number;
}

/** What the campaign reads from the services' metrics to see work flowing again after a kill. */
export const FLOW = {
  api: { name: 'payments_http_request_duration_seconds_count', labels: { status_code: /^2/, route: /^\/(?!ready$|health$)/ } },
  worker: { name: 'payments_webhook_attempts_total', labels: { outcome: /^delivered$/ } },
} as const;

export type Role = keyof typeof FLOW;
const processesOf = (stack: ProofStack, role: Role) => (role === 'api' ? stack.apiProcesses : stack.workerProcesses);

/** Each API or worker process's counter of flowing work, by process name. */
export async function counters(stack: ProofStack, role: Role): Promise<Map<string, number | undefined>> {
  const { name, labels } = FLOW[role];
  const processes = processesOf(stack, role);
  return new Map(await Promise.all(processes.map(async (p) => [p, await stack.counter(p, name, labels)] as const)));
}

/**
 * Milliseconds from `since` until some process's counter has grown past `before` (or past 0 for
 * the process that was restarted, its counters having started again); null after a minute.
 */
export async function flowingAgain(
  stack: ProofStack,
  role: Role,
  before: Map<string, number | undefined>,
  restarted: string,
  since: number,
): Promise<number | null> {
  const baseline = new Map([...before].map(([p, value]) => [p, p === restarted ? 0 : (value ?? 0)]));
  while (Date.now() - since < 60_000) {
    const now = await counters(stack, role);
    for (const [p, value] of now) {
      // Lower than before: the process restarted meanwhile (its supervisor's doing), its counters from 0.
      if (value !== undefined && value < (baseline.get(p) ?? 0)) baseline.set(p, 0);
    }
    if ([...now].some(([p, value]) => value !== undefined && value > (baseline.get(p) ?? 0))) return Date.now() - since;
    await sleep(250);
  }
  return null;
}

const sumOf = (values: Map<string, number | undefined>, except: string) => [...values].reduce((sum, [p, v]) => (p === except ? sum : sum + (v ?? 0)), 0);

/** Another step of the campaign's plan (a network fault), run in its turn between the kills; it records itself. */
export interface PlannedStep {
  name: string;
  /** `campaignStarted`: when the plan began (ms since the epoch), for the step's record. */
  run: (campaignStarted: number) => Promise<void>;
}

/**
 * Kills every component `each` times, one at a time, in a seeded random order, at a random
 * moment of its slot of the campaign, and restarts it after a random short outage. Other steps
 * (`others`) are shuffled into the same plan and run one at a time in their slots too.
 */
export async function killThroughout(
  stack: ProofStack,
  random: Random,
  components: readonly string[],
  each: number,
  seconds: number,
  say: (m: string) => void,
  others: readonly PlannedStep[] = [],
): Promise<Kill[]> {
  const plan = random.shuffle<string | PlannedStep>([...components.flatMap((c) => Array.from({ length: each }, () => c)), ...others]);
  const slotMs = (seconds * 1000) / plan.length;
  const started = Date.now();
  const kills: Kill[] = [];
  for (const [i, component] of plan.entries()) {
    const slotStart = started + i * slotMs;
    // Somewhere in the first half of the slot, so that recovery fits in the rest of it.
    const at = slotStart + random.next() * slotMs * 0.5;
    if (at > Date.now()) await sleep(at - Date.now());
    if (typeof component !== 'string') {
      await component.run(started);
      continue;
    }
    const downMs = random.int(0, 3_000);
    const before = { api: await counters(stack, 'api'), worker: await counters(stack, 'worker') };
    const replicaOfSeveral = stack.apiProcesses.length > 1 && stack.apiProcesses.includes(component);
    const killedAt = Date.now();
    say(`killing ${component} (SIGKILL), restarting it in ${downMs} ms`);
    stack.kill(component);
    await sleep(downMs);
    await stack.restart(component);
    const componentBackMs = Date.now() - killedAt;
    const othersAnswered = replicaOfSeveral ? sumOf(await counters(stack, 'api'), component) - sumOf(before.api, component) : undefined;
    await stack.waitUntilReady();
    const serviceReadyMs = Date.now() - killedAt;
    const [answeringMs, deliveringMs] = await Promise.all([
      flowingAgain(stack, 'api', before.api, component, killedAt),
      flowingAgain(stack, 'worker', before.worker, component, killedAt),
    ]);
    kills.push({
      component,
      at: Math.round((killedAt - started) / 1000),
      downMs,
      componentBackMs,
      serviceReadyMs,
      answeringMs,
      deliveringMs,
      ...(othersAnswered !== undefined ? { othersAnswered } : {}),
    });
    say(
      `${component} back after ${componentBackMs} ms, service ready after ${serviceReadyMs} ms, answering partners after ${answeringMs ?? '—'} ms, delivering webhooks after ${deliveringMs ?? '—'} ms`,
    );
  }
  return kills;
}

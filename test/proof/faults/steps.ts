import { counters, FLOW, flowingAgain, type PlannedStep } from '../chaos/killer';
import type { ProofStack } from '../proof-stack';
import { sleep } from '../stack';
import type { Toxic, Toxiproxy } from './toxiproxy';

/**
 * The campaign's network faults, injected through toxiproxy on the links of the service's processes to
 * PostgreSQL and Temporal. Each is one step of the campaign's plan and records itself like a kill: when it
 * began, how long it lasted, and the recovery after it ended.
 */

export const LATENCY_MS = 200;
const LATENCY_SECONDS = 20;
const RESET_BURSTS = 3;
const RESET_BURST_MS = 1_000;
const RESET_GAP_MS = 4_000;
export const PARTITION_SECONDS = 30;

export const FAULTS = ['latency', 'resets', 'worker ✕ postgres', 'api ✕ temporal'] as const;
export type FaultName = (typeof FAULTS)[number];

/** One network fault and how the service came back after it ended (the fields a kill's record has). */
export interface Fault {
  fault: FaultName;
  /** The toxiproxy links (`<process>-<service>`) it was put on. */
  links: string[];
  /** Seconds into the campaign when it began. */
  at: number;
  /** How long it lasted (began → ended). */
  downMs: number;
  /** Ended → every process it touched working its link again (null: not within a minute; see linksWorkingAgain). */
  componentBackMs: number | null;
  /** Ended → the API's readiness check answering 200. */
  serviceReadyMs: number;
  /** Ended → the API's metrics counting a 2xx answer to a partner again (null: none within a minute). */
  answeringMs: number | null;
  /** Ended → the worker's metrics counting a webhook delivered again (null: none within a minute). */
  deliveringMs: number | null;
  /** 2xx answers to partners, and webhooks delivered, while it lasted (undefined: a process restarted meanwhile). */
  answeredDuring: number | undefined;
  deliveredDuring: number | undefined;
}

/** What each fault does to which links, for how long; `links` are every link the stack asked for. */
function injection(fault: FaultName, links: string[]): { links: string[]; run: (toxiproxy: Toxiproxy) => Promise<void> } {
  switch (fault) {
    case 'latency':
      // Every answer 200 ms late: each round trip to PostgreSQL or Temporal takes 200 ms more.
      return {
        links,
        run: (toxiproxy) =>
          withToxics(
            toxiproxy,
            links,
            [{ name: 'latency', type: 'latency', stream: 'downstream', attributes: { latency: LATENCY_MS, jitter: 0 } }],
            LATENCY_SECONDS * 1000,
          ),
      };
    case 'resets':
      // A connection that carries anything, either way, during a burst is reset (RST, unsent data dropped):
      // queries and commits cut off before or after the server got them, answers lost on their way back.
      return {
        links,
        run: async (toxiproxy) => {
          const reset = (stream: 'upstream' | 'downstream'): Toxic => ({ name: `reset-${stream}`, type: 'reset_peer', stream, attributes: { timeout: 0 } });
          for (let burst = 0; burst < RESET_BURSTS; burst++) {
            if (burst > 0) await sleep(RESET_GAP_MS);
            await withToxics(toxiproxy, links, [reset('upstream'), reset('downstream')], RESET_BURST_MS);
          }
        },
      };
    case 'worker ✕ postgres':
    case 'api ✕ temporal': {
      const [process, service] = fault.split(' ✕ ') as [string, string];
      // "One worker" / "one API": the first of them (the dev stack has one; the cluster stack `-1` and `-2`).
      const link = links.find((l) => l.startsWith(process) && l.endsWith(`-${service}`));
      if (!link) throw new Error(`no ${process} link to ${service} among ${links.join(', ')}`);
      // Nothing gets through either way and nothing is closed: a blackhole, not a refusal. When it heals,
      // toxiproxy closes the connections it held (their streams lost data), and the process reconnects.
      const blackhole = (stream: 'upstream' | 'downstream'): Toxic => ({ name: `partition-${stream}`, type: 'timeout', stream, attributes: { timeout: 0 } });
      return { links: [link], run: (toxiproxy) => withToxics(toxiproxy, [link], [blackhole('upstream'), blackhole('downstream')], PARTITION_SECONDS * 1000) };
    }
  }
}

async function withToxics(toxiproxy: Toxiproxy, links: string[], toxics: Toxic[], ms: number): Promise<void> {
  await Promise.all(links.flatMap((link) => toxics.map((toxic) => toxiproxy.addToxic(link, toxic))));
  try {
    await sleep(ms);
  } finally {
    await Promise.all(links.flatMap((link) => toxics.map((toxic) => toxiproxy.removeToxic(link, toxic.name))));
  }
}

/** The four faults as steps of the campaign's plan; each appends its record to `records` when it is over. */
export function faultSteps(stack: ProofStack, toxiproxy: Toxiproxy, say: (m: string) => void, records: Fault[]): PlannedStep[] {
  return FAULTS.map((fault) => ({
    name: fault,
    run: async (campaignStarted: number) => {
      const { links, run } = injection(fault, [...toxiproxy.links.keys()]);
      const before = await flowCounters(stack);
      const began = Date.now();
      say(`network fault: ${fault} on ${links.join(', ')}`);
      await run(toxiproxy);
      const ended = Date.now();
      const atEnd = await flowCounters(stack);
      const [componentBackMs, serviceReadyMs, answeringMs, deliveringMs] = await Promise.all([
        linksWorkingAgain(stack, toxiproxy, links, ended),
        stack.waitUntilReady().then(() => Date.now() - ended),
        flowingAgain(stack, 'api', atEnd.api, '', ended),
        flowingAgain(stack, 'worker', atEnd.worker, '', ended),
      ]);
      const during = (a: Map<string, number | undefined>, b: Map<string, number | undefined>) => {
        const total = (m: Map<string, number | undefined>) => ([...m.values()].includes(undefined) ? undefined : [...m.values()].reduce((x, y) => x! + y!, 0));
        const [from, to] = [total(a), total(b)];
        return from !== undefined && to !== undefined && to >= from ? to - from : undefined;
      };
      const record: Fault = {
        fault,
        links,
        at: Math.round((began - campaignStarted) / 1000),
        downMs: ended - began,
        componentBackMs,
        serviceReadyMs,
        answeringMs,
        deliveringMs,
        answeredDuring: during(before.api, atEnd.api),
        deliveredDuring: during(before.worker, atEnd.worker),
      };
      records.push(record);
      say(
        `${fault} over after ${record.downMs} ms (meanwhile ${record.answeredDuring ?? '?'} answers, ${record.deliveredDuring ?? '?'} webhooks); links answering after ${componentBackMs ?? '—'} ms, service ready after ${serviceReadyMs} ms, answering partners after ${answeringMs ?? '—'} ms, delivering webhooks after ${deliveringMs ?? '—'} ms`,
      );
    },
  }));
}

/** Each API's and worker's counter of flowing work (2xx answers, webhooks delivered), by process. */
async function flowCounters(stack: ProofStack): Promise<{ api: Map<string, number | undefined>; worker: Map<string, number | undefined> }> {
  return { api: await counters(stack, 'api'), worker: await counters(stack, 'worker') };
}

/**
 * Ms from `since` until every process the fault touched works its link again, as the process itself shows it
 * (toxiproxy counts a connection's bytes only when it closes): a link to PostgreSQL, a transaction of that
 * process committed; the API's link to Temporal, its readiness check (which asks Temporal through it) passing;
 * the worker's, a webhook delivered (an activity task it took from Temporal). Null after a minute.
 */
async function linksWorkingAgain(stack: ProofStack, toxiproxy: Toxiproxy, links: string[], since: number): Promise<number | null> {
  const waits = links.map(async (link) => {
    const { process, service } = toxiproxy.links.get(link)!;
    if (service === 'temporal' && process.startsWith('api'))
      return stack.waitUntilReady(60_000).then(
        () => Date.now() - since,
        () => null,
      );
    // The process's own counter: a worker's webhook delivered (its link to Temporal), a transaction committed (to PostgreSQL).
    const { name, labels } = service === 'temporal' ? FLOW.worker : { name: 'payments_db_transactions_total', labels: { outcome: /^commit$/ } };
    let baseline = (await stack.counter(process, name, labels)) ?? 0;
    while (Date.now() - since < 60_000) {
      const now = await stack.counter(process, name, labels);
      if (now !== undefined && now < baseline) baseline = 0;
      if (now !== undefined && now > baseline) return Date.now() - since;
      await sleep(100);
    }
    return null;
  });
  const each = await Promise.all(waits);
  return each.some((ms) => ms === null) ? null : Math.max(...(each as number[]));
}

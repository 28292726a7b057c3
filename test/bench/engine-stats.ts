/**
 * What the workers' Temporal SDK saw (its Prometheus text, Stack.sdkMetricsText): long polls, workflow task
 * schedule-to-start latency, sticky cache hits and misses, pollers. Read before and after a phase, the
 * difference shows where a workflow task waits between the server and the worker.
 */

export interface EngineStats {
  /** Long polls of workflow task queues (normal and sticky) answered, with a task or empty. */
  workflowPolls: number;
  /** Of them, the ones that ended with no task (the poll's timeout). */
  workflowPollsEmpty: number;
  activityPolls: number;
  /** Workflow tasks counted by the schedule-to-start histogram, and their summed wait in ms. */
  workflowTasks: number;
  scheduleToStartMs: number;
  stickyHits: number;
  stickyMisses: number;
  /** Pollers running now (workflow, sticky and activity), over every worker process. */
  pollers: number;
}

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function samples(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? ([^ ]+)/.exec(line);
    if (!m) continue;
    const labels = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1]!, l[2]!]));
    out.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return out;
}

/** A counter's sum whatever its exporter suffix (`_total` or none). */
function counter(all: Sample[], name: string, where: (labels: Record<string, string>) => boolean = () => true): number {
  return all.filter((s) => (s.name === name || s.name === `${name}_total`) && where(s.labels)).reduce((sum, s) => sum + s.value, 0);
}

/** A histogram's _sum and _count, in milliseconds whatever the unit in its name. */
function histogram(all: Sample[], name: string): { count: number; sumMs: number } {
  const of = (suffix: string) => all.filter((s) => s.name.startsWith(name) && s.name.endsWith(suffix));
  const sumMs = of('_sum').reduce((sum, s) => sum + s.value * (s.name.includes('seconds') ? 1000 : 1), 0);
  return { count: of('_count').reduce((sum, s) => sum + s.value, 0), sumMs };
}

export function engineStats(text: string): EngineStats {
  const all = samples(text);
  const polls = (operation: RegExp) => counter(all, 'temporal_long_request', (l) => operation.test(l.operation ?? ''));
  const scheduleToStart = histogram(all, 'temporal_workflow_task_schedule_to_start_latency');
  return {
    workflowPolls: polls(/^PollWorkflowTaskQueue$/),
    workflowPollsEmpty: counter(all, 'temporal_workflow_task_queue_poll_empty'),
    activityPolls: polls(/^PollActivityTaskQueue$/),
    workflowTasks: scheduleToStart.count,
    scheduleToStartMs: scheduleToStart.sumMs,
    stickyHits: counter(all, 'temporal_sticky_cache_hit'),
    stickyMisses: counter(all, 'temporal_sticky_cache_miss'),
    pollers: all.filter((s) => s.name === 'temporal_num_pollers').reduce((sum, s) => sum + s.value, 0),
  };
}

/** One printed line: the SDK's view of a phase of `ops` operations (after − before). */
export function printEngineStats(label: string, before: EngineStats, after: EngineStats, ops: number): void {
  const d = (k: keyof EngineStats) => after[k] - before[k];
  const tasks = d('workflowTasks');
  console.log(
    `  ${label}: pollers ${after.pollers}   workflow task polls ${(d('workflowPolls') / ops).toFixed(1)} per operation (${d('workflowPollsEmpty')} empty in all)   activity polls ${(d('activityPolls') / ops).toFixed(1)}   workflow task schedule-to-start mean ${tasks > 0 ? (d('scheduleToStartMs') / tasks).toFixed(1) : '–'} ms over ${tasks}   sticky cache hits ${d('stickyHits')}, misses ${d('stickyMisses')}`,
  );
}

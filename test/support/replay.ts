import { Worker } from '@temporalio/worker';

type ReplayOptions = Parameters<typeof Worker.runReplayHistory>[0];
type History = Parameters<typeof Worker.runReplayHistory>[1];

/**
 * Replays a history against a workflow bundle, the one way tests do it: never in debug mode
 * (runReplayHistory's default), whose promise hooks stay installed in the jest worker process and
 * crash a later test file of that process in its WebCrypto or promise code (stack guide T3).
 */
export function replayHistory(code: string, history: History, extra: Partial<ReplayOptions> = {}): Promise<void> {
  return Worker.runReplayHistory({ workflowBundle: { code }, debugMode: false, ...extra } as ReplayOptions, history);
}

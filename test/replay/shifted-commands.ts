// A workflow interceptor for the replay test's negative check: every workflow, whatever its
// type, starts a one-second timer before its own code runs. Replaying any recorded history with
// it must fail as non-deterministic, which proves the replay test can catch an incompatible
// change, without keeping a hand-written incompatible copy of each workflow.
import { sleep, type WorkflowExecuteInput, type WorkflowInboundCallsInterceptor, type WorkflowInterceptorsFactory } from '@temporalio/workflow';

class TimerFirst implements WorkflowInboundCallsInterceptor {
  async execute(input: WorkflowExecuteInput, next: (input: WorkflowExecuteInput) => Promise<unknown>): Promise<unknown> {
    await sleep('1 second');
    return next(input);
  }
}

export const interceptors: WorkflowInterceptorsFactory = () => ({ inbound: [new TimerFirst()] });

/** What a schemathesis run did, read from its NDJSON event stream (`--report ndjson`). */
export interface FuzzSummary {
  /** HTTP requests made (one interaction each). */
  requests: number;
  serverErrors: number;
  /** 501 answers: features this version declares it does not implement (NOT_IMPLEMENTED). */
  notImplemented: number;
  /** One line per distinct failure: operation, check, and what it saw. */
  findings: string[];
}

interface Check {
  name: string;
  status: string;
  failure_info?: { failure?: { title?: string; message?: string } };
}

interface ScenarioFinished {
  recorder: {
    label: string;
    checks?: Record<string, Check[]>;
    interactions?: Record<string, { response?: { status_code: number } | null }>;
  };
}

export function summarizeRun(ndjson: string): FuzzSummary {
  let requests = 0;
  let serverErrors = 0;
  let notImplemented = 0;
  const findings = new Set<string>();
  for (const line of ndjson.split('\n')) {
    if (!line.startsWith('{"ScenarioFinished"')) continue;
    const { recorder } = (JSON.parse(line) as { ScenarioFinished: ScenarioFinished }).ScenarioFinished;
    const statusOf = (caseId: string) => recorder.interactions?.[caseId]?.response?.status_code ?? 0;
    for (const interaction of Object.values(recorder.interactions ?? {})) {
      requests++;
      const status = interaction.response?.status_code ?? 0;
      if (status === 501) notImplemented++;
      else if (status >= 500) serverErrors++;
    }
    for (const [caseId, checks] of Object.entries(recorder.checks ?? {})) {
      for (const check of checks) {
        if (check.status !== 'failure') continue;
        // A declared 501 is the documented answer of a feature this version leaves out, not a crash.
        if (check.name === 'not_a_server_error' && statusOf(caseId) === 501) continue;
        const failure = check.failure_info?.failure;
        findings.add(
          `${recorder.label}: ${check.name}: ${(failure?.title ?? '').slice(0, 120)} ${(failure?.message ?? '').split('\n')[0]!.slice(0, 200)}`.trim(),
        );
      }
    }
  }
  return { requests, serverErrors, notImplemented, findings: [...findings].sort() };
}

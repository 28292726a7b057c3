/** What a schemathesis run did, read from its NDJSON event stream (`--report ndjson`). */
export interface FuzzSummary {
  /** HTTP requests made (one interaction each). */
  requests: number;
  serverErrors: number;
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
  const findings = new Set<string>();
  for (const line of ndjson.split('\n')) {
    if (!line.startsWith('{"ScenarioFinished"')) continue;
    const { recorder } = (JSON.parse(line) as { ScenarioFinished: ScenarioFinished }).ScenarioFinished;
    for (const interaction of Object.values(recorder.interactions ?? {})) {
      requests++;
      if ((interaction.response?.status_code ?? 0) >= 500) serverErrors++;
    }
    for (const checks of Object.values(recorder.checks ?? {})) {
      for (const check of checks) {
        if (check.status !== 'failure') continue;
        const failure = check.failure_info?.failure;
        findings.add(`${recorder.label}: ${check.name}: ${(failure?.title ?? '').slice(0, 120)} ${(failure?.message ?? '').split('\n')[0]!.slice(0, 200)}`.trim());
      }
    }
  }
  return { requests, serverErrors, findings: [...findings].sort() };
}

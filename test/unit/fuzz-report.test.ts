import { summarizeRun } from '../proof/fuzz/report';

/** The fuzz run's verdict is read from schemathesis' NDJSON events: a parser that missed a failure would pass everything. */

const scenario = (label: string, cases: Record<string, { status: number; checks: { name: string; status: string; title?: string }[] }>) =>
  JSON.stringify({
    ScenarioFinished: {
      recorder: {
        label,
        interactions: Object.fromEntries(Object.entries(cases).map(([id, c]) => [id, { response: { status_code: c.status } }])),
        checks: Object.fromEntries(
          Object.entries(cases).map(([id, c]) => [
            id,
            c.checks.map((k) => ({ name: k.name, status: k.status, failure_info: { failure: { title: k.title ?? '', message: 'detail' } } })),
          ]),
        ),
      },
    },
  });

describe('fuzz report', () => {
  test('counts requests, server errors and each distinct finding; declared 501s apart', () => {
    const ndjson = [
      JSON.stringify({ Initialize: { seed: 1 } }),
      scenario('GET /customers', {
        a: { status: 200, checks: [{ name: 'not_a_server_error', status: 'success' }] },
        b: { status: 400, checks: [{ name: 'response_schema_conformance', status: 'failure', title: 'Response violates schema' }] },
      }),
      scenario('POST /quotes', { c: { status: 500, checks: [{ name: 'not_a_server_error', status: 'failure', title: 'Server error' }] } }),
      scenario('PATCH /config', { d: { status: 501, checks: [{ name: 'not_a_server_error', status: 'failure', title: 'Server error' }] } }),
      '',
    ].join('\n');
    const summary = summarizeRun(ndjson);
    expect(summary).toMatchObject({ requests: 4, serverErrors: 1, notImplemented: 1 });
    expect(summary.findings).toEqual([
      'GET /customers: response_schema_conformance: Response violates schema detail',
      'POST /quotes: not_a_server_error: Server error detail',
    ]);
  });

  test('a clean run has no findings', () => {
    expect(summarizeRun(scenario('GET /customers', { a: { status: 200, checks: [{ name: 'not_a_server_error', status: 'success' }] } }))).toEqual({
      requests: 1,
      serverErrors: 0,
      notImplemented: 0,
      findings: [],
    });
  });
});

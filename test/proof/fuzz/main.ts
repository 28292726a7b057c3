import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { WebhookReceiver } from '../../support/receiver';
import { Stack } from '../stack';
import { summarizeRun, type FuzzSummary } from './report';

/**
 * `npm run fuzz [-- --requests N --seed S]`: schemathesis against the service's own OpenAPI
 * document, with the sandbox credentials of a throw-away platform on a stack of its own (it
 * deletes and patches what it finds). Every operation, the stateful phase over the document's
 * links, and the checks for server errors, status codes, content types and response schemas.
 * Exits non-zero on any finding and prints where each one is.
 */

const { values: args } = parseArgs({
  options: {
    requests: { type: 'string', default: '2000' },
    seed: { type: 'string' },
    workers: { type: 'string', default: '2' },
  },
});

const CHECKS = ['not_a_server_error', 'status_code_conformance', 'content_type_conformance', 'response_schema_conformance'];
const seed = args.seed !== undefined ? Number(args.seed) : Math.floor(Math.random() * 2 ** 31);
const say = (m: string) => process.stderr.write(`[fuzz] ${m}\n`);

async function operationCount(baseUrl: string): Promise<number> {
  const document = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
  return Object.values(document.paths).reduce(
    (n, item) => n + Object.keys(item).filter((k) => ['get', 'post', 'put', 'patch', 'delete'].includes(k)).length,
    0,
  );
}

/** Runs schemathesis with `examples` per operation; the NDJSON report says how many requests that made. */
async function runSchemathesis(stack: Stack, authorization: string, examples: number, reportFile: string, maxSeconds: number): Promise<number> {
  const st = process.env.SCHEMATHESIS_PATH;
  if (!st) throw new Error('SCHEMATHESIS_PATH is not set (bin/fuzz sets it)');
  const argv = [
    'run',
    `${stack.baseUrl}/openapi.json`,
    '-H',
    `Authorization: ${authorization}`,
    '-c',
    CHECKS.join(','),
    '-n',
    String(examples),
    '-w',
    args.workers!,
    '--seed',
    String(seed),
    '--max-time',
    String(maxSeconds),
    // The coverage phase enumerates boundary cases without bound on a document this size; examples,
    // fuzzing and the stateful phase over the links spend the budget.
    '--phases',
    'examples,fuzzing,stateful',
    '--continue-on-failure',
    '--no-color',
    '--suppress-health-check',
    'all',
    '--report',
    'ndjson',
    '--report-ndjson-path',
    reportFile,
  ];
  const child = spawn(st, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => out.push(c));
  child.stderr.on('data', (c: Buffer) => out.push(c));
  const code = await new Promise<number>((done) => child.once('exit', (c) => done(c ?? 1)));
  const text = Buffer.concat(out).toString('utf8');
  process.stderr.write(text.split('\n').slice(-60).join('\n') + '\n');
  return code;
}

async function main(): Promise<number> {
  const budget = Number(args.requests);
  const receiver = await new WebhookReceiver().start();
  say(`seed ${seed}, budget ${budget} requests; starting a stack of its own`);
  const stack = await Stack.start({ name: 'fuzz', say });
  try {
    const { authorization } = await stack.sandboxPartner('fuzz', receiver.url);

    const operations = await operationCount(stack.baseUrl);
    const reportFile = join(stack.dir, 'schemathesis.ndjson');
    // Examples per operation from the budget: one example of an operation made about 12 requests
    // over the three phases (12,841 from 17 per operation). The stateful phase runs until its time
    // is up, so each round also gets a time budget, at a third of the ~30 requests a second
    // measured on two cores; rounds repeat until the budget of requests is spent.
    let examples = Math.max(1, Math.ceil(budget / operations / 10));
    const roundSeconds = Math.max(60, Math.ceil(budget / 10));
    let summary: FuzzSummary | undefined;
    for (let round = 0; round < 4; round++) {
      say(`${operations} operations, ${examples} examples each, at most ${roundSeconds} s (round ${round + 1})`);
      await runSchemathesis(stack, authorization, examples, reportFile, roundSeconds);
      const run = summarizeRun(readFileSync(reportFile, 'utf8'));
      summary = summary ? merge(summary, run) : run;
      if (summary.requests >= budget) break;
      examples = Math.ceil(examples * Math.max(1.5, budget / Math.max(1, summary.requests)));
    }
    if (!summary || !existsSync(reportFile)) throw new Error('schemathesis wrote no report');
    console.log(`\nFuzz: seed ${seed}, ${summary.requests} requests over ${operations} operations`);
    console.log(`  responses ≥ 500: ${summary.serverErrors} (and ${summary.notImplemented} declared 501 NOT_IMPLEMENTED answers)`);
    console.log(`  findings: ${summary.findings.length}`);
    for (const f of summary.findings.slice(0, 40)) console.log(`    ${f}`);
    const ok = summary.findings.length === 0 && summary.serverErrors === 0 && summary.requests >= budget;
    if (!ok) {
      console.log(
        `\nFUZZ FAILED${summary.requests < budget ? ` (only ${summary.requests} of ${budget} requests made)` : ''}. Replay with: npm run fuzz -- --seed ${seed} --requests ${budget}`,
      );
      return 1;
    }
    console.log(`\nfuzz passed (seed ${seed})`);
    return 0;
  } finally {
    await stack.stop();
    await receiver.stop();
  }
}

function merge(a: FuzzSummary, b: FuzzSummary): FuzzSummary {
  return {
    requests: a.requests + b.requests,
    serverErrors: a.serverErrors + b.serverErrors,
    notImplemented: a.notImplemented + b.notImplemented,
    findings: [...new Set([...a.findings, ...b.findings])],
  };
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    console.log(`\nFUZZ FAILED: the run itself broke (seed ${seed})`);
    process.exit(1);
  },
);

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  brokenLinks,
  commandProblems,
  documentOperations,
  endpointRows,
  githubSlug,
  headingAnchors,
  linkProblem,
  namedCommands,
  relativeLinks,
  repositoryReader,
  tablesWithoutCommand,
  type CommandContext,
  type OpenApiPaths,
} from '../support/docs-links';
import { serviceDocument } from '../support/service-document';

/**
 * The README and docs/ hold together: every relative link and anchor resolves, every command they name
 * exists, the tables of the measurement pages name the command that measured them, and the operation
 * list is the API's.
 */
const root = join(__dirname, '../..');
const docs = readdirSync(join(root, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => `docs/${name}`);
const pages = ['README.md', ...docs];

test('every relative link and #anchor of README.md and docs/*.md resolves', () => {
  expect(docs.length).toBeGreaterThan(10);
  expect(pages.flatMap((page) => relativeLinks(page, readFileSync(join(root, page), 'utf8'))).length).toBeGreaterThan(30);
  expect(brokenLinks(root, pages)).toEqual([]);
});

test('the README lists every docs page under "Where to read next"', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Where to read next'));
  expect(readme.split('\n').length).toBeLessThanOrEqual(400);
  expect(docs.filter((page) => !section.includes(`](${page})`))).toEqual([]);
});

/** The text of bin/, src/, worker/ and test/ (recorded histories aside): where the variables a command sets are read. */
function sourceText(): string {
  const texts: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(join(root, dir))) {
      const path = `${dir}/${name}`;
      if (path === 'test/histories') continue;
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else if (dir.startsWith('bin') || /\.(ts|tsx|js|mjs|cjs|sh)$/.test(name)) texts.push(readFileSync(join(root, path), 'utf8'));
    }
  };
  for (const dir of ['bin', 'src', 'worker', 'test']) walk(dir);
  return texts.join('\n');
}

test('every command the README and docs/*.md name exists: its npm script, its files and test paths, bench sections, options and variables', () => {
  const read = repositoryReader(root);
  const context: CommandContext = { scripts: JSON.parse(read('package.json')!).scripts, read, sources: sourceText() };
  const named = pages.flatMap((page) => namedCommands(page, read(page)!));
  expect(named.length).toBeGreaterThan(50);
  expect(named.flatMap((command) => commandProblems(command, context))).toEqual([]);
});

/** Pages whose every table holds measured figures: each names the command that measured it. */
const MEASUREMENT_PAGES = ['docs/performance.md', 'docs/testing.md'];

test('every table of the measurement pages names the command that measured it (issue 32: every figure names its command)', () => {
  for (const page of MEASUREMENT_PAGES) {
    const markdown = readFileSync(join(root, page), 'utf8');
    expect(markdown).toMatch(/^\|/m);
    expect(tablesWithoutCommand(page, markdown)).toEqual([]);
  }
});

test('docs/endpoints.md lists exactly the operations of openapi.json (npx tsx scripts/write-endpoints-doc.ts rewrites it)', () => {
  const listed = endpointRows(readFileSync(join(root, 'docs/endpoints.md'), 'utf8'));
  const served = documentOperations(serviceDocument().paths as OpenApiPaths);
  expect(served.length).toBeGreaterThan(80);
  expect(listed).toEqual(served);
});

describe('the link check itself', () => {
  const files: Record<string, string> = {
    'README.md': '# Service\n\n## Where to read next\n\nSee [payments](docs/payments.md#quotes-and-payouts) and [up](#service).\n',
    'docs/payments.md': '# Payments\n\n## Quotes and payouts\n\n### `npm run bench` (300 each)\n\n## Quotes and payouts\n',
    'src/config.ts': 'export {};\n',
  };
  const read = (path: string) => files[path];
  const problems = (file: string, markdown: string) => relativeLinks(file, markdown).flatMap((link) => linkProblem(link, read) ?? []);

  test('GitHub slugs: punctuation dropped, spaces to hyphens, repeats numbered', () => {
    expect(githubSlug('External accounts: where money goes')).toBe('external-accounts-where-money-goes');
    expect(githubSlug('The bench on the production engine (`npm run bench -- --topology cluster`)')).toBe(
      'the-bench-on-the-production-engine-npm-run-bench------topology-cluster',
    );
    expect([...headingAnchors(files['docs/payments.md']!)]).toEqual(['payments', 'quotes-and-payouts', 'npm-run-bench-300-each', 'quotes-and-payouts-1']);
  });

  test('links that resolve pass: a page, a page and its anchor, an anchor of the same page, a source file', () => {
    expect(problems('README.md', files['README.md']!)).toEqual([]);
    expect(problems('docs/payments.md', '[b](#quotes-and-payouts-1) [c](../src/config.ts) [d](../README.md#where-to-read-next)')).toEqual([]);
  });

  test('a link to a missing page, a missing anchor or a missing file fails, naming it', () => {
    expect(problems('README.md', 'see [gone](docs/payment.md#quotes-and-payouts)')).toEqual([
      'README.md:1: docs/payment.md#quotes-and-payouts: no file docs/payment.md',
    ]);
    expect(problems('README.md', 'see [moved](docs/payments.md#quotes)')).toEqual([
      'README.md:1: docs/payments.md#quotes: no heading of docs/payments.md makes #quotes',
    ]);
    expect(problems('docs/payments.md', 'see [here](#cards) and [code](src/config.ts)')).toEqual([
      'docs/payments.md:1: #cards: no heading of docs/payments.md makes #cards',
      'docs/payments.md:1: src/config.ts: no file docs/src/config.ts',
    ]);
  });

  test('links in code are not links, and neither are absolute URLs', () => {
    expect(problems('README.md', '```\n[x](nowhere.md)\n```\n`[y](nowhere.md)` [z](https://temporal.io/#nowhere)')).toEqual([]);
  });
});

describe('the command check itself', () => {
  const files: Record<string, string> = {
    'bin/bench': 'case "$1" in\n  --topology) TOPOLOGY="$2" ;;\nesac\n',
    'bin/chaos': 'exec node --import tsx test/proof/chaos/main.ts "$@"\n',
    'test/proof/chaos/main.ts': "parseArgs({\n  options: {\n    minutes: { type: 'string' },\n    'kills-each': { type: 'string' },\n  },\n});\n",
    'test/bench/funding.bench.ts': '',
    'test/api/quotes.test.ts': '',
    'test/unit': '',
    'scripts/write-endpoints-doc.ts': '',
    'test/proof/drills/capacity.ts': "parseArgs({\n  options: {\n    payouts: { type: 'string', default: '200' },\n  },\n});\n",
  };
  const context: CommandContext = {
    scripts: { bench: 'bash bin/bench', chaos: 'bash bin/chaos', test: 'bash bin/test', start: 'bash bin/up', drill: 'bash bin/drill' },
    read: (path) => files[path],
    sources: 'const only = process.env.BENCH_ONLY; TEST_CPU_LIST="${TEST_CPU_LIST:-}"',
  };
  const check = (markdown: string) => namedCommands('docs/x.md', markdown).flatMap((command) => commandProblems(command, context));

  test('commands in inline code are found, a span wrapped onto the next line as one, code blocks and other code left out', () => {
    expect(
      namedCommands('docs/x.md', 'Run `BENCH_ONLY=funding npm run\nbench -- --topology cluster` or `npm start`.\n\n```\nnpm run nothing\n```\n`GET /quotes`'),
    ).toEqual([
      { file: 'docs/x.md', line: 1, command: 'BENCH_ONLY=funding npm run bench -- --topology cluster' },
      { file: 'docs/x.md', line: 2, command: 'npm start' },
    ]);
  });

  test('commands that exist pass: scripts, bench sections, declared options, test paths, files, placeholders', () => {
    expect(
      check(
        '`BENCH_ONLY=funding npm run bench` `npm run bench -- --topology cluster` `npm run chaos -- --minutes 30 --kills-each 1`' +
          ' `npm run chaos [-- --minutes N]` `TEST_CPU_LIST=1 npm test -- test/api/quotes.test.ts` `npm test -- test/unit` `npm test -- <paths>`' +
          ' `npx tsx scripts/write-endpoints-doc.ts` `bin/chaos` `node dist/worker/main.js`',
      ),
    ).toEqual([]);
  });

  test('a missing script, bench section, option, variable or file fails, naming it', () => {
    expect(check('`npm run benchmark`')).toEqual(['docs/x.md:1: `npm run benchmark`: no npm script benchmark in package.json']);
    expect(check('`BENCH_ONLY=funding,payout npm run bench`')).toEqual([
      'docs/x.md:1: `BENCH_ONLY=funding,payout npm run bench`: no bench section payout (test/bench/payout.bench.ts)',
    ]);
    expect(check('`npm run chaos -- --kills 2`')).toEqual(['docs/x.md:1: `npm run chaos -- --kills 2`: npm run chaos takes no --kills']);
    expect(check('`TEST_CPU=1 npm test`')).toEqual(['docs/x.md:1: `TEST_CPU=1 npm test`: TEST_CPU is read nowhere in bin/, src/, worker/ or test/']);
    expect(check('`npm test -- test/api/quote.test.ts` `bin/fuzz`')).toEqual([
      'docs/x.md:1: `npm test -- test/api/quote.test.ts`: no file or folder test/api/quote.test.ts',
      'docs/x.md:1: `bin/fuzz`: no file bin/fuzz',
    ]);
  });

  test('a drill is a file of test/proof/drills/ and takes the options that file declares', () => {
    expect(check('`npm run drill -- capacity --payouts 40` `npm run drill -- <name>`')).toEqual([]);
    expect(check('`npm run drill -- restore`')).toEqual(['docs/x.md:1: `npm run drill -- restore`: no drill restore (test/proof/drills/<name>.ts)']);
    expect(check('`npm run drill -- capacity --minutes 5`')).toEqual([
      'docs/x.md:1: `npm run drill -- capacity --minutes 5`: the capacity drill takes no --minutes',
    ]);
  });

  test('a table of figures names its command in its header or the paragraph directly above it', () => {
    const table = '| run | rate |\n|---|---|\n| 1 | 8.3/s |\n';
    expect(tablesWithoutCommand('docs/x.md', `One run of \`npm run bench\`:\n\n${table}`)).toEqual([]);
    expect(tablesWithoutCommand('docs/x.md', `One run:\n\n| run | rate (\`npm run bench\`) |\n|---|---|\n| 1 | 8.3/s |\n`)).toEqual([]);
    expect(tablesWithoutCommand('docs/x.md', `Measured with \`npm run bench\`.\n\nOne run:\n\n${table}`)).toEqual([
      'docs/x.md:5: a table of figures names no command (in its header or the paragraph above it)',
    ]);
  });
});

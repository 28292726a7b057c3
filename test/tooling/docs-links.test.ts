import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  brokenLinks,
  documentOperations,
  endpointRows,
  githubSlug,
  headingAnchors,
  linkProblem,
  relativeLinks,
  type OpenApiPaths,
} from '../support/docs-links';
import { serviceDocument } from '../support/service-document';

/** The README and docs/ hold together: every relative link and anchor resolves, and the operation list is the API's. */
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

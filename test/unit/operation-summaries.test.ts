import { loadReferenceDocument } from '../support/reference-document';
import { serviceDocument } from '../support/service-document';

/**
 * Operation summaries are short names, as the reference's rendered sidebar shows them; what an
 * operation does in detail is its description. Where the reference has the same operation (method
 * and path), the summary is the reference's own, without its product name.
 */

const MAX_SUMMARY = 60;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const withoutProductName = (summary: string) => summary.replace(/\bGrid /g, '');

type Operation = { summary?: string; description?: string; operationId?: string };
const operationsOf = (paths: Record<string, Record<string, unknown>>) =>
  Object.entries(paths).flatMap(([path, item]) => METHODS.filter((m) => item[m]).map((m) => ({ key: `${m.toUpperCase()} ${path}`, op: item[m] as Operation })));

const ours = operationsOf(serviceDocument().paths as Record<string, Record<string, unknown>>);
const reference = new Map(operationsOf(loadReferenceDocument().paths).map(({ key, op }) => [key, op]));

test('the document has operations, many of them also in the reference', () => {
  expect(ours.length).toBeGreaterThan(80);
  expect(ours.filter(({ key }) => reference.has(key)).length).toBeGreaterThan(80);
});

test('every summary is a short name: at most 60 characters, capitalised, no trailing period, no "Sandbox:" prefix', () => {
  const long = ours.filter(
    ({ op }) => !op.summary || op.summary.length > MAX_SUMMARY || /[.;:]$/.test(op.summary) || !/^[A-Z]/.test(op.summary) || /^Sandbox:/.test(op.summary),
  );
  expect(long.map(({ key, op }) => `${key}: ${op.summary}`)).toEqual([]);
});

test("where the reference has the operation, the summary is the reference's", () => {
  const different = ours
    .filter(({ key }) => reference.get(key)?.summary)
    .filter(({ key, op }) => op.summary !== withoutProductName(reference.get(key)!.summary!))
    .map(({ key, op }) => `${key}: "${op.summary}" (reference: "${reference.get(key)!.summary}")`);
  expect(different).toEqual([]);
});

test('no two operations share a summary unless the reference names them alike', () => {
  const bySummary = new Map<string, string[]>();
  for (const { key, op } of ours) bySummary.set(op.summary!, [...(bySummary.get(op.summary!) ?? []), key]);
  const shared = [...bySummary.entries()].filter(
    ([summary, keys]) => keys.length > 1 && !keys.every((k) => withoutProductName(reference.get(k)?.summary ?? '') === summary),
  );
  expect(shared).toEqual([]);
});

test('the document says what the service offers: every area that has operations, and nothing as not built', () => {
  const description = (serviceDocument().info.description ?? '').toLowerCase();
  for (const area of [
    'customers',
    'internal accounts',
    'external accounts',
    'quotes',
    'payouts',
    'transactions',
    'exchange rates',
    'cards',
    'stablecoins',
    'webhooks',
    'invitations',
    'embedded-wallet authentication',
    'strong customer authentication',
    'agents',
  ])
    expect(description).toContain(area);
  expect(description).toContain('platform approval of transactions');
  expect(description).not.toContain('not built yet');
});

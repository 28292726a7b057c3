import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { Customer } from '../../src/contexts/customers/entities';
import { BASE, Harness } from '../support/harness';

// Issue 36, item 3: a JSON body with bytes that are not UTF-8, or an unpaired surrogate escape
// ("\ud800"), was accepted and stored with U+FFFD in place of what was sent.

let h: Harness;
let p: Awaited<ReturnType<Harness['platform']>>;
let server: Server;
beforeAll(async () => {
  h = await Harness.start();
  p = await h.platform();
  server = h.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await h.stop();
});

const customersOf = (platformId: string) => h.orm.em.fork().count(Customer, { platformId });
const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : Buffer.from(part))));
interface Answer {
  status: number;
  body: { code?: string; id?: string; fullName?: string; details?: { errors?: { field: string; constraint: { rule: string } }[] } };
}

/** These very bytes as the body (an HTTP client would re-encode a string, and supertest a Buffer). */
function post(path: string, body: Buffer, headers: Record<string, string> = {}): Promise<Answer> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `${BASE}${path}`,
        headers: { authorization: p.auth, 'content-type': 'application/json', ...headers, 'content-length': String(body.length) },
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(parts).toString('utf8')) as Answer['body'] }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
const fieldsOf = (res: Answer) => res.body.details?.errors?.map((e) => [e.field, e.constraint.rule]);

describe('bytes that are not UTF-8', () => {
  test.each([
    ['a byte that never starts UTF-8 (0xFF)', [0xff]],
    ['an overlong "/" (0xC0 0xAF)', [0xc0, 0xaf]],
    ['an encoded surrogate (0xED 0xA0 0x80)', [0xed, 0xa0, 0x80]],
    ['a sequence cut short (0xE2 0x82)', [0xe2, 0x82]],
    ['past U+10FFFF (0xF4 0x90 0x80 0x80)', [0xf4, 0x90, 0x80, 0x80]],
  ])('%s in a field: 400 INVALID_INPUT naming that field, nothing stored', async (_label, bad) => {
    const before = await customersOf(p.platform.id);
    const res = await post('/customers', bytes('{"customerType":"INDIVIDUAL","platformCustomerId":"utf8-bad","fullName":"Ada ', bad, ' Byte"}'));
    expect([res.status, res.body.code]).toEqual([400, 'INVALID_INPUT']);
    expect(fieldsOf(res)).toEqual([['fullName', 'encoding']]);
    expect(await customersOf(p.platform.id)).toBe(before);
  });

  test('every field holding such bytes is named, at its JSON path; gzip bodies and an explicit charset alike', async () => {
    const body = bytes(
      '{"customerType":"INDIVIDUAL","platformCustomerId":"utf8-',
      [0xff],
      '","fullName":"Ada","address":{"line1":"Rue ',
      [0xc3],
      '","city":"Paris","country":"FR","postalCode":"75001"}}',
    );
    const expected = [
      ['platformCustomerId', 'encoding'],
      ['address.line1', 'encoding'],
    ];
    const plain = await post('/customers', body, { 'Content-Type': 'application/json; charset=UTF-8' });
    expect([plain.status, fieldsOf(plain)]).toEqual([400, expected]);
    const zipped = await post('/customers', gzipSync(body), { 'Content-Encoding': 'gzip' });
    expect([zipped.status, fieldsOf(zipped)]).toEqual([400, expected]);
  });

  test('outside any string the body is not JSON: 400 on body', async () => {
    const res = await post('/customers', bytes('{"customerType":"INDIVIDUAL",', [0xff], '}'));
    expect([res.status, fieldsOf(res)]).toEqual([400, [['body', 'encoding']]]);
  });

  test('on an idempotent money route too, before the route reads the body', async () => {
    const res = await post('/quotes', bytes('{"lockedCurrencySide":"SENDING","description":"', [0xfe], '"}'), { 'Idempotency-Key': 'utf8-quote' });
    expect([res.status, fieldsOf(res)]).toEqual([400, [['description', 'encoding']]]);
  });
});

describe('unpaired surrogate escapes', () => {
  test.each([
    ['a lone high surrogate', '"Ada \\ud800"', 'fullName'],
    ['a lone low surrogate', '"\\udc00 Ada"', 'fullName'],
    ['a high surrogate followed by another', '"\\ud800\\ud800"', 'fullName'],
  ])('%s: 400 INVALID_INPUT naming the field, nothing stored', async (_label, fullName, field) => {
    const before = await customersOf(p.platform.id);
    const res = await post('/customers', bytes(`{"customerType":"INDIVIDUAL","platformCustomerId":"surrogate","fullName":${fullName}}`));
    expect([res.status, res.body.code, fieldsOf(res)]).toEqual([400, 'INVALID_INPUT', [[field, 'encoding']]]);
    expect(await customersOf(p.platform.id)).toBe(before);
  });

  test('in a nested field, an array item and a key', async () => {
    const res = await post(
      '/customers',
      bytes('{"customerType":"INDIVIDUAL","fullName":"Ada","address":{"line1":"\\udfff"},"list":["ok","\\ud801"],"k\\ud802":1}'),
    );
    expect(res.status).toBe(400);
    expect(fieldsOf(res)).toEqual(
      expect.arrayContaining([
        ['address.line1', 'encoding'],
        ['list.1', 'encoding'],
        ['k\ufffd', 'encoding'],
      ]),
    );
    expect(fieldsOf(res)).toHaveLength(3);
  });
});

test('Unicode text is stored as sent: a pair escape, an emoji, a real U+FFFD, accents', async () => {
  const res = await post('/customers', bytes('{"customerType":"INDIVIDUAL","platformCustomerId":"utf8-ok","fullName":"Zoë \\ud83d\\ude00 😀 \uFFFD Ünï"}'));
  expect(res.status).toBe(201);
  expect(res.body.fullName).toBe('Zoë 😀 😀 \uFFFD Ünï');
  const stored = await h.orm.em.fork().findOneOrFail(Customer, { id: res.body.id! });
  expect(stored.fullName).toBe('Zoë 😀 😀 \uFFFD Ünï');
});

import request from 'supertest';
import { BASE, Harness } from '../support/harness';

// Issue 36, item 1: a path parameter that is not percent-encoded UTF-8 made the router throw
// "Failed to decode param", which nothing mapped: every route with a parameter answered 500.

let h: Harness;
let p: Awaited<ReturnType<Harness['platform']>>;
beforeAll(async () => {
  h = await Harness.start();
  p = await h.platform();
});
afterAll(async () => {
  await h.stop();
});

const send = (method: 'get' | 'post' | 'patch' | 'delete', path: string, authorization?: string) => {
  const r = request(h.app)[method](`${BASE}${path}`);
  return authorization ? r.set('Authorization', authorization) : r;
};

/** Escapes no decoder accepts: not hex, cut short, overlong forms, a lone surrogate, a byte that never starts UTF-8. */
const MALFORMED = ['%FF', '%ZZ', '%', '%F', 'Customer:%C0%AF', '%E0%80%80', '%ED%A0%80'];

const ROUTES: { method: 'get' | 'post' | 'patch' | 'delete'; path: (bad: string) => string; param: string }[] = [
  { method: 'get', path: (bad) => `/customers/${bad}`, param: 'customerId' },
  { method: 'delete', path: (bad) => `/customers/${bad}`, param: 'customerId' },
  { method: 'patch', path: (bad) => `/customers/${bad}`, param: 'customerId' },
  { method: 'get', path: (bad) => `/transactions/${bad}`, param: 'transactionId' },
  { method: 'post', path: (bad) => `/transactions/${bad}/cancel`, param: 'transactionId' },
  { method: 'post', path: (bad) => `/quotes/${bad}/execute`, param: 'quoteId' },
  { method: 'get', path: (bad) => `/cards/${bad}`, param: 'cardId' },
  { method: 'get', path: (bad) => `/customers/bulk/jobs/${bad}`, param: 'jobId' },
  { method: 'get', path: (bad) => `/stablecoins/${bad}/operations`, param: 'stablecoinId' },
  { method: 'post', path: (bad) => `/invitations/${bad}/claim`, param: 'invitationCode' },
  { method: 'get', path: (bad) => `/internal-accounts/${bad}/export`, param: 'id' },
];

describe('a path parameter that is not percent-encoded UTF-8', () => {
  test.each(ROUTES.map((route) => [`${route.method.toUpperCase()} ${route.path('{}')}`, route] as const))(
    '%s: 400 INVALID_INPUT naming the parameter, for every malformed escape',
    async (_name, route) => {
      const answers: string[] = [];
      for (const bad of MALFORMED) {
        const res = await send(route.method, route.path(bad), p.auth).set('Idempotency-Key', `escape-${bad}`).send({});
        answers.push(`${bad}: ${res.status} ${res.body.code} ${JSON.stringify(res.body.details?.errors?.map((e: { field: string }) => e.field))}`);
      }
      expect(answers).toEqual(MALFORMED.map((bad) => `${bad}: 400 INVALID_INPUT ${JSON.stringify([route.param])}`));
    },
  );

  test('every undecodable parameter of the path is named, with the §7 body', async () => {
    const res = await send('post', '/agents/%FF/actions/%ZZ/approve', p.auth).send({});
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      details: { errors: [expect.objectContaining({ field: 'agentId', constraint: { rule: 'encoding' } }), expect.objectContaining({ field: 'actionId' })] },
    });
    expect(res.body.message).toBe(res.body.reason);
  });

  test('credentials are still checked first: without them it is 401', async () => {
    const res = await send('get', '/customers/%FF');
    expect([res.status, res.body.code]).toEqual([401, 'UNAUTHORIZED']);
  });

  test('a well-formed escape still decodes: Customer%3A… is an unknown customer, 404 USER_NOT_FOUND', async () => {
    const res = await send('get', '/customers/Customer%3A00000000-0000-4000-8000-000000000000', p.auth);
    expect([res.status, res.body.code]).toEqual([404, 'USER_NOT_FOUND']);
  });
});

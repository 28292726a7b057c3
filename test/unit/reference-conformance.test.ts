import { ReferenceConformance, type Difference } from '../support/reference-conformance';
import { prepareReferenceDocument } from '../support/reference-document';
import { deviationFor, type Deviation } from '../support/reference-deviations';

/** A small OpenAPI 3.x document with each construct the validator must understand. */
const openApi = {
  paths: {
    '/accounts': {
      post: { responses: { '201': json('Account'), '400': json('Error') } },
    },
    '/accounts/{accountId}': {
      get: { responses: { '200': json('Account'), '404': json('Error'), '204': { description: 'no body' } } },
    },
    '/accounts/export': {
      get: { responses: { '200': { description: 'a file', content: { 'text/csv': { schema: { type: 'string' } } } } } },
    },
  },
  components: {
    schemas: {
      Account: {
        allOf: [
          {
            type: 'object',
            required: ['id', 'status', 'balance', 'info', 'secret'],
            properties: {
              id: { type: 'string' },
              status: { type: 'string', enum: ['ACTIVE', 'GRID_FROZEN'] },
              balance: { type: 'integer', format: 'int64' },
              nickname: { type: 'string', nullable: true },
              gridFee: { type: 'integer' },
              secret: { type: 'string', writeOnly: true },
              createdAt: { type: 'string', format: 'date-time' },
            },
          },
          { type: 'object', required: ['info'], properties: { info: { $ref: '#/components/schemas/Info' } } },
        ],
      },
      Info: {
        oneOf: [{ $ref: '#/components/schemas/BankInfo' }, { $ref: '#/components/schemas/WalletInfo' }],
        discriminator: { propertyName: 'accountType', mapping: { BANK: '#/components/schemas/BankInfo', WALLET: '#/components/schemas/WalletInfo' } },
      },
      BankInfo: {
        type: 'object',
        required: ['accountType', 'iban'],
        properties: { accountType: { type: 'string', enum: ['BANK'] }, iban: { type: 'string' } },
      },
      WalletInfo: {
        type: 'object',
        required: ['accountType', 'address'],
        properties: { accountType: { type: 'string', enum: ['WALLET'] }, address: { type: 'string' } },
      },
      Error: {
        type: 'object',
        required: ['code', 'message'],
        properties: { code: { type: 'string', enum: ['INVALID_INPUT', 'NOT_FOUND'] }, message: { type: 'string' } },
      },
    },
  },
};

function json(schema: string) {
  return { description: schema, content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } } };
}

const conformance = new ReferenceConformance(prepareReferenceDocument(structuredClone(openApi) as never), '/v1/2025-10-13');

const account = {
  id: 'Account:1',
  status: 'ACTIVE',
  balance: 12_500,
  info: { accountType: 'BANK', iban: 'DE89370400440532013000' },
  createdAt: '2025-10-13T12:00:00.000Z',
};

function differencesOf(
  body: unknown,
  { method = 'GET', path = '/v1/2025-10-13/accounts/Account:1', status = 200, contentType = 'application/json' } = {},
): Difference[] {
  const verdict = conformance.check({ method, path, status, contentType, body });
  if (verdict.outcome !== 'checked') throw new Error(`not checked: ${verdict.reason}`);
  return verdict.differences;
}

describe('the reference validator', () => {
  test('accepts a conforming body, with allOf, a discriminated branch and an absent writeOnly field', () => {
    expect(differencesOf(account)).toEqual([]);
    expect(differencesOf({ ...account, nickname: null })).toEqual([]);
    expect(differencesOf({ ...account, info: { accountType: 'WALLET', address: 'bc1q' } })).toEqual([]);
  });

  test('catches a missing required field, naming it and the rule', () => {
    const { id: _id, ...withoutId } = account;
    expect(differencesOf(withoutId)).toEqual([
      expect.objectContaining({
        operation: 'GET /accounts/{accountId}',
        status: 200,
        kind: 'schema',
        schemaPath: '#/components/schemas/Account/allOf/0/required',
        instancePath: '',
        value: 'id',
      }),
    ]);
  });

  test('catches a wrong enum value', () => {
    expect(differencesOf({ ...account, status: 'CLOSED' })).toEqual([
      expect.objectContaining({ schemaPath: '#/components/schemas/Account/allOf/0/properties/status/enum', instancePath: '/status', value: 'CLOSED' }),
    ]);
  });

  test('catches a wrong type: an amount as a string where the reference has an int64 integer', () => {
    expect(differencesOf({ ...account, balance: '12500' })).toEqual([
      expect.objectContaining({ schemaPath: '#/components/schemas/Account/allOf/0/properties/balance/type', instancePath: '/balance', value: '12500' }),
    ]);
    expect(differencesOf({ ...account, balance: 125.5 }).map((d) => d.instancePath)).toContain('/balance');
    expect(differencesOf({ ...account, createdAt: 'yesterday' }).map((d) => d.schemaPath)).toEqual([
      '#/components/schemas/Account/allOf/0/properties/createdAt/format',
    ]);
  });

  test('a discriminated union is checked against the branch its value names; an unknown value is one difference', () => {
    expect(differencesOf({ ...account, info: { accountType: 'WALLET', iban: 'DE89370400440532013000' } })).toEqual([
      expect.objectContaining({ schemaPath: '#/components/schemas/WalletInfo/required', instancePath: '/info', value: 'address' }),
    ]);
    expect(differencesOf({ ...account, info: { accountType: 'CARD' } })).toEqual([
      expect.objectContaining({ schemaPath: '#/components/schemas/Info/discriminator/enum', instancePath: '/info/accountType', value: 'CARD' }),
    ]);
  });

  test('null is refused unless the reference says nullable', () => {
    expect(differencesOf({ ...account, id: null }).map((d) => d.instancePath)).toEqual(['/id']);
  });

  test('the spec names stand for the reference names: SVC_ for GRID_, svc… for grid… fields', () => {
    expect(differencesOf({ ...account, status: 'SVC_FROZEN', svcFee: 3 })).toEqual([]);
    expect(differencesOf({ ...account, status: 'GRID_FROZEN' }).map((d) => d.value)).toEqual(['GRID_FROZEN']);
    expect(differencesOf({ ...account, svcFee: 'three' }).map((d) => d.instancePath)).toEqual(['/svcFee']);
  });

  test('a status the operation does not declare is a difference', () => {
    expect(differencesOf({ code: 'CONFLICT', message: 'x' }, { status: 409 })).toEqual([
      expect.objectContaining({ kind: 'status', status: 409, schemaPath: '#/paths/~1accounts~1{accountId}/get/responses/409' }),
    ]);
  });

  test('bodies are checked per status and content type', () => {
    expect(differencesOf({ code: 'NOT_FOUND', message: 'no such account' }, { status: 404 })).toEqual([]);
    expect(differencesOf({ code: 'NOT_FOUND' }, { status: 404 }).map((d) => d.value)).toEqual(['message']);
    expect(conformance.check({ method: 'GET', path: '/v1/2025-10-13/accounts/Account:1', status: 204, body: {} })).toEqual({
      outcome: 'checked',
      operation: 'GET /accounts/{accountId}',
      differences: [],
    });
    expect(differencesOf({ id: 'x' }, { status: 204 })).toEqual([expect.objectContaining({ kind: 'content-type' })]);
    expect(differencesOf('<html>', { status: 200, contentType: 'text/html' })).toEqual([expect.objectContaining({ kind: 'content-type' })]);
    expect(differencesOf('a,b', { path: '/v1/2025-10-13/accounts/export', contentType: 'text/csv; charset=utf-8' })).toEqual([]);
  });

  test('paths: below the base path, literal segments before templates, the query string ignored; others are skipped', () => {
    expect(conformance.operationFor('GET', '/v1/2025-10-13/accounts/export?x=1')?.template).toBe('/accounts/export');
    expect(conformance.operationFor('GET', '/v1/2025-10-13/accounts/Account:1')?.template).toBe('/accounts/{accountId}');
    expect(conformance.operationFor('POST', '/v1/2025-10-13/accounts')?.template).toBe('/accounts');
    expect(conformance.operationFor('GET', '/2025-10-13/accounts/Account:1')).toBeUndefined();
    expect(conformance.check({ method: 'DELETE', path: '/v1/2025-10-13/accounts/Account:1', status: 405, body: {} })).toEqual({
      outcome: 'skipped',
      reason: expect.stringContaining('not in the reference'),
    });
    expect(conformance.check({ method: 'GET', path: '/v1/2025-10-13/sandbox/helper', status: 200, body: {} }).outcome).toBe('skipped');
  });
});

describe('the public reference itself', () => {
  const reference = ReferenceConformance.load('/2025-10-13');

  test('an error body needs the reference’s message as well as the spec’s reason', () => {
    const check = (body: unknown) =>
      reference.check({ method: 'GET', path: '/2025-10-13/customers/Customer:1', status: 404, contentType: 'application/json', body });
    expect(check({ status: 404, code: 'USER_NOT_FOUND', reason: 'No such customer', message: 'No such customer' })).toEqual({
      outcome: 'checked',
      operation: 'GET /customers/{customerId}',
      differences: [],
    });
    expect(check({ status: 404, code: 'USER_NOT_FOUND', reason: 'No such customer' })).toMatchObject({
      differences: [{ schemaPath: '#/components/schemas/Error404/required', value: 'message' }],
    });
  });

  test('external account variants are told apart by accountType', () => {
    const listed = (accountInfo: unknown) =>
      reference.check({
        method: 'GET',
        path: '/2025-10-13/customers/external-accounts',
        status: 200,
        contentType: 'application/json',
        body: { data: [{ id: 'ExternalAccount:1', status: 'ACTIVE', currency: 'EUR', accountInfo }], hasMore: false },
      });
    const iban = {
      accountType: 'EUR_ACCOUNT',
      iban: 'DE89370400440532013000',
      paymentRails: ['SEPA'],
      beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Jane Doe', countryOfResidence: 'DE' },
    };
    expect(listed(iban)).toMatchObject({ differences: [] });
    expect(listed({ ...iban, iban: undefined })).toMatchObject({
      differences: [expect.objectContaining({ instancePath: '/data/0/accountInfo', value: 'iban' })],
    });
    expect(listed({ ...iban, paymentRails: ['ACH'] })).toMatchObject({
      differences: [expect.objectContaining({ instancePath: '/data/0/accountInfo/paymentRails/0', value: 'ACH' })],
    });
  });
});

describe('the allow-list of deliberate deviations', () => {
  const difference: Difference = {
    operation: 'GET /documents/{documentId}',
    status: 404,
    kind: 'schema',
    schemaPath: '#/components/schemas/Error404/properties/code/enum',
    instancePath: '/code',
    message: '',
    value: 'NOT_FOUND',
  };
  const deviations: Deviation[] = [
    { operation: ['* /documents/{documentId}'], status: 404, schemaPath: '#/components/schemas/Error404/*', values: ['NOT_FOUND'], reason: 'no code fits' },
  ];

  test('matches operation and schema path patterns, status and value', () => {
    expect(deviationFor(difference, deviations)?.reason).toBe('no code fits');
    expect(deviationFor({ ...difference, operation: 'DELETE /documents/{documentId}' }, deviations)).toBeDefined();
  });

  test('anything else is not covered: another value, status, operation or rule', () => {
    expect(deviationFor({ ...difference, value: 'DOCUMENT_GONE' }, deviations)).toBeUndefined();
    expect(deviationFor({ ...difference, status: 410 }, deviations)).toBeUndefined();
    expect(deviationFor({ ...difference, operation: 'GET /customers/{customerId}' }, deviations)).toBeUndefined();
    expect(deviationFor({ ...difference, schemaPath: '#/components/schemas/Error409/properties/code/enum' }, deviations)).toBeUndefined();
  });
});

import request from 'supertest';
import { BulkImportJob, BulkImportRow, Customer } from '../../src/contexts/customers/entities';
import { MAX_CSV_BYTES, MAX_CSV_ROWS } from '../../src/contexts/customers/domain/bulk-import';
import { derivedId } from '../../src/domain/ids';
import { IdempotencyRecord } from '../../src/db/IdempotencyRecord';
import { eventually } from '../support/eventually';
import { createBulkImportJob } from '../../src/contexts/customers/services/bulk-import';
import { strandedBulkImports } from '../../src/contexts/customers/services/stranded-bulk-imports';
import { startStrandedOf } from '../../src/temporal/start-stranded';
import { parseCsv } from '../../src/contexts/customers/domain/bulk-import';
import { BASE, Harness } from '../support/harness';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

type Platform = Awaited<ReturnType<Harness['platform']>>;
type Job = {
  id: string;
  status: string;
  progress: { total: number; processed: number; successful: number; failed: number };
  errors: { correlationId: string; code: string; message: string; details?: Record<string, unknown> }[];
  completedAt?: string;
};

const HEADER =
  'umaAddress,platformCustomerId,customerType,fullName,birthDate,addressLine1,addressLine2,city,state,postalCode,country,email,businessLegalName,businessTaxId,businessIncorporatedOn';

/** A CSV line from cells; a cell with a comma or a quote is quoted. */
const line = (...cells: string[]) => cells.map((c) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(',');
const person = (id: string, over: { name?: string; birth?: string; email?: string; uma?: string } = {}) =>
  line(
    over.uma ?? `${id}@uma.example.com`,
    id,
    'INDIVIDUAL',
    over.name ?? `Person ${id}`,
    over.birth ?? '1990-01-15',
    '1 Main St',
    '',
    'Austin',
    'TX',
    '78701',
    'US',
    over.email ?? '',
    '',
    '',
    '',
  );
const business = (id: string, over: { taxId?: string; incorporatedOn?: string } = {}) =>
  line(
    `$${id}@uma.example.com`,
    id,
    'BUSINESS',
    '',
    '',
    '400 Commerce Way',
    'Suite 5',
    'Austin',
    'TX',
    '78701',
    'US',
    '',
    `${id} Holdings, Inc.`,
    over.taxId ?? '12-3456789',
    over.incorporatedOn ?? '2018-03-14',
  );
const csv = (...lines: string[]) => Buffer.from([HEADER, ...lines].join('\r\n') + '\r\n');

/** Rows are written on `uma.example.com`; a platform's customers' addresses are on its own domain, so they move there. */
const onDomainOf = (p: Platform, bytes: Buffer) => Buffer.from(bytes.toString('utf8').replaceAll('@uma.example.com', `@${p.umaDomain}`));

/** The upload, through the reference check like every other call of the harness. */
function upload(p: Platform, bytes: Buffer | null, name = 'customers.csv', idempotencyKey?: string) {
  const r = p.api.post('/customers/bulk/csv');
  if (idempotencyKey) r.set('Idempotency-Key', idempotencyKey);
  return bytes === null ? r.field('note', 'no file') : r.attach('file', onDomainOf(p, bytes), { filename: name, contentType: 'text/csv' });
}

async function finished(p: Platform, jobId: string): Promise<Job> {
  const res = await eventually(
    () => p.api.get(`/customers/bulk/jobs/${jobId}`),
    (r) => r.status !== 200 || r.body.status === 'COMPLETED' || r.body.status === 'FAILED',
    60_000,
  );
  expect(res.status).toBe(200);
  return res.body as Job;
}

const jobsOf = (platformId: string) => h.orm.em.fork().count(BulkImportJob, { platformId });
const customersOf = (platformId: string) => h.orm.em.fork().find(Customer, { platformId }, { orderBy: { platformCustomerId: 'asc' } });

describe('POST /customers/bulk/csv and GET /customers/bulk/jobs/{jobId}', () => {
  test('good rows are created once through the POST /customers rules; bad rows are reported by row; the job ends COMPLETED with its webhook', async () => {
    const p = await h.platform();
    const file = csv(
      person('ind-1', { email: 'ind1@example.com' }),
      person('ind-2', { uma: '$ind-2@uma.example.com' }),
      person('bad-birth', { birth: '1990-02-30' }),
      person('bad-email', { email: 'not-an-email' }),
      line('x@uma.example.com', 'no-name', 'INDIVIDUAL', '', '1990-01-15', '1 Main St', '', 'Austin', 'TX', '78701', 'US', '', '', '', ''),
      person('ind-1', { uma: 'other@uma.example.com' }), // the platformCustomerId of row 1 again
      line('short@uma.example.com', 'short', 'INDIVIDUAL'), // too few cells
      line('robot@uma.example.com', 'robot', 'ROBOT', 'R', '1990-01-15', '1 Main St', '', 'Austin', 'TX', '78701', 'US', '', '', '', ''),
      business('biz-1'),
      business('biz-bad', { taxId: '123', incorporatedOn: '' }),
      person('quoted, name', { name: 'Jane "JJ" Doe, Jr.', uma: 'jane.doe@uma.example.com' }),
    );
    const accepted = await upload(p, file);
    expect(accepted.status).toBe(202);
    expect(accepted.body).toEqual({ jobId: expect.stringMatching(/^Job:[0-9a-f-]{36}$/), status: 'PENDING' });
    const jobId = accepted.body.jobId as string;

    const job = await finished(p, jobId);
    expect(job.status).toBe('COMPLETED');
    expect(job.progress).toEqual({ total: 11, processed: 11, successful: 4, failed: 7 });
    expect(job.completedAt).toEqual(expect.any(String));
    const byRow = Object.fromEntries(job.errors.map((e) => [e.correlationId, e]));
    expect(Object.keys(byRow)).toEqual(['row_3', 'row_4', 'row_5', 'row_6', 'row_7', 'row_8', 'row_10']);
    const fields = (row: string) => ((byRow[row]!.details?.errors ?? []) as { field: string }[]).map((e) => e.field).sort();
    expect(byRow.row_3).toMatchObject({ code: 'INVALID_INPUT', details: { row: 3, platformCustomerId: 'bad-birth' } });
    expect(fields('row_3')).toEqual(['birthDate']);
    expect(fields('row_4')).toEqual(['email']);
    expect(fields('row_5')).toEqual(['fullName']);
    expect(byRow.row_6).toMatchObject({ code: 'CONFLICT', details: { row: 6, platformCustomerId: 'ind-1' } });
    expect(byRow.row_7).toMatchObject({ code: 'INVALID_INPUT', details: { errors: [{ field: 'row', constraint: { rule: 'columnCount' } }] } });
    expect(fields('row_8')).toEqual(['customerType']);
    // Every invalid column of the row at once, named as the CSV names it.
    expect(fields('row_10')).toEqual(['businessIncorporatedOn', 'businessTaxId']);

    // Exactly the good rows exist, once each, with the ids derived from the job and their rows.
    const customers = await customersOf(p.platform.id);
    expect(customers.map((c) => c.platformCustomerId)).toEqual(['biz-1', 'ind-1', 'ind-2', 'quoted, name']);
    expect(customers.find((c) => c.platformCustomerId === 'ind-1')).toMatchObject({
      id: derivedId('Customer', jobId, '1'),
      umaAddress: `$ind-1@${p.umaDomain}`,
      email: 'ind1@example.com',
      kycStatus: 'APPROVED',
    });
    expect(customers.find((c) => c.platformCustomerId === 'quoted, name')!.fullName).toBe('Jane "JJ" Doe, Jr.');
    expect(customers.find((c) => c.platformCustomerId === 'biz-1')).toMatchObject({
      customerType: 'BUSINESS',
      kycStatus: 'UNVERIFIED',
      address: { line1: '400 Commerce Way', line2: 'Suite 5', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' },
    });
    const created = await p.api.get(`/customers/${derivedId('Customer', jobId, '2')}`);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ platformCustomerId: 'ind-2', fullName: 'Person ind-2', birthDate: '1990-01-15' });

    // The webhook: the job as GET returns it; and each approved individual announced as POST /customers does.
    await h.receiver.waitFor((hooks) => hooks.some((w) => w.body.type === 'BULK_UPLOAD.COMPLETED' && (w.body.data as { id: string }).id === jobId));
    const hook = h.receiver.received.find((w) => w.body.type === 'BULK_UPLOAD.COMPLETED' && (w.body.data as { id: string }).id === jobId)!;
    expect(hook.body.data).toEqual(job);
    const approved = new Set(customers.filter((c) => c.kycStatus === 'APPROVED').map((c) => c.id));
    await h.receiver.waitFor((hooks) =>
      [...approved].every((id) => hooks.some((w) => w.body.type === 'CUSTOMER.KYC_APPROVED' && (w.body.data as { id: string }).id === id)),
    );
    expect(h.receiver.received.filter((w) => w.body.type === 'CUSTOMER.KYC_APPROVED' && approved.has((w.body.data as { id: string }).id)).length).toBe(
      approved.size,
    );
  }, 90_000);

  test('a job recorded but never started (the API died in between) is started by the sweep, once', async () => {
    const p = await h.platform();
    const parsed = parseCsv(onDomainOf(p, csv(person('swept-1'), person('swept-2'))).toString('utf8'));
    if ('problem' in parsed) throw new Error(parsed.problem);
    const { job } = await createBulkImportJob(h.orm.em.fork(), { platformId: p.platform.id, environment: 'SANDBOX', csv: parsed });
    expect(await startStrandedOf(h.orm, h.temporal, strandedBulkImports, { graceMs: 60_000, taskQueue: h.taskQueue, platformId: p.platform.id })).not.toContain(
      job.id,
    );
    expect(await startStrandedOf(h.orm, h.temporal, strandedBulkImports, { graceMs: -10_000, taskQueue: h.taskQueue, platformId: p.platform.id })).toContain(
      job.id,
    );
    const done = await finished(p, job.id);
    expect(done).toMatchObject({ status: 'COMPLETED', progress: { total: 2, successful: 2, failed: 0 } });
    // A second sweep finds nothing pending, and a forced start of the finished job is refused by the server.
    expect(
      await startStrandedOf(h.orm, h.temporal, strandedBulkImports, { graceMs: -10_000, taskQueue: h.taskQueue, platformId: p.platform.id }),
    ).not.toContain(job.id);
    expect((await customersOf(p.platform.id)).map((c) => c.platformCustomerId)).toEqual(['swept-1', 'swept-2']);
  });

  test('a file in which no row can be created ends FAILED with BULK_UPLOAD.FAILED', async () => {
    const p = await h.platform();
    const accepted = await upload(p, csv(person('a', { birth: 'yesterday' }), person('b', { email: '@' })));
    expect(accepted.status).toBe(202);
    const job = await finished(p, accepted.body.jobId as string);
    expect(job).toMatchObject({ status: 'FAILED', progress: { total: 2, processed: 2, successful: 0, failed: 2 } });
    expect(job.errors.map((e) => e.correlationId)).toEqual(['row_1', 'row_2']);
    await h.receiver.waitFor((hooks) => hooks.some((w) => w.body.type === 'BULK_UPLOAD.FAILED' && (w.body.data as { id: string }).id === job.id));
    expect(await customersOf(p.platform.id)).toEqual([]);
  }, 60_000);

  test('the reference example (UMA addresses without $, only the required columns of each type) is accepted', async () => {
    const p = await h.platform();
    // Its addresses are on uma.domain.com: accepted for the platform that holds that domain.
    await p.api.patch('/config', { umaDomain: 'uma.domain.com' }).expect(200);
    const file = Buffer.from(
      [
        'umaAddress,platformCustomerId,customerType,fullName,birthDate,addressLine1,city,state,postalCode,country,platformAccountId,businessLegalName',
        'john.doe@uma.domain.com,customer123,INDIVIDUAL,John Doe,1990-01-15,123 Main St,San Francisco,CA,94105,US,acct-1,',
      ].join('\n'),
    );
    const accepted = await upload(p, file);
    expect(accepted.status).toBe(202);
    const job = await finished(p, accepted.body.jobId as string);
    expect(job).toMatchObject({ status: 'COMPLETED', progress: { total: 1, successful: 1, failed: 0 }, errors: [] });
    expect((await customersOf(p.platform.id)).map((c) => c.umaAddress)).toEqual(['$john.doe@uma.domain.com']);
  }, 60_000);

  test("a row whose UMA address is on another platform's domain fails on umaAddress, as POST /customers does; the others are created", async () => {
    const owner = await h.platform();
    const p = await h.platform();
    const foreign = `alice-${Date.now()}.example`;
    await owner.api.patch('/config', { umaDomain: foreign }).expect(200);
    const accepted = await upload(p, csv(person('own'), person('ceo', { uma: `$ceo@${foreign}` })));
    const job = await finished(p, accepted.body.jobId as string);
    expect(job).toMatchObject({ status: 'COMPLETED', progress: { total: 2, successful: 1, failed: 1 } });
    expect(job.errors).toEqual([
      expect.objectContaining({
        correlationId: 'row_2',
        code: 'INVALID_INPUT',
        details: expect.objectContaining({
          errors: [expect.objectContaining({ field: 'umaAddress', constraint: expect.objectContaining({ rule: 'domain' }) })],
        }),
      }),
    ]);
    expect((await customersOf(p.platform.id)).map((c) => c.platformCustomerId)).toEqual(['own']);
  }, 60_000);
});

describe('uploads with an Idempotency-Key', () => {
  const withKey = (p: Platform, bytes: Buffer, key: string) => upload(p, bytes, 'customers.csv', key);

  test('a repeat answers the same job and imports nothing twice; another file with the key is 409; without a key each upload is a job', async () => {
    const p = await h.platform();
    const file = csv(person('key-1'), person('key-2'));
    const first = await withKey(p, file, 'upload-1');
    expect(first.status).toBe(202);
    const repeat = await withKey(p, file, 'upload-1');
    expect(repeat.status).toBe(202);
    expect(repeat.headers['idempotent-replayed']).toBe('true');
    expect(repeat.body).toEqual(first.body);
    const otherFile = await withKey(p, csv(person('key-3')), 'upload-1');
    expect(otherFile.status).toBe(409);
    expect(otherFile.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    await finished(p, first.body.jobId as string);
    expect(await jobsOf(p.platform.id)).toBe(1);
    expect((await customersOf(p.platform.id)).map((c) => c.platformCustomerId)).toEqual(['key-1', 'key-2']);

    const unkeyed = [await upload(p, csv(person('free-1'))), await upload(p, csv(person('free-1')))];
    expect(unkeyed.map((r) => r.status)).toEqual([202, 202]);
    expect(unkeyed[0]!.body.jobId).not.toBe(unkeyed[1]!.body.jobId);
    expect(await jobsOf(p.platform.id)).toBe(3);
  }, 60_000);

  test('an upload whose first attempt committed and died before answering finds its job again: same job, one import', async () => {
    const p = await h.platform();
    const file = csv(person('died-1'), person('died-2'));
    const first = await withKey(p, file, 'upload-died');
    expect(first.status).toBe(202);
    const jobId = first.body.jobId as string;
    const importing = h.temporal.workflow.getHandle(jobId);
    const { runId } = await importing.describe();
    await finished(p, jobId);
    // As if the API had died after the job's commit, before the idempotency store kept the answer.
    expect(await h.orm.em.fork().nativeDelete(IdempotencyRecord, { platformId: p.platform.id, key: 'upload-died' })).toBe(1);

    const retried = await withKey(p, file, 'upload-died');
    expect(retried.status).toBe(202);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(retried.body).toEqual({ jobId, status: 'PENDING' });
    expect(await jobsOf(p.platform.id)).toBe(1);
    expect(await h.orm.em.fork().count(BulkImportRow, { jobId })).toBe(2);
    expect((await importing.describe()).runId).toBe(runId);
    expect(await finished(p, jobId)).toMatchObject({ status: 'COMPLETED', progress: { total: 2, processed: 2, successful: 2, failed: 0 } });
    expect((await customersOf(p.platform.id)).map((c) => c.platformCustomerId)).toEqual(['died-1', 'died-2']);
  }, 60_000);

  test('another platform may use the same key: its own job', async () => {
    const a = await h.platform();
    const b = await h.platform();
    const [ofA, ofB] = [await withKey(a, csv(person('same-key-a')), 'upload-shared'), await withKey(b, csv(person('same-key-b')), 'upload-shared')];
    expect([ofA.status, ofB.status]).toEqual([202, 202]);
    expect(ofA.body.jobId).not.toBe(ofB.body.jobId);
    expect(await jobsOf(a.platform.id)).toBe(1);
    expect(await jobsOf(b.platform.id)).toBe(1);
  });
});

describe('a refused upload: 400 INVALID_INPUT on file with every problem listed, nothing recorded', () => {
  const big = () => Buffer.concat([csv(), Buffer.alloc(MAX_CSV_BYTES - csv().length + 1, 'a')]);
  const tooManyRows = () => csv(...Array.from({ length: MAX_CSV_ROWS + 1 }, (_, i) => `u${i}@uma.example.com,c${i},INDIVIDUAL`));
  test.each([
    [
      'no file (and a text field the form does not have)',
      null,
      [
        ['body', 'additionalProperties'],
        ['file', 'required'],
      ],
    ],
    ['an empty file', Buffer.alloc(0), [['file', 'format']]],
    ['a header without rows', csv(), [['file', 'minItems']]],
    [
      'required columns missing, an unknown column, a repeated column',
      Buffer.from('platformCustomerId,fullName,nickname,fullName\nc1,Ann,Annie,Ann\n'),
      [
        ['file', 'requiredColumn'],
        ['file', 'requiredColumn'],
        ['file', 'unknownColumn'],
        ['file', 'uniqueColumn'],
      ],
    ],
    ['a quote never closed', Buffer.from(`${HEADER}\n"unterminated,c1,INDIVIDUAL\n`), [['file', 'format']]],
    ['not UTF-8 text', Buffer.from([0xff, 0xfe, 0x00, 0x41, 0x00]), [['file', 'format']]],
    [`more than ${MAX_CSV_ROWS} rows`, 'rows', [['file', 'maxItems']]],
    [`larger than ${MAX_CSV_BYTES} bytes`, 'big', [['file', 'maxSize']]],
  ] as [string, Buffer | null | 'rows' | 'big', [string, string][]][])(
    '%s',
    async (_name, content, expected) => {
      const p = await h.platform();
      const bytes = content === 'rows' ? tooManyRows() : content === 'big' ? big() : content;
      const res = await upload(p, bytes);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ status: 400, code: 'INVALID_INPUT', reason: expect.any(String), message: expect.any(String) });
      const errors = (res.body.details.errors as { field: string; constraint: { rule: string }; message: string }[]).map((e) => [e.field, e.constraint.rule]);
      expect(errors).toEqual(expected);
      expect(await jobsOf(p.platform.id)).toBe(0);
      expect(await customersOf(p.platform.id)).toEqual([]);
    },
    30_000,
  );

  test('the missing columns are each named', async () => {
    const p = await h.platform();
    const res = await upload(p, Buffer.from('fullName\nAnn\n'));
    expect(res.status).toBe(400);
    const messages = (res.body.details.errors as { message: string }[]).map((e) => e.message).join(' | ');
    for (const column of ['umaAddress', 'platformCustomerId', 'customerType']) expect(messages).toContain(column);
  });

  test('a JSON body instead of multipart/form-data', async () => {
    const p = await h.platform();
    const res = await p.api.post('/customers/bulk/csv', { file: 'umaAddress,platformCustomerId,customerType' });
    expect(res.status).toBe(400);
    expect(res.body.details.errors).toEqual([expect.objectContaining({ field: 'body', constraint: expect.objectContaining({ rule: 'contentType' }) })]);
    expect(await jobsOf(p.platform.id)).toBe(0);
  });

  test('without credentials: 401, nothing read', async () => {
    const res = await request(h.app)
      .post(`${BASE}/customers/bulk/csv`)
      .attach('file', csv(person('x')), { filename: 'c.csv', contentType: 'text/csv' });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHORIZED');
  });
});

describe('tenant isolation', () => {
  test("another platform's job is 404 BULK_UPLOAD_JOB_NOT_FOUND, answered as an unknown id; its rows stay its own", async () => {
    const a = await h.platform();
    const b = await h.platform();
    const jobId = (await upload(a, csv(person('tenant-a')))).body.jobId as string;
    await finished(a, jobId);
    const foreign = await b.api.get(`/customers/bulk/jobs/${jobId}`);
    const unknown = await b.api.get('/customers/bulk/jobs/Job:00000000-0000-4000-8000-000000000000');
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ status: 404, code: 'BULK_UPLOAD_JOB_NOT_FOUND' });
    expect({ ...foreign.body, reason: undefined, message: undefined }).toEqual({ ...unknown.body, reason: undefined, message: undefined });
    expect(foreign.text).not.toContain('tenant-a');
    expect((await customersOf(b.platform.id)).length).toBe(0);
    expect((await customersOf(a.platform.id)).map((c) => c.platformCustomerId)).toEqual(['tenant-a']);
    // A's rows are kept with its job only.
    expect(await h.orm.em.fork().count(BulkImportRow, { jobId })).toBe(1);
  }, 60_000);
});

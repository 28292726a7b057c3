import { createHash } from 'node:crypto';
import request from 'supertest';
import { Document, DocumentFile } from '../../src/contexts/customers/entities';
import { MAX_DOCUMENT_BYTES } from '../../src/contexts/customers/domain/documents';
import { BASE, Harness } from '../support/harness';
import { businessFields, FILES, individualFields, insertCustomer, ownerBody } from '../support/onboarding-fixtures';

let h: Harness;
beforeAll(async () => {
  h = await Harness.start();
});
afterAll(async () => {
  await h.stop();
});

type Platform = Awaited<ReturnType<Harness['platform']>>;
interface Upload {
  fields?: Record<string, string>;
  file?: { bytes: Buffer; name?: string; type?: string; field?: string } | null;
}

function send(p: Platform, method: 'post' | 'put', path: string, { fields = {}, file }: Upload) {
  let r = request(h.app)[method](`${BASE}${path}`).set('Authorization', p.auth);
  for (const [k, v] of Object.entries(fields)) r = r.field(k, v);
  if (file !== null) {
    const f = file ?? { bytes: FILES.pdf };
    r = r.attach(f.field ?? 'file', f.bytes, { filename: f.name ?? 'passport.pdf', contentType: f.type ?? 'application/pdf' });
  }
  return r;
}

const passport = (holder: string, over: Record<string, string> = {}) => ({
  documentType: 'PASSPORT',
  country: 'US',
  documentNumber: 'A12345678',
  issuingAuthority: 'U.S. Department of State',
  documentHolder: holder,
  ...over,
});
const docCount = (platformId: string) => h.orm.em.fork().count(Document, { platformId });

async function setup() {
  const p = await h.platform();
  const person = await insertCustomer(h.orm, h.masterKey, p.platform.id, individualFields('Ada Lovelace'));
  return { p, person };
}

describe('POST /documents (multipart/form-data)', () => {
  test('stores the file in PostgreSQL with its name, type, size and SHA-256', async () => {
    const { p, person } = await setup();
    const res = await send(p, 'post', '/documents', { fields: passport(person.id, { side: 'FRONT' }), file: { bytes: FILES.pdf, name: 'scan.pdf' } });
    expect(res.status).toBe(201);
    const sha256 = createHash('sha256').update(FILES.pdf).digest('hex');
    expect(res.body).toEqual({
      id: expect.stringMatching(/^Document:[0-9a-f-]{36}$/),
      documentHolder: person.id,
      documentType: 'PASSPORT',
      side: 'FRONT',
      country: 'US',
      documentNumber: 'A12345678',
      issuingAuthority: 'U.S. Department of State',
      fileName: 'scan.pdf',
      mimeType: 'application/pdf',
      fileSize: FILES.pdf.length,
      sha256,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const em = h.orm.em.fork();
    const stored = await em.findOneOrFail(DocumentFile, { documentId: res.body.id });
    expect(Buffer.from(stored.content).equals(FILES.pdf)).toBe(true);
    expect((await em.findOneOrFail(Document, { id: res.body.id })).customerId).toBe(person.id);
  });

  test("a beneficial owner's document belongs to the owner's business", async () => {
    const p = await h.platform();
    const biz = await insertCustomer(h.orm, h.masterKey, p.platform.id, businessFields('REG-003'));
    const owner = (await p.api.post('/beneficial-owners', ownerBody(biz.id))).body;
    const res = await send(p, 'post', '/documents', { fields: passport(owner.id), file: { bytes: FILES.jpeg, name: 'id.jpg', type: 'image/jpeg' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ documentHolder: owner.id, mimeType: 'image/jpeg' });
    expect((await h.orm.em.fork().findOneOrFail(Document, { id: res.body.id })).customerId).toBe(biz.id);
  });

  test('PNG declared as generic binary is accepted by its content', async () => {
    const { p, person } = await setup();
    const res = await send(p, 'post', '/documents', {
      fields: { documentType: 'UTILITY_BILL', country: 'US', documentHolder: person.id },
      file: { bytes: FILES.png, name: 'bill.png', type: 'application/octet-stream' },
    });
    expect(res.status).toBe(201);
    expect(res.body.mimeType).toBe('image/png');
    expect(res.body.side).toBeUndefined();
  });

  describe('file errors are 400 INVALID_INPUT on `file`, and nothing is stored', () => {
    test.each([
      ['a GIF', { bytes: Buffer.from('GIF89a\x01\x00\x01\x00'), name: 'x.gif', type: 'image/gif' }, 'fileType'],
      ['text declared as PDF (magic bytes checked)', { bytes: Buffer.from('hello, I am not a PDF'), name: 'fake.pdf', type: 'application/pdf' }, 'fileType'],
      ['a PNG declared as PDF', { bytes: FILES.png, name: 'x.pdf', type: 'application/pdf' }, 'fileType'],
      ['an empty file', { bytes: Buffer.alloc(0), name: 'empty.pdf', type: 'application/pdf' }, 'required'],
    ])('%s', async (_name, file, constraint) => {
      const { p, person } = await setup();
      const res = await send(p, 'post', '/documents', { fields: passport(person.id), file });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        status: 400,
        code: 'INVALID_INPUT',
        details: { errors: [{ field: 'file', constraint: { rule: constraint }, message: expect.any(String) }] },
      });
      expect(await docCount(p.platform.id)).toBe(0);
    });

    test('larger than 10 MB', async () => {
      const { p, person } = await setup();
      const big = Buffer.alloc(MAX_DOCUMENT_BYTES + 1);
      FILES.pdf.copy(big);
      const res = await send(p, 'post', '/documents', { fields: passport(person.id), file: { bytes: big } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        code: 'INVALID_INPUT',
        details: { errors: [{ field: 'file', constraint: expect.objectContaining({ rule: 'maxSize' }) }] },
      });
      expect(await docCount(p.platform.id)).toBe(0);
    });

    test('exactly 10 MB is accepted', async () => {
      const { p, person } = await setup();
      const max = Buffer.alloc(MAX_DOCUMENT_BYTES);
      FILES.pdf.copy(max);
      const res = await send(p, 'post', '/documents', { fields: passport(person.id), file: { bytes: max } });
      expect(res.status).toBe(201);
      expect(res.body.fileSize).toBe(MAX_DOCUMENT_BYTES);
    });

    test('a missing file is reported together with the invalid fields', async () => {
      const { p, person } = await setup();
      const res = await send(p, 'post', '/documents', {
        fields: { documentType: 'PASSPORTS', side: 'LEFT', country: 'ZZ', documentHolder: person.id },
        file: null,
      });
      expect(res.status).toBe(400);
      expect(res.body.details.errors.map((e: { field: string; constraint: { rule: string } }) => `${e.field}:${e.constraint.rule}`).sort()).toEqual([
        'country:iso3166-1-alpha-2',
        'documentType:enum',
        'file:required',
        'side:enum',
      ]);
    });

    test('a file in another field', async () => {
      const { p, person } = await setup();
      const res = await send(p, 'post', '/documents', { fields: passport(person.id), file: { bytes: FILES.pdf, field: 'document' } });
      expect(res.status).toBe(400);
      expect(res.body.details.errors).toEqual([
        expect.objectContaining({ field: 'document', constraint: expect.objectContaining({ rule: 'unexpectedFile' }) }),
      ]);
    });

    test('a JSON body instead of multipart', async () => {
      const { p, person } = await setup();
      const res = await p.api.post('/documents', passport(person.id));
      expect(res.status).toBe(400);
      expect(res.body.details.errors).toEqual([expect.objectContaining({ field: 'body', constraint: expect.objectContaining({ rule: 'contentType' }) })]);
    });

    test('a malformed multipart body', async () => {
      const { p } = await setup();
      const res = await request(h.app)
        .post(`${BASE}/documents`)
        .set('Authorization', p.auth)
        .set('Content-Type', 'multipart/form-data; boundary=XYZ')
        .send('--XYZ\r\nContent-Disposition: form-data; name="documentType"\r\n\r\nPASSPORT\r\n--XYZ\r\nbroken');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'INVALID_INPUT', details: { errors: [expect.objectContaining({ field: 'body' })] } });
    });
  });

  test("unknown, malformed and other platforms' holders are 404", async () => {
    const { p } = await setup();
    const other = await h.platform();
    const foreign = await insertCustomer(h.orm, h.masterKey, other.platform.id, individualFields('Other One'));
    for (const holder of ['Customer:00000000-0000-4000-8000-000000000000', 'BeneficialOwner:00000000-0000-4000-8000-000000000000', 'Quote:1', foreign.id]) {
      const res = await send(p, 'post', '/documents', { fields: passport(holder) });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'NOT_FOUND', reason: 'Document holder not found' });
    }
    expect(await docCount(p.platform.id)).toBe(0);
  });

  test("a deleted customer's documents, or its owners', are not accepted", async () => {
    const { p } = await setup();
    const biz = await insertCustomer(h.orm, h.masterKey, p.platform.id, businessFields('REG-003'));
    const owner = (await p.api.post('/beneficial-owners', ownerBody(biz.id))).body;
    expect((await p.api.delete(`/customers/${biz.id}`)).status).toBe(200);
    for (const holder of [biz.id, owner.id]) {
      const res = await send(p, 'post', '/documents', { fields: passport(holder) });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'NOT_FOUND', reason: 'Document holder not found' });
    }
    expect(await docCount(p.platform.id)).toBe(0);
  });

  test('a second upload of the same type and side is 409 DOCUMENT_ALREADY_EXISTS; another side is fine', async () => {
    const { p, person } = await setup();
    const fields = { documentType: 'DRIVERS_LICENSE', country: 'US', documentHolder: person.id, side: 'FRONT' };
    expect((await send(p, 'post', '/documents', { fields })).status).toBe(201);
    const dup = await send(p, 'post', '/documents', { fields });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ code: 'DOCUMENT_ALREADY_EXISTS', reason: expect.stringContaining('PUT') });
    expect((await send(p, 'post', '/documents', { fields: { ...fields, side: 'BACK' } })).status).toBe(201);
    expect(await docCount(p.platform.id)).toBe(2);
  });

  test('simultaneous uploads for one slot store one document', async () => {
    const { p, person } = await setup();
    const results = await Promise.all([1, 2, 3].map(() => send(p, 'post', '/documents', { fields: passport(person.id) })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect(await docCount(p.platform.id)).toBe(1);
  });
});

describe('GET /documents and /documents/{id}', () => {
  test('cursor list, optionally of one holder; one document by id', async () => {
    const { p, person } = await setup();
    const second = await insertCustomer(h.orm, h.masterKey, p.platform.id, individualFields('Bob Builder'));
    const ids: string[] = [];
    for (const documentType of ['PASSPORT', 'UTILITY_BILL', 'BANK_STATEMENT'])
      ids.push((await send(p, 'post', '/documents', { fields: { documentType, country: 'US', documentHolder: person.id } })).body.id);
    const theirs = (await send(p, 'post', '/documents', { fields: passport(second.id) })).body.id;

    const all = await p.api.get('/documents');
    expect(all.body.totalCount).toBe(4);
    const page1 = await p.api.get(`/documents?documentHolder=${encodeURIComponent(person.id)}&limit=2`);
    expect(page1.body).toMatchObject({ hasMore: true, totalCount: 3 });
    expect(page1.body.data.map((d: { id: string }) => d.id)).toEqual([ids[2], ids[1]]);
    const page2 = await p.api.get(`/documents?documentHolder=${encodeURIComponent(person.id)}&limit=2&cursor=${page1.body.nextCursor}`);
    expect(page2.body.data.map((d: { id: string }) => d.id)).toEqual([ids[0]]);
    expect(page2.body.hasMore).toBe(false);

    const one = await p.api.get(`/documents/${theirs}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: theirs, documentHolder: second.id, documentType: 'PASSPORT' });
    expect((await p.api.get('/documents/Document:00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  test('another platform sees none of them', async () => {
    const { p, person } = await setup();
    const id = (await send(p, 'post', '/documents', { fields: passport(person.id) })).body.id;
    const intruder = await h.platform();
    expect((await intruder.api.get('/documents')).body).toEqual({ data: [], hasMore: false, totalCount: 0 });
    expect((await intruder.api.get(`/documents?documentHolder=${encodeURIComponent(person.id)}`)).body.data).toEqual([]);
    expect((await intruder.api.get(`/documents/${id}`)).status).toBe(404);
    expect((await send(intruder, 'put', `/documents/${id}`, { fields: { documentType: 'PASSPORT', country: 'FR' } })).status).toBe(404);
    expect((await intruder.api.delete(`/documents/${id}`)).status).toBe(404);
    expect((await p.api.get(`/documents/${id}`)).body.country).toBe('US');
  });
});

/**
 * A multipart body written by hand, so a part can go without a Content-Type (or a filename),
 * which supertest's attach never does. Python's requests, for one, sends files without a type.
 */
function rawUpload(p: Platform, method: 'post' | 'put', path: string, fields: Record<string, string>, file: { bytes: Buffer; headers: string }) {
  const boundary = '----fidelity7MA4YWxkTrZu0gW';
  const chunks: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  chunks.push(Buffer.from(`--${boundary}\r\n${file.headers}\r\n\r\n`), file.bytes, Buffer.from(`\r\n--${boundary}--\r\n`));
  return request(h.app)
    [method](`${BASE}${path}`)
    .set('Authorization', p.auth)
    .set('Content-Type', `multipart/form-data; boundary=${boundary}`)
    .send(Buffer.concat(chunks));
}

describe('the bytes decide the type; a declared type may only agree with them', () => {
  const fileHeaders = (name: string, type?: string) =>
    `Content-Disposition: form-data; name="file"; filename="${name}"${type === undefined ? '' : `\r\nContent-Type: ${type}`}`;

  test.each([
    ['a PDF', FILES.pdf, 'scan.pdf', 'application/pdf'],
    ['a PNG', FILES.png, 'bill.png', 'image/png'],
    ['a JPEG', FILES.jpeg, 'id.jpg', 'image/jpeg'],
  ])('%s whose part has no Content-Type is stored with the type its bytes show', async (_name, bytes, name, mimeType) => {
    const { p, person } = await setup();
    const res = await rawUpload(p, 'post', '/documents', passport(person.id), { bytes, headers: fileHeaders(name) });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ mimeType, fileName: name, fileSize: bytes.length });
    const stored = await h.orm.em.fork().findOneOrFail(DocumentFile, { documentId: res.body.id });
    expect(Buffer.from(stored.content).equals(bytes)).toBe(true);
  });

  test('PUT takes a file without a Content-Type too', async () => {
    const { p, person } = await setup();
    const created = (await send(p, 'post', '/documents', { fields: passport(person.id) })).body;
    const res = await rawUpload(
      p,
      'put',
      `/documents/${created.id}`,
      { documentType: 'PASSPORT', country: 'US' },
      { bytes: FILES.png, headers: fileHeaders('page.png') },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: created.id, mimeType: 'image/png', fileName: 'page.png' });
  });

  test.each([
    ['a PDF declared as text/plain', FILES.pdf, 'text/plain', 'declared as text/plain but its content is application/pdf'],
    ['a PNG declared as PDF', FILES.png, 'application/pdf', 'declared as application/pdf but its content is image/png'],
    ['a PDF declared as JPEG', FILES.pdf, 'image/jpeg; charset=binary', 'declared as image/jpeg but its content is application/pdf'],
    ['text without a Content-Type', Buffer.from('plain words, no document'), undefined, 'PDF, JPEG or PNG'],
  ])('%s is refused on `file` and nothing is stored', async (_name, bytes, type, message) => {
    const { p, person } = await setup();
    const res = await rawUpload(p, 'post', '/documents', passport(person.id), { bytes, headers: fileHeaders('x.bin', type) });
    expect(res.status).toBe(400);
    expect(res.body.details.errors).toEqual([
      { field: 'file', constraint: expect.objectContaining({ rule: 'fileType' }), message: expect.stringContaining(message) },
    ]);
    expect(await docCount(p.platform.id)).toBe(0);
  });

  test.each([
    ['without a Content-Type', 'Content-Disposition: form-data; name="file"'],
    ['as generic binary', 'Content-Disposition: form-data; name="file"\r\nContent-Type: application/octet-stream'],
  ])('a file part without a filename (%s) is refused as such, not taken for a missing file', async (_name, headers) => {
    const { p, person } = await setup();
    const res = await rawUpload(p, 'post', '/documents', passport(person.id), { bytes: FILES.pdf, headers });
    expect(res.status).toBe(400);
    expect(res.body.details.errors).toEqual([expect.objectContaining({ field: 'file', constraint: expect.objectContaining({ rule: 'filename' }) })]);
    expect(await docCount(p.platform.id)).toBe(0);
  });
});

describe('PUT /documents/{id}', () => {
  test('replaces the file and the metadata; the holder stays', async () => {
    const { p, person } = await setup();
    const created = (await send(p, 'post', '/documents', { fields: passport(person.id) })).body;
    const res = await send(p, 'put', `/documents/${created.id}`, {
      fields: { documentType: 'NATIONAL_ID', side: 'FRONT', country: 'DE' },
      file: { bytes: FILES.png, name: 'id.png', type: 'image/png' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: created.id,
      documentHolder: person.id,
      documentType: 'NATIONAL_ID',
      side: 'FRONT',
      country: 'DE',
      fileName: 'id.png',
      mimeType: 'image/png',
      fileSize: FILES.png.length,
    });
    expect(res.body.documentNumber).toBeUndefined();
    const stored = await h.orm.em.fork().findOneOrFail(DocumentFile, { documentId: created.id });
    expect(Buffer.from(stored.content).equals(FILES.png)).toBe(true);
  });

  test('the file is required and checked; the holder cannot be changed; a clash is 409', async () => {
    const { p, person } = await setup();
    const a = (await send(p, 'post', '/documents', { fields: passport(person.id) })).body;
    await send(p, 'post', '/documents', { fields: { documentType: 'UTILITY_BILL', country: 'US', documentHolder: person.id } });
    const noFile = await send(p, 'put', `/documents/${a.id}`, { fields: { documentType: 'PASSPORT', country: 'US' }, file: null });
    expect(noFile.status).toBe(400);
    expect(noFile.body.details.errors).toEqual([expect.objectContaining({ field: 'file', constraint: expect.objectContaining({ rule: 'required' }) })]);
    const badFile = await send(p, 'put', `/documents/${a.id}`, {
      fields: { documentType: 'PASSPORT', country: 'US' },
      file: { bytes: Buffer.from('nope'), type: 'application/pdf' },
    });
    expect(badFile.body.details.errors).toEqual([expect.objectContaining({ field: 'file', constraint: expect.objectContaining({ rule: 'fileType' }) })]);
    const holder = await send(p, 'put', `/documents/${a.id}`, { fields: { documentType: 'PASSPORT', country: 'US', documentHolder: person.id } });
    expect(holder.body.details.errors).toEqual([
      expect.objectContaining({ field: 'body', constraint: expect.objectContaining({ rule: 'additionalProperties' }) }),
    ]);
    const clash = await send(p, 'put', `/documents/${a.id}`, { fields: { documentType: 'UTILITY_BILL', country: 'US' } });
    expect(clash.status).toBe(409);
    expect(clash.body.code).toBe('DOCUMENT_ALREADY_EXISTS');
    expect((await p.api.get(`/documents/${a.id}`)).body).toEqual(a);
  });
});

describe('DELETE /documents/{id}', () => {
  test('204, then gone (file too)', async () => {
    const { p, person } = await setup();
    const id = (await send(p, 'post', '/documents', { fields: passport(person.id) })).body.id;
    const res = await p.api.delete(`/documents/${id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await p.api.get(`/documents/${id}`)).status).toBe(404);
    expect(await h.orm.em.fork().count(DocumentFile, { documentId: id })).toBe(0);
    expect((await p.api.delete(`/documents/${id}`)).status).toBe(404);
  });

  test('409 once the document was submitted in a verification', async () => {
    const { p, person } = await setup();
    const id = (await send(p, 'post', '/documents', { fields: passport(person.id) })).body.id;
    await h.orm.em.fork().nativeUpdate(Document, { id }, { submittedAt: new Date() });
    const res = await p.api.delete(`/documents/${id}`);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'CONFLICT', reason: expect.stringContaining('submitted') });
    expect((await p.api.get(`/documents/${id}`)).status).toBe(200);
  });
});

test('the OpenAPI document describes the multipart request bodies', async () => {
  const { p } = await setup();
  const doc = (await request(h.app).get(`${BASE}/openapi.json`).set('Authorization', p.auth)).body;
  const upload = doc.paths['/documents'].post.requestBody.content['multipart/form-data'].schema;
  const replace = doc.paths['/documents/{documentId}'].put.requestBody.content['multipart/form-data'].schema;
  expect(upload).toEqual({ $ref: '#/components/schemas/DocumentUploadRequest' });
  expect(replace).toEqual({ $ref: '#/components/schemas/DocumentReplaceRequest' });
  const schema = doc.components.schemas.DocumentUploadRequest;
  expect(schema.properties.file).toMatchObject({ type: 'string', format: 'binary' });
  expect(schema.required).toEqual(expect.arrayContaining(['file', 'documentType', 'country', 'documentHolder']));
  expect(doc.paths['/documents'].post.requestBody.content['application/json']).toBeUndefined();
});

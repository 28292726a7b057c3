import { checkDocumentFile, cleanFileName, MAX_DOCUMENT_BYTES, sniffDocumentType } from '../../src/contexts/customers/domain/documents';

const PDF = Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n');
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46]);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]);
const GIF = Buffer.from('GIF89a\x01\x00\x01\x00');
const TEXT = Buffer.from('just some text, not a document');

describe('sniffDocumentType: the bytes decide', () => {
  test.each([
    ['PDF', PDF, 'application/pdf'],
    ['JPEG', JPEG, 'image/jpeg'],
    ['PNG', PNG, 'image/png'],
    ['GIF', GIF, null],
    ['text', TEXT, null],
    ['empty', Buffer.alloc(0), null],
    ['truncated PNG signature', PNG.subarray(0, 5), null],
    ['PDF magic not at the start', Buffer.concat([Buffer.from(' '), PDF]), null],
  ])('%s', (_name, bytes, expected) => {
    expect(sniffDocumentType(bytes)).toBe(expected);
  });
});

describe('checkDocumentFile', () => {
  test('accepts PDF, JPEG and PNG declared as themselves or as generic binary', () => {
    expect(checkDocumentFile({ bytes: PDF, declaredType: 'application/pdf' })).toEqual({ ok: true, mimeType: 'application/pdf' });
    expect(checkDocumentFile({ bytes: JPEG, declaredType: 'image/jpeg' })).toEqual({ ok: true, mimeType: 'image/jpeg' });
    expect(checkDocumentFile({ bytes: JPEG, declaredType: 'image/jpg' })).toEqual({ ok: true, mimeType: 'image/jpeg' });
    expect(checkDocumentFile({ bytes: PNG, declaredType: 'IMAGE/PNG; charset=binary' })).toEqual({ ok: true, mimeType: 'image/png' });
    expect(checkDocumentFile({ bytes: PNG, declaredType: 'application/octet-stream' })).toEqual({ ok: true, mimeType: 'image/png' });
    expect(checkDocumentFile({ bytes: PDF })).toEqual({ ok: true, mimeType: 'application/pdf' });
  });

  test('a missing or empty file is required', () => {
    expect(checkDocumentFile(null)).toMatchObject({ ok: false, problem: { constraint: 'required' } });
    expect(checkDocumentFile({ bytes: Buffer.alloc(0), declaredType: 'application/pdf' })).toMatchObject({ ok: false, problem: { constraint: 'required' } });
  });

  test('more than 10 MB is too large; exactly 10 MB is accepted', () => {
    const big = Buffer.alloc(MAX_DOCUMENT_BYTES + 1);
    PDF.copy(big);
    expect(checkDocumentFile({ bytes: big, declaredType: 'application/pdf' })).toMatchObject({ ok: false, problem: { constraint: 'maxSize' } });
    expect(checkDocumentFile({ bytes: big.subarray(0, MAX_DOCUMENT_BYTES), declaredType: 'application/pdf' })).toMatchObject({ ok: true });
  });

  test('a declared accepted type with other content is refused (the mime type alone is not trusted)', () => {
    expect(checkDocumentFile({ bytes: TEXT, declaredType: 'application/pdf' })).toMatchObject({ ok: false, problem: { constraint: 'fileType' } });
    expect(checkDocumentFile({ bytes: GIF, declaredType: 'image/png' })).toMatchObject({ ok: false, problem: { constraint: 'fileType' } });
  });

  test('an accepted file declared as another accepted type is refused', () => {
    expect(checkDocumentFile({ bytes: PNG, declaredType: 'application/pdf' })).toMatchObject({
      ok: false,
      problem: { constraint: 'fileType', message: expect.stringContaining('image/png') },
    });
  });

  test('other declared types contradict accepted content and are refused', () => {
    expect(checkDocumentFile({ bytes: PDF, declaredType: 'text/plain' })).toEqual({
      ok: false,
      problem: { constraint: 'fileType', message: 'the file is declared as text/plain but its content is application/pdf' },
    });
    expect(checkDocumentFile({ bytes: GIF, declaredType: 'image/gif' })).toMatchObject({ ok: false, problem: { constraint: 'fileType' } });
  });

  test('without a declared type (or an empty one) the bytes alone decide', () => {
    expect(checkDocumentFile({ bytes: PDF, declaredType: null })).toEqual({ ok: true, mimeType: 'application/pdf' });
    expect(checkDocumentFile({ bytes: PNG, declaredType: null })).toEqual({ ok: true, mimeType: 'image/png' });
    expect(checkDocumentFile({ bytes: JPEG, declaredType: '' })).toEqual({ ok: true, mimeType: 'image/jpeg' });
    expect(checkDocumentFile({ bytes: TEXT, declaredType: null })).toMatchObject({
      ok: false,
      problem: { constraint: 'fileType', message: expect.stringContaining('PDF, JPEG or PNG') },
    });
    expect(checkDocumentFile({ bytes: GIF })).toMatchObject({ ok: false, problem: { constraint: 'fileType' } });
  });

  test('older names of the accepted types agree with their bytes', () => {
    expect(checkDocumentFile({ bytes: PDF, declaredType: 'application/x-pdf' })).toEqual({ ok: true, mimeType: 'application/pdf' });
    expect(checkDocumentFile({ bytes: PNG, declaredType: 'image/x-png' })).toEqual({ ok: true, mimeType: 'image/png' });
    expect(checkDocumentFile({ bytes: JPEG, declaredType: 'image/x-png' })).toMatchObject({ ok: false, problem: { constraint: 'fileType' } });
  });
});

describe('cleanFileName', () => {
  test('keeps a plain name, drops paths and control characters, bounds the length', () => {
    expect(cleanFileName('passport.pdf', 'application/pdf')).toBe('passport.pdf');
    expect(cleanFileName('../../etc/passwd.png', 'image/png')).toBe('passwd.png');
    expect(cleanFileName('C:\\scans\\id.jpg', 'image/jpeg')).toBe('id.jpg');
    expect(cleanFileName('a\u0000b\nc.pdf', 'application/pdf')).toBe('abc.pdf');
    expect(cleanFileName(`${'x'.repeat(300)}.pdf`, 'application/pdf')).toHaveLength(255);
  });
  test('names a file that came without one by its type', () => {
    expect(cleanFileName(undefined, 'application/pdf')).toBe('document.pdf');
    expect(cleanFileName('', 'image/png')).toBe('document.png');
    expect(cleanFileName('/', 'image/jpeg')).toBe('document.jpg');
  });
});

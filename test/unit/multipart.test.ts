import { multipartBoundary, multipartPartHeaders } from '../../src/api/multipart';

const body = (boundary: string, parts: string[]) => Buffer.from(`${parts.map((p) => `--${boundary}\r\n${p}\r\n`).join('')}--${boundary}--\r\n`, 'latin1');

describe('multipartBoundary', () => {
  test('plain, quoted, among other parameters, or missing', () => {
    expect(multipartBoundary('multipart/form-data; boundary=abc123')).toBe('abc123');
    expect(multipartBoundary('multipart/form-data; charset=utf-8; boundary="a b:c"')).toBe('a b:c');
    expect(multipartBoundary('multipart/form-data')).toBeNull();
    expect(multipartBoundary(undefined)).toBeNull();
  });
});

describe('multipartPartHeaders: what busboy does not say, whether a part had a Content-Type', () => {
  test('reads name, filename and Content-Type of every part, null when a part has none', () => {
    const raw = body('XYZ', [
      'Content-Disposition: form-data; name="documentType"\r\n\r\nPASSPORT',
      'Content-Disposition: form-data; name="file"; filename="a \\"b\\".pdf"\r\n\r\n%PDF-1.7 \r\n--XY not the boundary',
      'content-type: IMAGE/PNG\r\nContent-Disposition: form-data; name=other; filename=x.png\r\n\r\n\x89PNG',
      'Content-Disposition: form-data; name="empty"\r\n\r\n',
    ]);
    expect(multipartPartHeaders(raw, 'XYZ')).toEqual([
      { name: 'documentType', contentType: null },
      { name: 'file', filename: 'a "b".pdf', contentType: null },
      { name: 'other', filename: 'x.png', contentType: 'IMAGE/PNG' },
      { name: 'empty', contentType: null },
    ]);
  });

  test('a part with no headers at all, a preamble, and a body that is not multipart', () => {
    const raw = Buffer.concat([Buffer.from('preamble\r\n'), body('B', ['\r\nno headers', 'Content-Disposition: form-data; name="n"\r\n\r\nv'])]);
    expect(multipartPartHeaders(raw, 'B')).toEqual([{ contentType: null }, { name: 'n', contentType: null }]);
    expect(multipartPartHeaders(Buffer.from('{"json":true}'), 'B')).toEqual([]);
    expect(multipartPartHeaders(Buffer.from('--B\r\nContent-Disposition: form-data; name="cut'), 'B')).toEqual([]);
  });
});

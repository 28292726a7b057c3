import { Writable } from 'node:stream';
import { createLogger } from '../../src/logger';

/** Logs one line through the service's logger configuration and returns it. */
function logLine(obj: object): string {
  let out = '';
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      out += chunk.toString();
      done();
    },
  });
  createLogger(sink, 'info').info(obj, 'test');
  return out;
}

describe('log redaction', () => {
  test.each([
    ['a customer identifier', { identifier: '123-45-6789' }],
    ['an identifier in a request body', { body: { customerType: 'INDIVIDUAL', identifier: '123-45-6789' } }],
    ["a beneficial owner's identifier", { body: { personalInfo: { identifier: '123-45-6789' } } }],
    ['an identifier in a logged request', { req: { body: { personalInfo: { identifier: '123-45-6789' } } } }],
    ['a contact code in a confirm body', { body: { code: '654321' } }],
    ['a contact code in a logged request', { req: { body: { code: '654321' } } }],
    ['a contact code delivery message', { message: { channel: 'email', to: 'a@example.com', code: '654321' } }],
    ['a contact code at the top', { channel: 'phone', code: '654321' }],
    ['a client secret', { token: { tokenId: 't', clientSecret: 'sk_live_abc' } }],
    ['credentials in headers', { req: { headers: { authorization: 'Basic c2VjcmV0' } } }],
  ])('%s is redacted', (_name, obj) => {
    const line = logLine(obj);
    expect(line).toContain('[redacted]');
    for (const secret of ['123-45-6789', '654321', 'sk_live_abc', 'Basic c2VjcmV0']) expect(line).not.toContain(secret);
  });

  test("an error's own code is kept", () => {
    const line = JSON.parse(logLine({ err: { type: 'Error', code: 'ECONNREFUSED', message: 'connect failed' } }));
    expect(line.err.code).toBe('ECONNREFUSED');
  });
});

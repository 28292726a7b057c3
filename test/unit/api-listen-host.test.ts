import { randomBytes } from 'node:crypto';
import { loadConfig } from '../../src/config';

// The API binds to loopback unless told otherwise: a laptop's `npm start` must not expose the
// sandbox API (and its default credentials) to the whole network.

const base = { DATABASE_URL: 'postgresql://x@127.0.0.1:1/x', MASTER_KEY: randomBytes(32).toString('base64') };

test('the API listens on 127.0.0.1 by default', () => {
  expect(loadConfig(base).host).toBe('127.0.0.1');
});

test('HOST chooses another interface', () => {
  expect(loadConfig({ ...base, HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  expect(loadConfig({ ...base, HOST: '::1' }).host).toBe('::1');
});

test('an empty HOST is refused rather than silently meaning every interface', () => {
  expect(() => loadConfig({ ...base, HOST: '' })).toThrow(/HOST/);
});

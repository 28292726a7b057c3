import { canonicalJson, requestFingerprint } from '../../src/domain/idempotency';

describe('canonicalJson', () => {
  test('is independent of key order, at every depth', () => {
    const a = { amount: 100, currency: 'USD', meta: { z: 1, a: [{ y: 2, b: 3 }] } };
    const b = { meta: { a: [{ b: 3, y: 2 }], z: 1 }, currency: 'USD', amount: 100 };
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(canonicalJson(a)).toBe('{"amount":100,"currency":"USD","meta":{"a":[{"b":3,"y":2}],"z":1}}');
  });

  test('keeps array order, including nested arrays', () => {
    expect(canonicalJson([1, [2, 3], 'x'])).toBe('[1,[2,3],"x"]');
    expect(canonicalJson({ list: [[1, 2], [3]] })).not.toBe(canonicalJson({ list: [[3], [1, 2]] }));
    expect(canonicalJson({ list: [[1, 2]] })).not.toBe(canonicalJson({ list: [[2, 1]] }));
  });

  test('is valid JSON equal to the input', () => {
    const value = { b: [true, null, 'q"uote'], a: { n: -1.5 } };
    expect(JSON.parse(canonicalJson(value))).toEqual(value);
  });

  test('scalars and null', () => {
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson('x')).toBe('"x"');
    expect(canonicalJson(0)).toBe('0');
  });

  test('distinguishes values JSON distinguishes', () => {
    expect(canonicalJson({ a: '1' })).not.toBe(canonicalJson({ a: 1 }));
    expect(canonicalJson({ a: 1 })).not.toBe(canonicalJson({ a: 1, b: null }));
  });
});

describe('requestFingerprint', () => {
  const body = { amount: 100, currency: 'USD', customer: { id: 'c1', tags: ['a', 'b'] } };

  test('is a sha256 hex digest', () => {
    expect(requestFingerprint('POST', '/quotes', body)).toMatch(/^[0-9a-f]{64}$/);
  });

  test('is equal for reordered keys', () => {
    const reordered = { customer: { tags: ['a', 'b'], id: 'c1' }, currency: 'USD', amount: 100 };
    expect(requestFingerprint('POST', '/quotes', reordered)).toBe(requestFingerprint('POST', '/quotes', body));
  });

  test('ignores the case of the method', () => {
    expect(requestFingerprint('post', '/quotes', body)).toBe(requestFingerprint('POST', '/quotes', body));
  });

  test('differs when the method changes', () => {
    expect(requestFingerprint('PUT', '/quotes', body)).not.toBe(requestFingerprint('POST', '/quotes', body));
  });

  test('differs when the path changes', () => {
    expect(requestFingerprint('POST', '/quotes/x', body)).not.toBe(requestFingerprint('POST', '/quotes', body));
  });

  test('differs when the body changes', () => {
    const base = requestFingerprint('POST', '/quotes', body);
    expect(requestFingerprint('POST', '/quotes', { ...body, amount: 101 })).not.toBe(base);
    expect(requestFingerprint('POST', '/quotes', { ...body, customer: { id: 'c1', tags: ['b', 'a'] } })).not.toBe(base);
    expect(requestFingerprint('POST', '/quotes', {})).not.toBe(base);
  });

  test('with a key it is keyed: repeatable, but not the plain digest nor another key’s', () => {
    const key = Buffer.alloc(32, 1);
    const keyed = requestFingerprint('POST', '/customers', { identifier: '123-45-6789' }, key);
    expect(keyed).toMatch(/^[0-9a-f]{64}$/);
    expect(requestFingerprint('POST', '/customers', { identifier: '123-45-6789' }, key)).toBe(keyed);
    expect(keyed).not.toBe(requestFingerprint('POST', '/customers', { identifier: '123-45-6789' }));
    expect(keyed).not.toBe(requestFingerprint('POST', '/customers', { identifier: '123-45-6789' }, Buffer.alloc(32, 2)));
    expect(requestFingerprint('POST', '/customers', { identifier: '123-45-6780' }, key)).not.toBe(keyed);
  });

  test('a missing body and a null body are the same request', () => {
    expect(requestFingerprint('POST', '/x', undefined)).toBe(requestFingerprint('POST', '/x', null));
    expect(requestFingerprint('POST', '/x', null)).not.toBe(requestFingerprint('POST', '/x', {}));
  });
});

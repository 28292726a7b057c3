import { derivedId, ID_TYPES, isId, newId } from '../../src/domain/ids';

const UUID_ANY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function uuidOf(id: string): string {
  return id.slice(id.indexOf(':') + 1);
}

describe('newId', () => {
  test('is `<Type>:<uuid v4>` for every type', () => {
    for (const type of ID_TYPES) {
      const id = newId(type);
      expect(id.startsWith(`${type}:`)).toBe(true);
      expect(uuidOf(id)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(isId(type, id)).toBe(true);
    }
  });

  test('is fresh every time', () => {
    const ids = new Set(Array.from({ length: 100 }, () => newId('Transaction')));
    expect(ids.size).toBe(100);
  });
});

describe('isId', () => {
  const uuid = '123e4567-e89b-42d3-a456-426614174000';

  test('accepts the right prefix and a UUID, in either case', () => {
    expect(isId('Customer', `Customer:${uuid}`)).toBe(true);
    expect(isId('Customer', `Customer:${uuid.toUpperCase()}`)).toBe(true);
  });

  test('rejects another type, a missing prefix, or a malformed uuid', () => {
    expect(isId('Customer', `Quote:${uuid}`)).toBe(false);
    expect(isId('Customer', uuid)).toBe(false);
    expect(isId('Customer', `customer:${uuid}`)).toBe(false);
    expect(isId('Customer', `Customer:${uuid}x`)).toBe(false);
    expect(isId('Customer', `Customer:${uuid.slice(1)}`)).toBe(false);
    expect(isId('Customer', `Customer:${uuid.replace(/-/g, '')}`)).toBe(false);
    expect(isId('Customer', `Customer: ${uuid}`)).toBe(false);
    expect(isId('Customer', 'Customer:')).toBe(false);
  });
});

describe('derivedId', () => {
  test('is deterministic for the same parts', () => {
    expect(derivedId('Transaction', 'Platform:p1', 'sandbox-fund', 'key-1')).toBe(derivedId('Transaction', 'Platform:p1', 'sandbox-fund', 'key-1'));
  });

  test('differs when any part differs', () => {
    const base = derivedId('Transaction', 'Platform:p1', 'sandbox-fund', 'key-1');
    expect(derivedId('Transaction', 'Platform:p2', 'sandbox-fund', 'key-1')).not.toBe(base);
    expect(derivedId('Transaction', 'Platform:p1', 'sandbox-fund', 'key-2')).not.toBe(base);
    expect(derivedId('Transaction', 'Platform:p1', 'other', 'key-1')).not.toBe(base);
    expect(derivedId('Transaction', 'Platform:p1', 'sandbox-fund')).not.toBe(base);
  });

  test('part boundaries matter: ("ab","c") and ("a","bc") differ', () => {
    expect(derivedId('Webhook', 'ab', 'c')).not.toBe(derivedId('Webhook', 'a', 'bc'));
    expect(derivedId('Webhook', 'abc')).not.toBe(derivedId('Webhook', 'ab', 'c'));
  });

  test('carries the type prefix and passes isId', () => {
    const id = derivedId('Webhook', 'Transaction:x', 'INCOMING_PAYMENT.COMPLETED');
    expect(id.startsWith('Webhook:')).toBe(true);
    expect(isId('Webhook', id)).toBe(true);
    expect(isId('Transaction', id)).toBe(false);
  });

  test('yields a version-8 UUID with the RFC 9562 variant, for many inputs', () => {
    const variants = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const uuid = uuidOf(derivedId('Transaction', `key-${i}`));
      expect(uuid).toMatch(UUID_ANY);
      expect(uuid[14]).toBe('8');
      expect('89ab').toContain(uuid[19]);
      variants.add(uuid[19]!);
    }
    // All four variant nibbles occur: the two low bits still carry hash entropy.
    expect(variants).toEqual(new Set(['8', '9', 'a', 'b']));
  });

  test('spreads over the whole uuid: two near inputs share no long run', () => {
    const a = uuidOf(derivedId('Transaction', 'key-1')).replace(/-/g, '');
    const b = uuidOf(derivedId('Transaction', 'key-2')).replace(/-/g, '');
    let same = 0;
    for (let i = 0; i < a.length; i++) if (a[i] === b[i]) same++;
    // Version nibble always matches; random hex agrees ~1/16 of the time.
    expect(same).toBeLessThan(12);
  });
});

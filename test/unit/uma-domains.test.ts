import {
  DEFAULT_UMA_ROOT,
  defaultUmaDomain,
  domainOfUmaAddress,
  isOnPlatformDomain,
  isReservedUmaDomain,
  isUmaDomain,
  umaDomainOf,
} from '../../src/contexts/platforms/domain/uma-domains';
import { isUmaAddress } from '../../src/contexts/customers/domain/customer-rules';

const A = 'Platform:0b8a54c2-6f0e-4c61-9a49-1f2ab3c4d5e6';
const B = 'Platform:7d1e2f30-1111-4abc-8def-0123456789ab';

describe('UMA domains', () => {
  test.each(['pay.example.com', 'Pay.Example.COM', 'a.co', 'x-1.y-2.example'])('%s is a domain', (d) => expect(isUmaDomain(d)).toBe(true));
  test.each([
    'localhost',
    '',
    'pay..example.com',
    '-pay.example.com',
    'pay-.example.com',
    'https://pay.example.com',
    'pay.example.com/x',
    'pay example.com',
    `${'a'.repeat(64)}.com`,
  ])('%s is not a domain', (d) => expect(isUmaDomain(d)).toBe(false));

  test('default domains are distinct per platform, under the root, and carry valid addresses', () => {
    expect(defaultUmaDomain(A)).toBe(`0b8a54c2-6f0e-4c61-9a49-1f2ab3c4d5e6.${DEFAULT_UMA_ROOT}`);
    expect(defaultUmaDomain(A)).not.toBe(defaultUmaDomain(B));
    expect(isUmaAddress(`$alice@${defaultUmaDomain(A)}`)).toBe(true);
    // Ids that are not a DNS label get a digest label.
    expect(defaultUmaDomain('Platform:a_b')).toMatch(new RegExp(`^[0-9a-f]{32}\\.${DEFAULT_UMA_ROOT.replace(/\./g, '\\.')}$`));
  });

  test("the root and its subdomains are reserved, except a platform's own default", () => {
    expect(isReservedUmaDomain(DEFAULT_UMA_ROOT, A)).toBe(true);
    expect(isReservedUmaDomain(defaultUmaDomain(B), A)).toBe(true);
    expect(isReservedUmaDomain(`x.${defaultUmaDomain(A)}`, A)).toBe(true);
    expect(isReservedUmaDomain(defaultUmaDomain(A).toUpperCase(), A)).toBe(false);
    expect(isReservedUmaDomain('uma.local', A)).toBe(false);
    expect(isReservedUmaDomain('evilsandbox.uma.local', A)).toBe(false);
  });

  test("an address is on the platform's domain, or on its default while it has none (letter case aside)", () => {
    expect(domainOfUmaAddress('$ceo@Alice.example')).toBe('Alice.example');
    expect(umaDomainOf({ id: A, umaDomain: null })).toBe(defaultUmaDomain(A));
    expect(isOnPlatformDomain('$ceo@ALICE.example', { id: A, umaDomain: 'alice.example' })).toBe(true);
    expect(isOnPlatformDomain(`$ceo@${defaultUmaDomain(A)}`, { id: A, umaDomain: 'alice.example' })).toBe(false);
    expect(isOnPlatformDomain('$ceo@alice.example', { id: B, umaDomain: null })).toBe(false);
    expect(isOnPlatformDomain(`$ceo@${defaultUmaDomain(B)}`, { id: B })).toBe(true);
  });
});

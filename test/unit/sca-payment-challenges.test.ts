import { paymentBinding } from '../../src/contexts/sca/domain/payment-binding';
import { challengePurposes, challengeTtlMs, MAX_RESENDS, nextStep, paymentFactor, resendRefusal } from '../../src/contexts/sca/domain/payment-challenges';
import { isPending, scaChallengeView, type QuoteChallenge } from '../../src/contexts/payments/domain/quote-challenge';

const link = { quoteId: 'Quote:1', purpose: 'PAYOUT', currency: 'EUR', amount: 10_000n, payee: 'ExternalAccount:a' };

describe('dynamic linking: a challenge is bound to its amount and payee', () => {
  test('the same payment binds the same; another amount, payee, quote or purpose binds differently', () => {
    expect(paymentBinding(link)).toBe(paymentBinding({ ...link }));
    for (const changed of [{ amount: 10_001n }, { payee: 'ExternalAccount:b' }, { quoteId: 'Quote:2' }, { purpose: 'FX_CONVERSION' }, { currency: 'USD' }]) {
      expect(paymentBinding({ ...link, ...changed })).not.toBe(paymentBinding(link));
    }
  });

  test('the binding is a digest: it does not spell out the payment', () => {
    expect(paymentBinding(link)).toMatch(/^payment:[A-Za-z0-9_-]{43}$/);
  });
});

describe('the factor of a payment challenge', () => {
  test('SMS_OTP by default, PASSKEY when asked; TOTP never authorizes a payment (it carries no link)', () => {
    expect(paymentFactor(undefined)).toBe('SMS_OTP');
    expect(paymentFactor(null)).toBe('SMS_OTP');
    expect(paymentFactor('PASSKEY')).toBe('PASSKEY');
    expect(paymentFactor('TOTP')).toBe('SMS_OTP');
  });
});

describe('how many authorizations a quote needs', () => {
  test('a cross-currency real-time quote: the conversion, then the payout; a same-currency one: the payout', () => {
    expect(challengePurposes('QUOTE_FUNDING', 'USD', 'EUR')).toEqual(['FX_CONVERSION', 'PAYOUT']);
    expect(challengePurposes('QUOTE_FUNDING', 'EUR', 'EUR')).toEqual(['PAYOUT']);
  });

  test('an execution is authorized by a single challenge, whatever its currencies', () => {
    expect(challengePurposes('HELD_EXECUTION', 'USD', 'EUR')).toEqual(['PAYOUT']);
  });

  test('the next step, until the last', () => {
    expect(nextStep(['FX_CONVERSION', 'PAYOUT'], 0)).toBe(1);
    expect(nextStep(['FX_CONVERSION', 'PAYOUT'], 1)).toBeNull();
    expect(nextStep(['PAYOUT'], 0)).toBeNull();
  });
});

describe('a challenge lifetime', () => {
  const now = new Date('2026-12-03T10:00:00Z');
  test('its own, when the quote cannot expire before it (a held execution)', () => {
    expect(challengeTtlMs(now, 300_000, null)).toBe(300_000);
  });
  test("never past the quote's expiry (a real-time quote's instructions are worthless after it)", () => {
    expect(challengeTtlMs(now, 300_000, new Date(now.getTime() + 60_000))).toBe(60_000);
    expect(challengeTtlMs(now, 300_000, new Date(now.getTime() + 600_000))).toBe(300_000);
  });
});

describe('resending a code', () => {
  test('an SMS challenge that is pending, up to the limit; a passkey has no code; an ended challenge nothing', () => {
    expect(resendRefusal({ factor: 'SMS_OTP', pending: true, resends: 0 })).toBeNull();
    expect(resendRefusal({ factor: 'SMS_OTP', pending: true, resends: MAX_RESENDS })).toBe('TOO_MANY');
    expect(resendRefusal({ factor: 'PASSKEY', pending: true, resends: 0 })).toBe('NOT_RESENDABLE');
    expect(resendRefusal({ factor: 'SMS_OTP', pending: false, resends: 0 })).toBe('NOT_PENDING');
  });
});

describe("the quote's challenge as the API shows it", () => {
  const challenge: QuoteChallenge = {
    id: 'ScaChallenge:1',
    expiresAt: '2026-12-03T10:05:00.000Z',
    factor: 'SMS_OTP',
    availableFactors: ['SMS_OTP'],
    purpose: 'PAYOUT',
    passkeyAssertionOptions: null,
    passkeyAllowedOrigins: null,
    kind: 'HELD_EXECUTION',
    step: 0,
    purposes: ['PAYOUT'],
  };
  test("the reference's ScaChallenge fields only (where the quote is in its sequence stays inside)", () => {
    expect(Object.keys(scaChallengeView(challenge)).sort()).toEqual(
      ['availableFactors', 'expiresAt', 'factor', 'id', 'passkeyAllowedOrigins', 'passkeyAssertionOptions', 'purpose'].sort(),
    );
  });
  test('pending until authorized', () => {
    expect(isPending(challenge)).toBe(true);
    expect(isPending({ ...challenge, authorizedAt: '2026-12-03T10:01:00.000Z' })).toBe(false);
    expect(isPending(null)).toBe(false);
  });
});

import { ExternalAccountCreateSchema } from '../../src/contexts/external-accounts/schemas/external-account-schemas';
import { ACCOUNT_TYPES, accountTypeSpec } from '../../src/contexts/external-accounts/domain/account-types';
import { primaryIdentifier } from '../../src/contexts/external-accounts/domain/account-identity';
import { identifierProblem } from '../../src/contexts/external-accounts/domain/identifier-checks';
import { register } from '../../src/contexts/external-accounts/domain/registration';
import { SANDBOX_ACCOUNTS } from '../../src/contexts/external-accounts/domain/sandbox-values';
import { registrationProblems } from '../../src/contexts/external-accounts/services/external-accounts';
import { payoutPlan } from '../../src/contexts/payments/domain/payout-scenarios';
import type { Platform } from '../../src/contexts/platforms/entities';

/** The sandbox values docs/payments.md lists and the API document's examples use: one per account type, each registers. */

const platform = { region: 'US', counterpartyInformationRequired: false } as Platform;

function beneficiaryFor(accountType: string) {
  const spec = accountTypeSpec(accountType);
  if (spec?.kind !== 'FIAT') return {};
  const needs = spec.beneficiary.alsoRequires;
  return {
    beneficiary: {
      beneficiaryType: 'INDIVIDUAL',
      fullName: 'Jane Doe',
      ...(needs.includes('address') ? { address: { line1: '1 Main St', postalCode: '10001', country: 'US' } } : {}),
      ...(needs.includes('countryOfResidence') ? { countryOfResidence: 'US' } : {}),
      ...(needs.includes('phoneNumber') ? { phoneNumber: '+14155550123' } : {}),
    },
  };
}

test('every account type has sandbox values', () => {
  expect(ACCOUNT_TYPES.map((t) => t.accountType).filter((t) => !SANDBOX_ACCOUNTS[t])).toEqual([]);
});

test.each(Object.entries(SANDBOX_ACCOUNTS))(
  '%s: the sandbox values register (ACTIVE; US: PENDING its validation window) and are paid out at once',
  (accountType, values) => {
    const spec = accountTypeSpec(accountType)!;
    const body = { customerId: 'Customer:1', currency: spec.currencies[0] ?? 'USD', accountInfo: { accountType, ...values, ...beneficiaryFor(accountType) } };
    const parsed = ExternalAccountCreateSchema.safeParse(body);
    expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
    expect(registrationProblems(platform, body)).toEqual([]);
    const registration = register({ info: body.accountInfo, environment: 'SANDBOX', platform, now: new Date() });
    expect(registration.status).toBe(accountType === 'USD_ACCOUNT' ? 'PENDING' : 'ACTIVE');
    expect(['MATCHED', null]).toContain(registration.beneficiaryVerificationStatus);
    expect(payoutPlan('SANDBOX', primaryIdentifier(body.accountInfo))).toEqual({ outcome: 'COMPLETES', afterSeconds: 0 });
  },
);

test("the sample app's CLABE and the reference's example stay refused: their check digit is wrong", () => {
  expect(identifierProblem('clabe', '014027000005555601')).toMatch(/check digit/);
  expect(identifierProblem('clabe', '123456789012345678')).toMatch(/check digit/);
  expect(identifierProblem('clabe', SANDBOX_ACCOUNTS.MXN_ACCOUNT!.clabeNumber!)).toBeUndefined();
});

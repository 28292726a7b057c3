/** Request bodies for external accounts, valid for their rails unless a test changes them. */

export const individual = (fullName = 'Jane Doe') => ({ beneficiaryType: 'INDIVIDUAL', fullName });

/** An IBAN with correct check digits for a country and BBAN (ISO 13616 mod-97). */
export function ibanOf(country: string, bban: string): string {
  const digits = `${bban}${country}00`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let remainder = 0;
  for (const d of digits) remainder = (remainder * 10 + Number(d)) % 97;
  return `${country}${String(98 - remainder).padStart(2, '0')}${bban}`;
}

export const gbpAccount = (accountNumber: string, fullName = 'Jane Doe') => ({
  currency: 'GBP',
  accountInfo: { accountType: 'GBP_ACCOUNT', sortCode: '040004', accountNumber, beneficiary: individual(fullName) },
});

export const usdAccount = (accountNumber = '123456789', extra: Record<string, unknown> = {}) => ({
  currency: 'USD',
  accountInfo: {
    accountType: 'USD_ACCOUNT',
    routingNumber: '021000021',
    accountNumber,
    bankAccountType: 'CHECKING',
    bankName: 'Chase Bank',
    beneficiary: individual(),
    ...extra,
  },
});

export const eurAccount = (iban = 'DE89370400440532013000') => ({
  currency: 'EUR',
  accountInfo: { accountType: 'EUR_ACCOUNT', iban, beneficiary: { ...individual(), countryOfResidence: 'DE' } },
});

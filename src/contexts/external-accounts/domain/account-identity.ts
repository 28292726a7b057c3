import { accountTypeSpec } from './account-types';

/** Account information as validated by the API (identifiers already in the rail's form). */
export type AccountInfo = { accountType: string } & Record<string, unknown>;

const str = (info: AccountInfo, field: string) => (typeof info[field] === 'string' ? (info[field] as string) : undefined);

/**
 * The identifier the rail addresses the account by, in order of precedence: it selects the
 * sandbox scenario (its last three digits) and is what a name check is run against.
 */
export function primaryIdentifier(info: AccountInfo): string {
  for (const field of ['iban', 'clabeNumber', 'pixKey', 'vpa', 'accountNumber', 'phoneNumber', 'address', 'lightningAddress', 'bolt12', 'invoice']) {
    const value = str(info, field);
    if (value) return value;
  }
  return '';
}

/**
 * What makes two registrations "the same account" for one owner (409 DUPLICATE_EXTERNAL_ACCOUNT):
 * the account kind, the currency it holds and the coordinates its rail routes by — never names,
 * beneficiaries or the caller's own reference. Per rail:
 * - IBAN rails: the IBAN; US: routing + account number; UK: sort code + account number;
 *   Canada: institution + transit + account; Mexico: the CLABE; Brazil: the PIX key (with its type);
 *   India: the UPI id, or IFSC + account number;
 * - banks chosen by name: the institution (case-insensitive) + branch + account number, or the
 *   mobile-money phone number; mobile money: provider + phone number; SWIFT: BIC + IBAN or account;
 * - wallets: the address (EVM addresses compared case-insensitively: the checksum is only a case
 *   pattern), per chain — the same address on Base and on Ethereum are two accounts;
 * - Lightning: the invoice, offer or address, case-insensitively.
 */
export function duplicateKey(currency: string, info: AccountInfo): string {
  const spec = accountTypeSpec(info.accountType);
  const accountType = spec?.accountType ?? info.accountType;
  const lower = (field: string) => str(info, field)?.toLowerCase() ?? '';
  const coordinates = (fields: string[]) => fields.map((f) => str(info, f) ?? '').join('/');
  let parts: string;
  if (spec?.kind === 'WALLET') {
    parts = spec.addressFormat === 'EVM' ? lower('address') : (str(info, 'address') ?? '');
  } else if (spec?.kind === 'LIGHTNING') {
    parts = [lower('lightningAddress'), lower('bolt12'), lower('invoice')].join('/');
  } else if (str(info, 'iban') && accountType !== 'SWIFT_ACCOUNT') {
    parts = `iban:${str(info, 'iban')}`;
  } else {
    switch (accountType) {
      case 'USD_ACCOUNT':
        parts = coordinates(['routingNumber', 'accountNumber']);
        break;
      case 'GBP_ACCOUNT':
        parts = coordinates(['sortCode', 'accountNumber']);
        break;
      case 'CAD_ACCOUNT':
        parts = coordinates(['bankCode', 'branchCode', 'accountNumber']);
        break;
      case 'MXN_ACCOUNT':
        parts = coordinates(['clabeNumber']);
        break;
      case 'BRL_ACCOUNT':
        parts = `${str(info, 'pixKeyType')}:${str(info, 'pixKeyType') === 'EMAIL' || str(info, 'pixKeyType') === 'RANDOM' ? lower('pixKey') : str(info, 'pixKey')}`;
        break;
      case 'INR_ACCOUNT':
        parts = str(info, 'vpa') ? `vpa:${lower('vpa')}` : coordinates(['ifsc', 'accountNumber']);
        break;
      case 'SWIFT_ACCOUNT':
        parts = `${(str(info, 'swiftCode') ?? '').slice(0, 8)}/${str(info, 'iban') ?? str(info, 'accountNumber') ?? ''}`;
        break;
      default:
        // Institution-routed banks and mobile money: the institution, then the account or phone.
        parts = [
          lower('bankName') || lower('provider'),
          str(info, 'branchCode') ?? '',
          str(info, 'accountNumber') ? `acct:${str(info, 'accountNumber')}` : `phone:${str(info, 'phoneNumber') ?? ''}`,
        ].join('/');
    }
  }
  return `${accountType}|${currency}|${parts}`;
}

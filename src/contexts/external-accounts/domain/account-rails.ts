import { accountTypeSpec } from './account-types';
import type { AccountInfo } from './account-identity';

/**
 * The rails a fiat account's coordinates reach: an INR account by UPI with a UPI id and by its
 * `rail` with a bank account; a bank-or-mobile-money account by the bank with an account number
 * or IBAN and by mobile money with a phone number; other kinds by every rail of their type.
 * Wallets and Lightning name no rail (undefined).
 */
export function reachableRails(info: AccountInfo): string[] | undefined {
  const spec = accountTypeSpec(info.accountType);
  if (spec?.kind !== 'FIAT') return undefined;
  const has = (field: string) => typeof info[field] === 'string';
  if (info.accountType === 'INR_ACCOUNT')
    return [...(has('vpa') ? ['UPI'] : []), ...(has('accountNumber') && typeof info.rail === 'string' && info.rail !== 'UPI' ? [info.rail] : [])];
  if (spec.paymentRails.includes('MOBILE_MONEY') && spec.paymentRails.length > 1) {
    const bank = has('accountNumber') || has('iban');
    return spec.paymentRails.filter((rail) => (rail === 'MOBILE_MONEY' ? has('phoneNumber') : bank));
  }
  return [...spec.paymentRails];
}

/** Why a rail the platform chose at registration cannot be used for this account, per entry (null: it can). */
export function chosenRailProblem(info: AccountInfo, chosen: readonly string[], index: number): { constraint: 'unique' | 'reachable'; message: string } | null {
  const rail = chosen[index]!;
  if (chosen.indexOf(rail) !== index) return { constraint: 'unique', message: `${rail} is named twice` };
  const reachable = reachableRails(info) ?? [];
  if (!reachable.includes(rail)) {
    return { constraint: 'reachable', message: `this account's fields do not reach ${rail}; they reach ${reachable.join(', ') || 'no rail'}` };
  }
  return null;
}

/**
 * The rails a payout to the account may use, first the one used when a quote names none: the
 * platform's choice in its order, else every rail the account reaches.
 */
export function railsInUse(info: AccountInfo, chosen: readonly string[] | null | undefined): string[] | undefined {
  const reachable = reachableRails(info);
  return reachable && chosen ? chosen.filter((rail) => reachable.includes(rail)) : reachable;
}

import type { IdentifierKind } from './account-types';
import { checkAbaRoutingNumber } from '../../../domain/identifiers/aba-routing-number';
import { checkBic } from '../../../domain/identifiers/bic';
import type { IdentifierCheck } from '../../../domain/identifiers/check';
import { checkClabe } from '../../../domain/identifiers/clabe';
import { checkIban } from '../../../domain/identifiers/iban';
import { checkIfsc } from '../../../domain/identifiers/ifsc';
import { checkE164 } from '../../../domain/identifiers/phone';
import { checkSortCode } from '../../../domain/identifiers/sort-code';
import { checkUpiVpa } from '../../../domain/identifiers/upi';
import { checkBolt12Offer, checkLightningAddress, checkLightningInvoice } from '../../../domain/identifiers/lightning';
import { checkWalletAddress } from '../../../domain/identifiers/wallet-addresses';

const accept = (value: string): IdentifierCheck => ({ valid: true, normalized: value });

/** The rail's own check of one identifier (checksums, registries, encodings), by kind. */
export function checkIdentifier(kind: IdentifierKind, value: string, accountType?: string): IdentifierCheck {
  switch (kind) {
    case 'abaRoutingNumber':
      return checkAbaRoutingNumber(value);
    case 'iban':
      return checkIban(value);
    case 'clabe':
      return checkClabe(value);
    case 'sortCode':
      return checkSortCode(value);
    case 'ifsc':
      return checkIfsc(value);
    case 'bic':
      return checkBic(value);
    case 'phone':
      return checkE164(value);
    case 'upiVpa':
      return checkUpiVpa(value);
    case 'wallet':
      return accountType ? checkWalletAddress(accountType, value) : accept(value);
    case 'lightningInvoice':
      return checkLightningInvoice(value);
    case 'bolt12Offer':
      return checkBolt12Offer(value);
    case 'lightningAddress':
      return checkLightningAddress(value);
  }
}

/** The problem with an identifier, or undefined when the rail would accept it. */
export function identifierProblem(kind: IdentifierKind, value: string, accountType?: string): string | undefined {
  const result = checkIdentifier(kind, value, accountType);
  return result.valid ? undefined : result.reason;
}

/** The identifier in the form the rail uses (call only on values that passed the check). */
export function normalizedIdentifier(kind: IdentifierKind, value: string, accountType?: string): string {
  const result = checkIdentifier(kind, value, accountType);
  return result.valid ? result.normalized : value;
}

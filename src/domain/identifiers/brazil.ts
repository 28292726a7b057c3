/**
 * Brazilian taxpayer numbers and Pix keys. CPF and CNPJ check digits follow the Receita Federal's
 * modulo-11 rules (CPF: weights 10..2 then 11..2; CNPJ: weights 5..2,9..2 then 6..2,9..2; a
 * remainder below 2 gives 0). The CNPJ rule also covers the alphanumeric CNPJ of Receita Federal
 * Normative Instruction 2,229/2024 (letters in the first 12 characters, each counting as its
 * ASCII code less 48). Pix key formats follow the Banco Central do Brasil's DICT rules.
 */
import { accepted, refused, type IdentifierCheck } from './check';
import { checkE164 } from './phone';
import { checkEmailAddress } from './email';

/** Modulo-11 check digit over `values` with `weights`, as CPF and CNPJ define it. */
function mod11CheckDigit(values: number[], weights: number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += values[i] * weights[i];
  const remainder = sum % 11;
  return remainder < 2 ? 0 : 11 - remainder;
}

const CPF_FIRST_WEIGHTS = [10, 9, 8, 7, 6, 5, 4, 3, 2];
const CPF_SECOND_WEIGHTS = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2];

/**
 * Checks a CPF. Both `12345678909` and the formatted `123.456.789-09` are accepted; the normalized
 * form is the 11 digits.
 */
export function checkCpf(value: string): IdentifierCheck {
  const input = value.trim();
  if (!/^[0-9.-]*$/.test(input)) return refused('CPF must contain digits only, optionally formatted as 000.000.000-00');
  const match = /^([0-9]{3})\.?([0-9]{3})\.?([0-9]{3})-?([0-9]{2})$/.exec(input);
  if (!match || (input.length !== 11 && input.length !== 14)) return refused('CPF must be 11 digits, written as 00000000000 or 000.000.000-00');
  const cpf = match.slice(1).join('');
  if (/^(.)\1*$/.test(cpf)) return refused('CPF cannot be one digit repeated');
  const values = [...cpf].map(Number);
  if (mod11CheckDigit(values, CPF_FIRST_WEIGHTS) !== values[9] || mod11CheckDigit(values, CPF_SECOND_WEIGHTS) !== values[10]) {
    return refused('CPF check digits do not match');
  }
  return accepted(cpf);
}

const CNPJ_FIRST_WEIGHTS = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_SECOND_WEIGHTS = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

/**
 * Checks a CNPJ. Both `11222333000181` and the formatted `11.222.333/0001-81` are accepted, as is
 * the alphanumeric CNPJ (upper or lower case); the normalized form is the 14 characters, upper case.
 */
export function checkCnpj(value: string): IdentifierCheck {
  const trimmed = value.trim();
  // Checked before upper-casing, which turns some non-ASCII letters into ASCII ones (ß into SS).
  if (!/^[0-9A-Za-z./-]*$/.test(trimmed)) return refused('CNPJ must contain letters and digits only, optionally formatted as 00.000.000/0000-00');
  const input = trimmed.toUpperCase();
  const match = /^([0-9A-Z]{2})\.?([0-9A-Z]{3})\.?([0-9A-Z]{3})\/?([0-9A-Z]{4})-?([0-9]{2})$/.exec(input);
  if (!match || (input.length !== 14 && input.length !== 18)) {
    return refused('CNPJ must be 14 characters ending in 2 check digits, written as 00000000000000 or 00.000.000/0000-00');
  }
  const cnpj = match.slice(1).join('');
  if (/^(.)\1*$/.test(cnpj)) return refused('CNPJ cannot be one character repeated');
  const values = [...cnpj].map((char) => char.charCodeAt(0) - 48);
  if (mod11CheckDigit(values, CNPJ_FIRST_WEIGHTS) !== values[12] || mod11CheckDigit(values, CNPJ_SECOND_WEIGHTS) !== values[13]) {
    return refused('CNPJ check digits do not match');
  }
  return accepted(cnpj);
}

/** The kinds of Pix key (DICT key types; RANDOM is the EVP, a UUID). */
export type PixKeyType = 'CPF' | 'CNPJ' | 'EMAIL' | 'PHONE' | 'RANDOM';

/** DICT's maximum length for an e-mail key. */
const PIX_EMAIL_MAX_LENGTH = 77;
const BRAZIL_PHONE = /^\+55[1-9][0-9]{9,10}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Checks a Pix key of the given type. Normalized forms: CPF and CNPJ as by `checkCpf` and
 * `checkCnpj`; e-mail in lower case; phone as `+55` and 10 or 11 digits (area code, then the
 * number); random key as a lower-case UUID.
 */
export function checkPixKey(key: string, keyType: PixKeyType): IdentifierCheck {
  switch (keyType) {
    case 'CPF':
      return checkCpf(key);
    case 'CNPJ':
      return checkCnpj(key);
    case 'EMAIL': {
      const check = checkEmailAddress(key);
      if (!check.valid) return check;
      if (check.normalized.length > PIX_EMAIL_MAX_LENGTH) return refused(`Pix e-mail key must be at most ${PIX_EMAIL_MAX_LENGTH} characters`);
      return accepted(check.normalized.toLowerCase());
    }
    case 'PHONE': {
      const check = checkE164(key);
      if (!check.valid) return check;
      if (!BRAZIL_PHONE.test(check.normalized)) return refused('Pix phone key must be +55 followed by a 2-digit area code and an 8- or 9-digit number');
      return accepted(check.normalized);
    }
    case 'RANDOM': {
      const uuid = key.trim();
      if (!UUID.test(uuid)) return refused('Pix random key must be a UUID (8-4-4-4-12 hexadecimal digits)');
      return accepted(uuid.toLowerCase());
    }
    default:
      return refused('Pix key type must be CPF, CNPJ, EMAIL, PHONE or RANDOM');
  }
}

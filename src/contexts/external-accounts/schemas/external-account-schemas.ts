import { z } from '../../../api/openapi-registry';
import { PageQuerySchema, pageOf } from '../../../api/schemas/common';
import { AddressSchema } from '../../customers';
import { COUNTRY_CODES } from '../../../domain/countries';
import {
  ACCOUNT_TYPES,
  LIGHTNING_ALIAS,
  PIX_KEY_TYPES,
  type FiatAccountType,
  type FieldSpec,
  type IndividualBeneficiaryRule,
  type WalletAccountType,
} from '../domain/account-types';
import { EXTERNAL_ACCOUNT_STATUSES, OWNERSHIP_METHODS, OWNERSHIP_TYPES } from '../domain/account-status';
import { identifierProblem } from '../domain/identifier-checks';
import { chosenRailProblem } from '../domain/account-rails';
import { sandboxValue } from '../domain/sandbox-values';
import type { AccountInfo } from '../domain/account-identity';
import { checkCnpj, checkCpf, checkPixKey, type PixKeyType } from '../../../domain/identifiers/brazil';

const MAX_FULL_NAME = 250;
const CountrySchema = z.enum(COUNTRY_CODES as [string, ...string[]]).openapi({ description: 'ISO 3166-1 alpha-2', example: 'US' });
const DateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .openapi({ format: 'date', example: '1990-01-15' });
const PhoneSchema = z
  .string()
  .regex(/^\+[0-9]{6,14}$/, 'must be an international phone number such as +14155550123')
  .openapi({ example: '+14155550123' });

export const OwnershipTypeSchema = z.enum(OWNERSHIP_TYPES).openapi('OwnershipType');
export const ExternalAccountStatusSchema = z.enum(EXTERNAL_ACCOUNT_STATUSES).openapi('ExternalAccountStatus');
export const BeneficiaryVerificationStatusSchema = z
  .enum(['MATCHED', 'PARTIAL_MATCH', 'NOT_MATCHED', 'UNSUPPORTED', 'CHECKED_BY_RECEIVING_FI', 'PENDING'])
  .openapi('BeneficiaryVerificationStatus');

/** One account-info field from its rule in the account-type table, with the rail's identifier check and a sandbox value as its example. */
function fieldSchema(field: string, spec: FieldSpec, example: string | undefined): z.ZodType {
  let schema: z.ZodType;
  if (spec.values) {
    schema = z.enum(spec.values as [string, ...string[]]);
  } else {
    let text = z.string();
    if (spec.minLength !== undefined) text = text.min(spec.minLength);
    if (spec.maxLength !== undefined) text = text.max(spec.maxLength);
    if (spec.pattern) text = text.regex(new RegExp(spec.pattern), `${field} must match ${spec.pattern}`);
    const kind = spec.check;
    schema = kind
      ? text.superRefine((value, ctx) => {
          // The pattern reports malformed values; the rail's own check (checksums) runs on the rest.
          if (spec.pattern && !new RegExp(spec.pattern).test(value)) return;
          const problem = identifierProblem(kind, value);
          if (problem) ctx.addIssue({ code: 'custom', message: `${field}: ${problem}`, params: { constraint: 'format' } });
        })
      : text;
  }
  if (example !== undefined) schema = schema.openapi({ example });
  return spec.required ? schema : schema.optional();
}

const BusinessBeneficiarySchema = z
  .object({
    beneficiaryType: z.literal('BUSINESS'),
    legalName: z.string().min(1).max(MAX_FULL_NAME),
    registrationNumber: z.string().min(1).max(100).optional(),
    taxId: z.string().min(1).max(100).optional(),
    email: z.email().max(255).optional(),
    phoneNumber: PhoneSchema.optional(),
    countryOfResidence: CountrySchema.optional(),
    address: AddressSchema.optional(),
  })
  .strict()
  .openapi('BusinessBeneficiary');

function individualBeneficiary(prefix: string, rule: IndividualBeneficiaryRule) {
  const needs = (field: IndividualBeneficiaryRule['alsoRequires'][number]) => rule.alsoRequires.includes(field);
  const shape = {
    beneficiaryType: z.literal('INDIVIDUAL'),
    fullName: z.string().min(1).max(MAX_FULL_NAME),
    birthDate: DateSchema.optional(),
    nationality: CountrySchema.optional(),
    email: z.email().max(255).optional(),
    phoneNumber: needs('phoneNumber') ? PhoneSchema : PhoneSchema.optional(),
    countryOfResidence: needs('countryOfResidence') ? CountrySchema : CountrySchema.optional(),
    address: needs('address') ? AddressSchema : AddressSchema.optional(),
    ...(rule.extra === 'registrationNumber' ? { registrationNumber: z.string().min(1).max(100).optional() } : {}),
    ...(rule.extra === 'colombianDocument'
      ? { documentType: z.enum(['CC', 'CE', 'TI', 'NIT', 'PP']).optional(), documentNumber: z.string().min(1).max(50).optional() }
      : {}),
  };
  return z.object(shape).strict().openapi(`${prefix}Beneficiary`);
}

const WalletIndividualBeneficiarySchema = z
  .object({ beneficiaryType: z.literal('INDIVIDUAL'), fullName: z.string().min(1).max(MAX_FULL_NAME), countryOfResidence: CountrySchema })
  .strict()
  .openapi('WalletIndividualBeneficiary');
const WalletBeneficiarySchema = z
  .discriminatedUnion('beneficiaryType', [WalletIndividualBeneficiarySchema, BusinessBeneficiarySchema])
  .openapi('WalletBeneficiary');

/** At least one complete group of fields (a bank rail's or the mobile-money rail's). */
function requireOneGroup(groups: readonly (readonly string[])[]) {
  return (info: Record<string, unknown>, ctx: z.core.$RefinementCtx) => {
    if (groups.some((group) => group.every((f) => info[f] !== undefined))) return;
    const described = groups.map((g) => g.join(' + ')).join(', or ');
    for (const field of groups[0]!.filter((f) => info[f] === undefined)) {
      ctx.addIssue({ code: 'custom', path: [field], message: `one of these is required: ${described}`, params: { constraint: 'required' } });
    }
  };
}

/** A PIX key must be valid for its declared type; the tax id is a CPF (11 digits) or a CNPJ (14). */
function pixProblems(info: Record<string, unknown>, ctx: z.core.$RefinementCtx) {
  if (typeof info.pixKey === 'string' && typeof info.pixKeyType === 'string' && (PIX_KEY_TYPES as readonly string[]).includes(info.pixKeyType)) {
    const key = checkPixKey(info.pixKey, info.pixKeyType as PixKeyType);
    if (!key.valid) ctx.addIssue({ code: 'custom', path: ['pixKey'], message: `pixKey: ${key.reason}`, params: { constraint: 'format' } });
  }
  if (typeof info.taxId === 'string' && /^([0-9]{11}|[0-9]{14})$/.test(info.taxId)) {
    const tax = info.taxId.length === 11 ? checkCpf(info.taxId) : checkCnpj(info.taxId);
    if (!tax.valid) ctx.addIssue({ code: 'custom', path: ['taxId'], message: `taxId: ${tax.reason}`, params: { constraint: 'format' } });
  } else if (typeof info.taxId === 'string' && /^[0-9]{12,13}$/.test(info.taxId)) {
    ctx.addIssue({ code: 'custom', path: ['taxId'], message: 'taxId must be a CPF (11 digits) or a CNPJ (14 digits)', params: { constraint: 'format' } });
  }
}

/**
 * Each rail the platform chose must be named once and reachable by the account's fields (a rail
 * its type lacks is the enum's to report). Runs even when other fields fail, so one answer lists
 * every problem.
 */
function chosenRailProblems(typeRails: readonly string[]) {
  return z.superRefine(
    (value: unknown, ctx) => {
      const info = value as Record<string, unknown>;
      const chosen = info.paymentRails as string[];
      chosen.forEach((rail, index) => {
        const problem = typeRails.includes(rail) ? chosenRailProblem(info as AccountInfo, chosen, index) : null;
        if (problem) ctx.addIssue({ code: 'custom', path: ['paymentRails', index], message: problem.message, params: { constraint: problem.constraint } });
      });
    },
    {
      when: (payload) => typeof payload.value === 'object' && payload.value !== null && Array.isArray((payload.value as Record<string, unknown>).paymentRails),
    },
  );
}

function fiatVariant(spec: FiatAccountType, response: boolean) {
  const fields = Object.fromEntries(Object.entries(spec.fields).map(([name, rule]) => [name, fieldSchema(name, rule, sandboxValue(spec.accountType, name))]));
  const beneficiary = z.discriminatedUnion('beneficiaryType', [individualBeneficiary(spec.schemaPrefix, spec.beneficiary), BusinessBeneficiarySchema]);
  const shape: Record<string, z.ZodType> = { accountType: z.literal(spec.accountType), ...fields, beneficiary };
  // The spec's USD example carries the caller's reference inside accountInfo too.
  if (spec.accountType === 'USD_ACCOUNT') shape.platformAccountId = z.string().min(1).max(255).optional();
  const rails = z.array(z.enum(spec.paymentRails as [string, ...string[]]));
  shape.paymentRails = response
    ? rails.openapi({ description: 'The rails a payout to this account may use: those chosen at registration, else every rail its fields reach' })
    : rails
        .min(1)
        .optional()
        .openapi({
          description:
            "The rails the platform wants this account paid by (each one this account type supports and the account's fields reach); payouts use only these. Default: every rail the account reaches",
          example: [spec.paymentRails[0]!],
        });
  const object = z.object(shape).strict();
  let checked: z.ZodType = spec.anyOf ? object.superRefine(requireOneGroup(spec.anyOf)) : object;
  if (spec.accountType === 'BRL_ACCOUNT') checked = object.superRefine(pixProblems);
  if (!response) checked = checked.check(chosenRailProblems(spec.paymentRails));
  return checked.openapi(`${spec.schemaPrefix}ExternalAccount${response ? 'Info' : 'CreateInfo'}`);
}

function walletVariant(spec: WalletAccountType, response: boolean) {
  return z
    .object({
      accountType: z.literal(spec.accountType),
      address: z
        .string()
        .min(1)
        .max(200)
        .superRefine((value, ctx) => {
          const problem = identifierProblem('wallet', value, spec.accountType);
          if (problem) ctx.addIssue({ code: 'custom', message: `address: ${problem}`, params: { constraint: 'format' } });
        })
        .openapi({ example: sandboxValue(spec.accountType, 'address') }),
      vaspName: z.string().min(1).max(255).optional().openapi({ description: 'The custodian, from GET /vasps; absent for a self-custody wallet' }),
      beneficiary: WalletBeneficiarySchema.optional(),
    })
    .strict()
    .openapi(`${spec.schemaPrefix}ExternalAccount${response ? 'Info' : 'CreateInfo'}`);
}

const lightningField = (kind: 'lightningInvoice' | 'bolt12Offer' | 'lightningAddress', max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .superRefine((value, ctx) => {
      const problem = identifierProblem(kind, value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem, params: { constraint: 'format' } });
    })
    .optional();

function lightningVariant(response: boolean) {
  return z
    .object({
      accountType: z.enum(['LIGHTNING', LIGHTNING_ALIAS]),
      invoice: lightningField('lightningInvoice', 4096).openapi({ description: 'A single-use BOLT11 invoice' }),
      bolt12: lightningField('bolt12Offer', 4096).openapi({ description: 'A reusable BOLT12 offer' }),
      lightningAddress: lightningField('lightningAddress', 320).openapi({
        description: 'A Lightning address (user@domain)',
        example: sandboxValue('LIGHTNING', 'lightningAddress'),
      }),
    })
    .strict()
    .superRefine((info, ctx) => {
      const given = (['invoice', 'bolt12', 'lightningAddress'] as const).filter((f) => info[f] !== undefined);
      if (given.length !== 1) {
        ctx.addIssue({
          code: 'custom',
          path: ['invoice'],
          message: 'exactly one of invoice, bolt12 or lightningAddress is required',
          params: { constraint: given.length === 0 ? 'required' : 'oneOf' },
        });
      }
    })
    .openapi(`LightningExternalAccount${response ? 'Info' : 'CreateInfo'}`);
}

function accountInfoUnion(response: boolean) {
  const variants = ACCOUNT_TYPES.map((spec) =>
    spec.kind === 'FIAT' ? fiatVariant(spec, response) : spec.kind === 'WALLET' ? walletVariant(spec, response) : lightningVariant(response),
  );
  return z.discriminatedUnion('accountType', variants as never);
}

/** What a caller sends: one variant per accountType. */
export const ExternalAccountCreateInfoSchema = accountInfoUnion(false).openapi('ExternalAccountCreateInfoOneOf');
/** What the API returns: the same variants plus the rails the account is reachable by. */
export const ExternalAccountInfoSchema = accountInfoUnion(true).openapi('ExternalAccountInfoOneOf');

const commonCreateFields = {
  currency: z.string().min(3).max(5).openapi({ description: 'ISO 4217 code, or a crypto ticker for wallets', example: 'USD' }),
  platformAccountId: z.string().min(1).max(255).optional().openapi({ description: "The caller's own reference for the account" }),
  ownershipType: OwnershipTypeSchema.optional(),
  accountInfo: ExternalAccountCreateInfoSchema,
};

export const ExternalAccountCreateSchema = z
  .object({
    customerId: z.string().min(1).max(200),
    ...commonCreateFields,
    defaultUmaDepositAccount: z.boolean().default(false).openapi({ description: "Deposit the customer's UMA payments here; replaces any previous default" }),
  })
  .strict()
  .openapi('ExternalAccountCreateRequest');

export const PlatformExternalAccountCreateSchema = z.object(commonCreateFields).strict().openapi('PlatformExternalAccountCreateRequest');

export const ExternalAccountSchema = z
  .object({
    id: z.string().openapi({ example: 'ExternalAccount:a12dcbd6-dced-4ec4-b756-3c3a9ea3d965' }),
    customerId: z.string().nullable().openapi({ description: 'Null for an account of the platform itself' }),
    status: ExternalAccountStatusSchema,
    platformAccountId: z.string().optional(),
    ownershipType: OwnershipTypeSchema.optional(),
    currency: z.string(),
    defaultUmaDepositAccount: z.boolean(),
    beneficiaryVerificationStatus: BeneficiaryVerificationStatusSchema.optional(),
    beneficiaryVerifiedData: z.object({ fullName: z.string().optional() }).optional().openapi('BeneficiaryVerifiedData'),
    accountInfo: ExternalAccountInfoSchema,
  })
  .openapi('ExternalAccount');

export const ExternalAccountListSchema = pageOf(ExternalAccountSchema, 'ExternalAccountListResponse');

const listFilters = { currency: z.string().min(1).max(5).optional() };
export const ExternalAccountListQuerySchema = PageQuerySchema.extend({ ...listFilters, customerId: z.string().min(1).max(200).optional() });
export const PlatformExternalAccountListQuerySchema = PageQuerySchema.extend(listFilters);

export const OwnershipChallengeRequestSchema = z
  .object({ method: z.enum(OWNERSHIP_METHODS).openapi('OwnershipVerificationMethod') })
  .strict()
  .openapi('OwnershipChallengeRequest');

export const OwnershipChallengeSchema = z
  .discriminatedUnion('method', [
    z
      .object({ method: z.literal('WALLET_SIGNATURE'), messageToSign: z.string(), expiresAt: z.string().openapi({ format: 'date-time' }) })
      .openapi('WalletSignatureChallenge'),
    z
      .object({
        method: z.literal('LIVENESS'),
        verificationLink: z.string().openapi({ format: 'uri' }),
        token: z.string().optional(),
        expiresAt: z.string().openapi({ format: 'date-time' }),
      })
      .openapi('LivenessChallenge'),
  ])
  .openapi('OwnershipChallenge');

export const OwnershipVerifyRequestSchema = z
  .object({
    signature: z.string().min(1).max(1024),
    signatureScheme: z
      .enum(['bip137', 'electrum'])
      .optional()
      .openapi({ description: 'Spark wallets only: how the Bitcoin message signature is encoded; default bip137' }),
  })
  .strict()
  .openapi('OwnershipVerifyRequest');

export const LivenessOutcomeSchema = z
  .object({ result: z.enum(['PASSED', 'FAILED']) })
  .strict()
  .openapi('SandboxLivenessOutcome');

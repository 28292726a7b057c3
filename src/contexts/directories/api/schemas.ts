import { isCountryCode } from '../../../domain/countries';
import { SUPPORTED_CURRENCY_CODES } from '../../../domain/currencies';
import { z } from '../../../api/openapi-registry';
import { CurrencySchema, PageQuerySchema, pageOf } from '../../../api/schemas/common';
import { MAX_PAGE_SIZE } from '../../../domain/pagination';

const countryFilter = (description: string) =>
  z
    .string()
    .refine(isCountryCode, { message: 'must be an ISO 3166-1 alpha-2 country code in upper case, such as PH', params: { constraint: 'iso3166-1-alpha-2' } })
    .optional()
    .openapi({ description, example: 'PH' });

const currencyFilter = (description: string) =>
  z.enum(SUPPORTED_CURRENCY_CODES, { error: 'must be a currency code this API knows, such as PHP or KES' }).optional().openapi({ description, example: 'PHP' });

// ---------------------------------------------------------------------------------------------
// GET /discoveries

export const DiscoverySchema = z
  .object({
    bankName: z.string().openapi({
      description: 'Canonical name: send it as `bankName` when creating an external account (as `provider` for a mobile-money account)',
      example: 'BDO Unibank',
    }),
    displayName: z.string().openapi({ description: 'Name to show people', example: 'BDO Unibank' }),
    country: z.string().openapi({ description: 'ISO 3166-1 alpha-2 country code', example: 'PH' }),
    currency: z.string().openapi({ description: 'ISO 4217 currency code', example: 'PHP' }),
  })
  .openapi('Discovery');

export const DiscoveryListSchema = pageOf(DiscoverySchema, 'DiscoveryListResponse');

// The reference returns every institution and has no paging: a page only when limit or cursor is sent.
export const DiscoveryQuerySchema = PageQuerySchema.extend({
  limit: PageQuerySchema.shape.limit
    .unwrap()
    .optional()
    .openapi({ description: `1 to ${MAX_PAGE_SIZE}; without limit or cursor every institution is returned` }),
  country: countryFilter('Institutions of this country (ISO 3166-1 alpha-2)'),
  currency: currencyFilter('Institutions receiving this currency (ISO 4217)'),
});

// ---------------------------------------------------------------------------------------------
// GET /vasps

export const VaspSchema = z
  .object({
    vaspName: z.string().openapi({ description: 'Canonical name: send it as `vaspName` when declaring a VASP-hosted counterparty', example: 'Kraken' }),
    url: z.url().optional().openapi({ description: "The VASP's website, when known", example: 'https://www.kraken.com' }),
  })
  .openapi('Vasp', { description: 'A Virtual Asset Service Provider: an exchange or custodian' });

export const VaspListSchema = z
  .object({
    data: z.array(VaspSchema),
    hasMore: z.boolean(),
    nextCursor: z.string().optional().openapi({ description: 'Present when hasMore is true' }),
  })
  .openapi('VaspListResponse');

export const VaspQuerySchema = PageQuerySchema;

// ---------------------------------------------------------------------------------------------
// GET /uma-providers

export const UmaProviderSchema = z
  .object({
    name: z.string().openapi({ example: 'Coins.ph' }),
    supportedRegions: z.array(z.string()).openapi({ description: 'Countries served (ISO 3166-1 alpha-2)', example: ['PH'] }),
    domain: z.string().openapi({ description: 'Domain of its UMA addresses', example: 'coins.ph' }),
    logoUrl: z.url().optional(),
    supportedCurrencies: z.array(CurrencySchema),
    lei: z.string().optional().openapi({ description: 'Legal Entity Identifier, when known' }),
    allowListStatus: z.boolean().openapi({
      description: "Whether the provider is on the platform's allow list; platforms have no allow list of their own yet, so every provider is allowed (true)",
    }),
  })
  .openapi('UmaProvider');

export const UmaProviderListSchema = pageOf(UmaProviderSchema, 'UmaProviderListResponse');

export const UmaProviderQuerySchema = PageQuerySchema.extend({
  countryCode: countryFilter('Providers serving this country (ISO 3166-1 alpha-2)'),
  currencyCode: currencyFilter('Providers supporting this currency (ISO 4217)'),
  hasBlockedProviders: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'true'))
    .openapi({
      type: 'boolean',
      description: 'false leaves out providers not on the allow list; default true. Every provider is on the allow list today, so both return the same list',
    }),
  sortOrder: z.enum(['asc', 'desc']).default('desc').openapi({ description: 'By name: desc (the default, as in the reference) or asc' }),
});

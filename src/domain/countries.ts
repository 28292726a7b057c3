/**
 * ISO 3166-1 alpha-2: the 249 officially assigned country codes (user-assigned codes such as XK
 * and reserved ones such as UK are not countries here).
 */
export const COUNTRY_CODES: readonly string[] = [
  'AD', 'AE', 'AF', 'AG', 'AI', 'AL', 'AM', 'AO', 'AQ', 'AR', 'AS', 'AT', 'AU', 'AW', 'AX', 'AZ',
  'BA', 'BB', 'BD', 'BE', 'BF', 'BG', 'BH', 'BI', 'BJ', 'BL', 'BM', 'BN', 'BO', 'BQ', 'BR', 'BS', 'BT', 'BV', 'BW', 'BY', 'BZ',
  'CA', 'CC', 'CD', 'CF', 'CG', 'CH', 'CI', 'CK', 'CL', 'CM', 'CN', 'CO', 'CR', 'CU', 'CV', 'CW', 'CX', 'CY', 'CZ',
  'DE', 'DJ', 'DK', 'DM', 'DO', 'DZ',
  'EC', 'EE', 'EG', 'EH', 'ER', 'ES', 'ET',
  'FI', 'FJ', 'FK', 'FM', 'FO', 'FR',
  'GA', 'GB', 'GD', 'GE', 'GF', 'GG', 'GH', 'GI', 'GL', 'GM', 'GN', 'GP', 'GQ', 'GR', 'GS', 'GT', 'GU', 'GW', 'GY',
  'HK', 'HM', 'HN', 'HR', 'HT', 'HU',
  'ID', 'IE', 'IL', 'IM', 'IN', 'IO', 'IQ', 'IR', 'IS', 'IT',
  'JE', 'JM', 'JO', 'JP',
  'KE', 'KG', 'KH', 'KI', 'KM', 'KN', 'KP', 'KR', 'KW', 'KY', 'KZ',
  'LA', 'LB', 'LC', 'LI', 'LK', 'LR', 'LS', 'LT', 'LU', 'LV', 'LY',
  'MA', 'MC', 'MD', 'ME', 'MF', 'MG', 'MH', 'MK', 'ML', 'MM', 'MN', 'MO', 'MP', 'MQ', 'MR', 'MS', 'MT', 'MU', 'MV', 'MW', 'MX', 'MY', 'MZ',
  'NA', 'NC', 'NE', 'NF', 'NG', 'NI', 'NL', 'NO', 'NP', 'NR', 'NU', 'NZ',
  'OM',
  'PA', 'PE', 'PF', 'PG', 'PH', 'PK', 'PL', 'PM', 'PN', 'PR', 'PS', 'PT', 'PW', 'PY',
  'QA',
  'RE', 'RO', 'RS', 'RU', 'RW',
  'SA', 'SB', 'SC', 'SD', 'SE', 'SG', 'SH', 'SI', 'SJ', 'SK', 'SL', 'SM', 'SN', 'SO', 'SR', 'SS', 'ST', 'SV', 'SX', 'SY', 'SZ',
  'TC', 'TD', 'TF', 'TG', 'TH', 'TJ', 'TK', 'TL', 'TM', 'TN', 'TO', 'TR', 'TT', 'TV', 'TW', 'TZ',
  'UA', 'UG', 'UM', 'US', 'UY', 'UZ',
  'VA', 'VC', 'VE', 'VG', 'VI', 'VN', 'VU',
  'WF', 'WS',
  'YE', 'YT',
  'ZA', 'ZM', 'ZW',
];

const countries = new Set(COUNTRY_CODES);

/** The 27 member states of the European Union. */
export const EU_MEMBER_STATES: readonly string[] = [
  'AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK',
];
/** The European Economic Area: the EU plus Iceland, Liechtenstein and Norway (EU passporting applies). */
const EEA = new Set([...EU_MEMBER_STATES, 'IS', 'LI', 'NO']);

export function isEeaCountry(code: string): boolean {
  return EEA.has(code);
}

/** `EU`, exceptionally reserved in ISO 3166-1 for the European Union, names the EU jurisdiction as a whole. */
export const EU_REGION_CODE = 'EU';

/** An officially assigned ISO 3166-1 alpha-2 country code, in upper case. */
export function isCountryCode(value: unknown): value is string {
  return typeof value === 'string' && countries.has(value);
}

/**
 * A customer's `region`: the country code of its regulatory jurisdiction, or `EU` for the
 * European Union as a whole.
 */
export function isRegionCode(value: unknown): value is string {
  return value === EU_REGION_CODE || isCountryCode(value);
}

export type Jurisdiction = 'US' | 'EU' | 'UK';

/**
 * The regulatory jurisdiction a region code falls under, where the service distinguishes one:
 * the EU (EEA countries and `EU` itself, served by the EU provider), the UK (GB) and the US.
 * Anything else is null: served by the global provider.
 */
export function jurisdictionOf(regionCode: string | null | undefined): Jurisdiction | null {
  if (!regionCode) return null;
  if (regionCode === EU_REGION_CODE || EEA.has(regionCode)) return 'EU';
  if (regionCode === 'GB') return 'UK';
  if (regionCode === 'US') return 'US';
  return null;
}

export interface Currency {
  code: string;
  name: string;
  symbol: string;
  /** Digits after the decimal point: amounts are integers of 10^-decimals units. */
  decimals: number;
  kind: 'FIAT' | 'CRYPTO';
}

const table: Currency[] = [
  { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2, kind: 'FIAT' },
  { code: 'EUR', name: 'Euro', symbol: '€', decimals: 2, kind: 'FIAT' },
  { code: 'GBP', name: 'Pound Sterling', symbol: '£', decimals: 2, kind: 'FIAT' },
  { code: 'MXN', name: 'Mexican Peso', symbol: '$', decimals: 2, kind: 'FIAT' },
  { code: 'BRL', name: 'Brazilian Real', symbol: 'R$', decimals: 2, kind: 'FIAT' },
  { code: 'CAD', name: 'Canadian Dollar', symbol: '$', decimals: 2, kind: 'FIAT' },
  { code: 'INR', name: 'Indian Rupee', symbol: '₹', decimals: 2, kind: 'FIAT' },
  { code: 'NGN', name: 'Nigerian Naira', symbol: '₦', decimals: 2, kind: 'FIAT' },
  { code: 'PHP', name: 'Philippine Peso', symbol: '₱', decimals: 2, kind: 'FIAT' },
  { code: 'KES', name: 'Kenyan Shilling', symbol: 'KSh', decimals: 2, kind: 'FIAT' },
  { code: 'HKD', name: 'Hong Kong Dollar', symbol: 'HK$', decimals: 2, kind: 'FIAT' },
  { code: 'SGD', name: 'Singapore Dollar', symbol: 'S$', decimals: 2, kind: 'FIAT' },
  { code: 'DKK', name: 'Danish Krone', symbol: 'kr', decimals: 2, kind: 'FIAT' },
  { code: 'ZAR', name: 'South African Rand', symbol: 'R', decimals: 2, kind: 'FIAT' },
  { code: 'COP', name: 'Colombian Peso', symbol: '$', decimals: 2, kind: 'FIAT' },
  { code: 'IDR', name: 'Indonesian Rupiah', symbol: 'Rp', decimals: 2, kind: 'FIAT' },
  { code: 'THB', name: 'Thai Baht', symbol: '฿', decimals: 2, kind: 'FIAT' },
  { code: 'MYR', name: 'Malaysian Ringgit', symbol: 'RM', decimals: 2, kind: 'FIAT' },
  { code: 'VND', name: 'Vietnamese Dong', symbol: '₫', decimals: 0, kind: 'FIAT' },
  { code: 'XOF', name: 'West African CFA Franc', symbol: 'CFA', decimals: 0, kind: 'FIAT' },
  { code: 'XAF', name: 'Central African CFA Franc', symbol: 'FCFA', decimals: 0, kind: 'FIAT' },
  // Currencies of the receiving corridors (external accounts, GET /discoveries).
  { code: 'AED', name: 'UAE Dirham', symbol: 'د.إ', decimals: 2, kind: 'FIAT' },
  { code: 'BDT', name: 'Bangladeshi Taka', symbol: '৳', decimals: 2, kind: 'FIAT' },
  { code: 'BWP', name: 'Botswana Pula', symbol: 'P', decimals: 2, kind: 'FIAT' },
  { code: 'CNY', name: 'Chinese Yuan', symbol: '¥', decimals: 2, kind: 'FIAT' },
  { code: 'EGP', name: 'Egyptian Pound', symbol: 'E£', decimals: 2, kind: 'FIAT' },
  { code: 'GHS', name: 'Ghanaian Cedi', symbol: 'GH₵', decimals: 2, kind: 'FIAT' },
  { code: 'GTQ', name: 'Guatemalan Quetzal', symbol: 'Q', decimals: 2, kind: 'FIAT' },
  { code: 'HTG', name: 'Haitian Gourde', symbol: 'G', decimals: 2, kind: 'FIAT' },
  { code: 'ILS', name: 'Israeli New Shekel', symbol: '₪', decimals: 2, kind: 'FIAT' },
  { code: 'JMD', name: 'Jamaican Dollar', symbol: 'J$', decimals: 2, kind: 'FIAT' },
  { code: 'MWK', name: 'Malawian Kwacha', symbol: 'MK', decimals: 2, kind: 'FIAT' },
  { code: 'PKR', name: 'Pakistani Rupee', symbol: '₨', decimals: 2, kind: 'FIAT' },
  { code: 'RWF', name: 'Rwandan Franc', symbol: 'FRw', decimals: 0, kind: 'FIAT' },
  { code: 'TRY', name: 'Turkish Lira', symbol: '₺', decimals: 2, kind: 'FIAT' },
  { code: 'TZS', name: 'Tanzanian Shilling', symbol: 'TSh', decimals: 2, kind: 'FIAT' },
  { code: 'UGX', name: 'Ugandan Shilling', symbol: 'USh', decimals: 0, kind: 'FIAT' },
  { code: 'ZMW', name: 'Zambian Kwacha', symbol: 'ZK', decimals: 2, kind: 'FIAT' },
  { code: 'BTC', name: 'Bitcoin', symbol: '₿', decimals: 8, kind: 'CRYPTO' },
  { code: 'USDC', name: 'USD Coin', symbol: 'USDC', decimals: 6, kind: 'CRYPTO' },
  { code: 'USDT', name: 'Tether USD', symbol: 'USDT', decimals: 6, kind: 'CRYPTO' },
  { code: 'USDB', name: 'USDB', symbol: 'USDB', decimals: 6, kind: 'CRYPTO' },
];

const byCode = new Map(table.map((c) => [c.code, c]));

export const SUPPORTED_CURRENCY_CODES = table.map((c) => c.code) as [string, ...string[]];

export function findCurrency(code: string): Currency | undefined {
  return byCode.get(code);
}

export function currency(code: string): Currency {
  const found = byCode.get(code);
  if (!found) throw new Error(`Unsupported currency ${code}`);
  return found;
}

/** The public currency object: `{ code, name, symbol, decimals }`. */
export function currencyView(code: string) {
  const { name, symbol, decimals } = currency(code);
  return { code, name, symbol, decimals };
}

/**
 * Receiving institutions of the corridors whose external accounts name their bank (or wallet)
 * in `bankName`, and the mobile-money providers of the corridors whose accounts name one in
 * `provider`. Data owned by the service; see DIRECTORY_DATA_VERSION for the rules of change.
 *
 * Canonical names are printable ASCII in their usual capitalisation ("BDO Unibank", "bKash"),
 * unique per currency regardless of case; accents and long legal forms go in `displayName`.
 */

/** How a payment reaches the institution: a bank account, or a wallet reached by phone number. */
export type InstitutionRail = 'BANK_TRANSFER' | 'MOBILE_MONEY';

export interface ReceivingInstitution {
  /** Canonical name: the value of `bankName` on an external account. */
  bankName: string;
  /** Human-friendly name. */
  displayName: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  /** ISO 4217. */
  currency: string;
  /** Internal: not part of the public shape. */
  rail: InstitutionRail;
}

export interface MobileMoneyProvider {
  /** Canonical name: the value of `provider` on a mobile-money external account. */
  provider: string;
  displayName: string;
  currency: string;
  /** Countries (ISO 3166-1 alpha-2) where the provider pays out in this currency. */
  countries: readonly string[];
}

type Row = readonly [bankName: string, displayName?: string, rail?: InstitutionRail];

const W = 'MOBILE_MONEY';

function corridor(country: string, currency: string, rows: readonly Row[]): ReceivingInstitution[] {
  return rows.map(([bankName, displayName, rail]) => ({ bankName, displayName: displayName ?? bankName, country, currency, rail: rail ?? 'BANK_TRANSFER' }));
}

export const RECEIVING_INSTITUTIONS: readonly ReceivingInstitution[] = [
  ...corridor('BD', 'BDT', [
    ['BRAC Bank', 'BRAC Bank PLC'],
    ['Dutch-Bangla Bank', 'Dutch-Bangla Bank PLC'],
    ['Islami Bank Bangladesh', 'Islami Bank Bangladesh PLC'],
    ['Sonali Bank', 'Sonali Bank PLC'],
    ['City Bank', 'The City Bank PLC'],
    ['bKash', 'bKash (mobile wallet)', W],
    ['Nagad', 'Nagad (mobile wallet)', W],
    ['Rocket', 'Rocket by Dutch-Bangla Bank (mobile wallet)', W],
  ]),
  ...corridor('CN', 'CNY', [
    ['Industrial and Commercial Bank of China', 'ICBC (Industrial and Commercial Bank of China)'],
    ['China Construction Bank'],
    ['Agricultural Bank of China'],
    ['Bank of China'],
    ['Bank of Communications'],
    ['China Merchants Bank'],
    ['Alipay', 'Alipay (mobile wallet)', W],
    ['WeChat Pay', 'WeChat Pay (mobile wallet)', W],
  ]),
  ...corridor('CO', 'COP', [
    ['Bancolombia'],
    ['Banco de Bogota', 'Banco de Bogotá'],
    ['Davivienda', 'Banco Davivienda'],
    ['BBVA Colombia'],
    ['Banco de Occidente'],
    ['Nequi', 'Nequi (mobile wallet)', W],
    ['Daviplata', 'Daviplata (mobile wallet)', W],
  ]),
  ...corridor('EG', 'EGP', [
    ['National Bank of Egypt'],
    ['Banque Misr'],
    ['Commercial International Bank', 'CIB (Commercial International Bank)'],
    ['Banque du Caire'],
    ['Vodafone Cash', 'Vodafone Cash (mobile wallet)', W],
  ]),
  ...corridor('GH', 'GHS', [
    ['GCB Bank'],
    ['Ecobank Ghana'],
    ['Stanbic Bank Ghana'],
    ['Absa Bank Ghana'],
    ['Fidelity Bank Ghana'],
    ['MTN MoMo', 'MTN Mobile Money (mobile wallet)', W],
    ['Telecel Cash', 'Telecel Cash (mobile wallet)', W],
    ['AT Money', 'AT Money, formerly AirtelTigo Money (mobile wallet)', W],
  ]),
  ...corridor('GT', 'GTQ', [
    ['Banco Industrial'],
    ['Banrural', 'Banco de Desarrollo Rural (Banrural)'],
    ['Banco G&T Continental'],
    ['BAC Credomatic', 'BAC Credomatic Guatemala'],
    ['Banco Agromercantil', 'BAM (Banco Agromercantil de Guatemala)'],
  ]),
  ...corridor('HK', 'HKD', [
    ['HSBC Hong Kong', 'The Hongkong and Shanghai Banking Corporation'],
    ['Bank of China (Hong Kong)'],
    ['Hang Seng Bank'],
    ['Standard Chartered Hong Kong', 'Standard Chartered Bank (Hong Kong)'],
    ['DBS Bank (Hong Kong)'],
    ['Bank of East Asia', 'The Bank of East Asia'],
  ]),
  ...corridor('ID', 'IDR', [
    ['Bank Central Asia', 'BCA (Bank Central Asia)'],
    ['Bank Mandiri'],
    ['Bank Rakyat Indonesia', 'BRI (Bank Rakyat Indonesia)'],
    ['Bank Negara Indonesia', 'BNI (Bank Negara Indonesia)'],
    ['CIMB Niaga'],
    ['Bank Danamon', 'Bank Danamon Indonesia'],
    ['Permata Bank', 'PermataBank'],
  ]),
  ...corridor('JM', 'JMD', [
    ['National Commercial Bank', 'NCB (National Commercial Bank Jamaica)'],
    ['Scotiabank Jamaica'],
    ['JN Bank'],
    ['Sagicor Bank', 'Sagicor Bank Jamaica'],
    ['First Global Bank'],
  ]),
  ...corridor('MY', 'MYR', [
    ['Maybank', 'Malayan Banking Berhad (Maybank)'],
    ['CIMB Bank'],
    ['Public Bank', 'Public Bank Berhad'],
    ['RHB Bank'],
    ['Hong Leong Bank'],
    ['AmBank'],
  ]),
  ...corridor('NG', 'NGN', [
    ['Access Bank'],
    ['Zenith Bank'],
    ['Guaranty Trust Bank', 'GTBank (Guaranty Trust Bank)'],
    ['First Bank of Nigeria', 'FirstBank'],
    ['United Bank for Africa', 'UBA (United Bank for Africa)'],
    ['OPay', 'OPay Digital Services'],
    ['Moniepoint', 'Moniepoint Microfinance Bank'],
    ['Kuda', 'Kuda Microfinance Bank'],
  ]),
  ...corridor('PH', 'PHP', [
    ['BDO Unibank'],
    ['BPI', 'Bank of the Philippine Islands'],
    ['Metrobank', 'Metropolitan Bank and Trust Company'],
    ['Land Bank of the Philippines', 'LANDBANK'],
    ['Security Bank'],
    ['UnionBank', 'UnionBank of the Philippines'],
    ['GCash', 'GCash (e-wallet, via InstaPay)'],
    ['Maya', 'Maya Bank'],
  ]),
  ...corridor('PK', 'PKR', [
    ['Habib Bank', 'HBL (Habib Bank Limited)'],
    ['United Bank', 'UBL (United Bank Limited)'],
    ['MCB Bank'],
    ['Allied Bank'],
    ['Meezan Bank'],
    ['JazzCash', 'JazzCash (mobile wallet)', W],
    ['Easypaisa', 'Easypaisa (mobile wallet)', W],
  ]),
  ...corridor('TH', 'THB', [
    ['Bangkok Bank'],
    ['Kasikornbank', 'KBank (Kasikornbank)'],
    ['Siam Commercial Bank', 'SCB (Siam Commercial Bank)'],
    ['Krungthai Bank'],
    ['Bank of Ayudhya', 'Krungsri (Bank of Ayudhya)'],
    ['TMBThanachart Bank', 'ttb (TMBThanachart Bank)'],
  ]),
  ...corridor('VN', 'VND', [
    ['Vietcombank', 'Vietcombank (Joint Stock Commercial Bank for Foreign Trade of Vietnam)'],
    ['VietinBank'],
    ['BIDV', 'BIDV (Bank for Investment and Development of Vietnam)'],
    ['Techcombank'],
    ['Agribank'],
    ['MB Bank', 'MB (Military Commercial Joint Stock Bank)'],
  ]),
  ...corridor('ZA', 'ZAR', [
    ['Standard Bank'],
    ['First National Bank', 'FNB (First National Bank)'],
    ['Absa Bank'],
    ['Nedbank'],
    ['Capitec Bank'],
    ['Investec Bank'],
    ['TymeBank'],
  ]),
];

const mobile = (currency: string, countries: readonly string[], provider: string, displayName = provider): MobileMoneyProvider => ({
  provider,
  displayName,
  currency,
  countries,
});

export const MOBILE_MONEY_PROVIDERS: readonly MobileMoneyProvider[] = [
  mobile('KES', ['KE'], 'M-Pesa', 'M-Pesa (Safaricom)'),
  mobile('KES', ['KE'], 'Airtel Money', 'Airtel Money Kenya'),
  mobile('KES', ['KE'], 'T-Kash', 'T-Kash (Telkom Kenya)'),
  mobile('TZS', ['TZ'], 'M-Pesa', 'M-Pesa (Vodacom Tanzania)'),
  mobile('TZS', ['TZ'], 'Airtel Money', 'Airtel Money Tanzania'),
  mobile('TZS', ['TZ'], 'Mixx by Yas', 'Mixx by Yas (formerly Tigo Pesa)'),
  mobile('TZS', ['TZ'], 'HaloPesa'),
  mobile('RWF', ['RW'], 'MTN MoMo', 'MTN Mobile Money Rwanda'),
  mobile('RWF', ['RW'], 'Airtel Money', 'Airtel Money Rwanda'),
  mobile('ZMW', ['ZM'], 'MTN MoMo', 'MTN Mobile Money Zambia'),
  mobile('ZMW', ['ZM'], 'Airtel Money', 'Airtel Money Zambia'),
  mobile('ZMW', ['ZM'], 'Zamtel Kwacha'),
  mobile('UGX', ['UG'], 'MTN MoMo', 'MTN Mobile Money Uganda'),
  mobile('UGX', ['UG'], 'Airtel Money', 'Airtel Money Uganda'),
  mobile('MWK', ['MW'], 'Airtel Money', 'Airtel Money Malawi'),
  mobile('MWK', ['MW'], 'TNM Mpamba'),
  mobile('BWP', ['BW'], 'Orange Money', 'Orange Money Botswana'),
  mobile('BWP', ['BW'], 'MyZaka', 'MyZaka (Mascom)'),
  mobile('BWP', ['BW'], 'Smega', 'Smega (BTC)'),
  mobile('XOF', ['CI', 'SN'], 'Orange Money'),
  mobile('XOF', ['BJ', 'CI'], 'MTN MoMo', 'MTN Mobile Money'),
  mobile('XOF', ['BJ', 'CI', 'TG'], 'Moov Money'),
  mobile('XOF', ['CI', 'SN'], 'Wave'),
  mobile('XAF', ['CM', 'CG'], 'MTN MoMo', 'MTN Mobile Money'),
  mobile('XAF', ['CM'], 'Orange Money', 'Orange Money Cameroun'),
  mobile('XAF', ['CG'], 'Airtel Money', 'Airtel Money Congo'),
];

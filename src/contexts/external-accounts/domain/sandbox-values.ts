/**
 * One valid account per account type, for the API document's examples and docs/payments.md's table of
 * sandbox values: every identifier passes its rail's check (check digits included), bank and
 * provider names come from the directories, and no value ends in a sandbox scenario suffix
 * (10x, 11x, 002–009), so each registers ACTIVE and is paid out. Beneficiaries are left out
 * (each type's rule says which fields an individual needs).
 */
export const SANDBOX_ACCOUNTS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  AED_ACCOUNT: { iban: 'AE070331234567890123456' },
  BDT_ACCOUNT: { accountNumber: '1234567890123', bankName: 'BRAC Bank' },
  BRL_ACCOUNT: { pixKey: '52998224725', pixKeyType: 'CPF', taxId: '52998224725' },
  BWP_ACCOUNT: { phoneNumber: '+26771234567', provider: 'Orange Money' },
  CAD_ACCOUNT: { bankCode: '001', branchCode: '00011', accountNumber: '1234567' },
  CNY_ACCOUNT: { accountNumber: '6222021234567890123', bankName: 'Bank of China' },
  COP_ACCOUNT: { accountNumber: '12345678901', bankAccountType: 'SAVINGS', bankName: 'Bancolombia' },
  DKK_ACCOUNT: { iban: 'DK5000400440116243' },
  EGP_ACCOUNT: { iban: 'EG690019000500000000263180123', bankName: 'National Bank of Egypt' },
  EUR_ACCOUNT: { iban: 'DE89370400440532013000' },
  GBP_ACCOUNT: { sortCode: '040004', accountNumber: '12345678' },
  GHS_ACCOUNT: { accountNumber: '1234567890123', bankName: 'GCB Bank' },
  GTQ_ACCOUNT: { accountNumber: '1234567890', bankAccountType: 'CHECKING', bankName: 'Banco Industrial' },
  HKD_ACCOUNT: { bankName: 'HSBC Hong Kong', accountNumber: '123456789012', swiftCode: 'HSBCHKHH' },
  HTG_ACCOUNT: { phoneNumber: '+50934123456' },
  IDR_ACCOUNT: { bankName: 'Bank Central Asia', accountNumber: '1234567890', swiftCode: 'CENAIDJA', phoneNumber: '+6281234567890' },
  ILS_ACCOUNT: { iban: 'IL620108000000099999999' },
  INR_ACCOUNT: { vpa: 'jane.doe@okaxis', accountNumber: '000111222333', ifsc: 'HDFC0001234', rail: 'NEFT' },
  JMD_ACCOUNT: { accountNumber: '1234567890', branchCode: '12345', bankAccountType: 'SAVINGS', bankName: 'National Commercial Bank' },
  KES_ACCOUNT: { phoneNumber: '+254712345678', provider: 'M-Pesa' },
  MWK_ACCOUNT: { phoneNumber: '+265991234567', provider: 'Airtel Money' },
  MXN_ACCOUNT: { clabeNumber: '002010077777777771' },
  MYR_ACCOUNT: { bankName: 'Maybank', accountNumber: '123456789012', swiftCode: 'MBBEMYKL' },
  NGN_ACCOUNT: { accountNumber: '0123456789', bankName: 'Access Bank' },
  PHP_ACCOUNT: { bankName: 'BDO Unibank', accountNumber: '123456789012' },
  PKR_ACCOUNT: { bankName: 'Habib Bank', iban: 'PK36SCBL0000001123456702' },
  RWF_ACCOUNT: { phoneNumber: '+250781234567', provider: 'MTN MoMo' },
  SGD_ACCOUNT: { bankName: 'DBS Bank', accountNumber: '8850123456', swiftCode: 'DBSSSGSG' },
  SLV_ACCOUNT: { accountNumber: '1234567890', bankAccountType: 'SAVINGS' },
  THB_ACCOUNT: { bankName: 'Bangkok Bank', accountNumber: '1234567890', swiftCode: 'BKKBTHBK' },
  TRY_ACCOUNT: { iban: 'TR330006100519786457841326' },
  TZS_ACCOUNT: { phoneNumber: '+255712345678', provider: 'M-Pesa' },
  UGX_ACCOUNT: { phoneNumber: '+256771234567', provider: 'MTN MoMo' },
  USD_ACCOUNT: { accountNumber: '123456789', routingNumber: '021000021', bankAccountType: 'CHECKING' },
  VND_ACCOUNT: { bankName: 'Vietcombank', accountNumber: '0123456789', swiftCode: 'BFTVVNVX' },
  XAF_ACCOUNT: { phoneNumber: '+237671234567', provider: 'MTN MoMo', region: 'CM' },
  XOF_ACCOUNT: { phoneNumber: '+221771234567', provider: 'Orange Money', region: 'SN' },
  ZAR_ACCOUNT: { accountNumber: '123456789', bankName: 'Standard Bank' },
  ZMW_ACCOUNT: { phoneNumber: '+260971234567', provider: 'MTN MoMo' },
  SWIFT_ACCOUNT: { country: 'JP', swiftCode: 'BOTKJPJT', bankName: 'MUFG Bank', accountNumber: '1234567' },
  BASE_WALLET: { address: '0x52908400098527886E0F7030069857D2E4169EE7' },
  ETHEREUM_WALLET: { address: '0x52908400098527886E0F7030069857D2E4169EE7' },
  POLYGON_WALLET: { address: '0x52908400098527886E0F7030069857D2E4169EE7' },
  PLASMA_WALLET: { address: '0x52908400098527886E0F7030069857D2E4169EE7' },
  ARBITRUM_WALLET: { address: '0x52908400098527886E0F7030069857D2E4169EE7' },
  SOLANA_WALLET: { address: '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T' },
  SPARK_WALLET: { address: 'spark1pgssyhw7a0ewv86qtsg3pve09nw0g82xwrr9rpypayxpqzqw3dv8xgxh974shs' },
  TRON_WALLET: { address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' },
  LIGHTNING: { lightningAddress: 'jane@wallet.example.com' },
};

/** The sandbox value of one field of an account type, for its example in the API document. */
export function sandboxValue(accountType: string, field: string): string | undefined {
  return SANDBOX_ACCOUNTS[accountType]?.[field];
}

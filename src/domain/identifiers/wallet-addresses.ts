import { accepted, type IdentifierCheck, refused } from './check';
import { checkEvmAddress } from './evm-address';
import { checkSolanaAddress } from './solana-address';
import { checkSparkAddress } from './spark-address';
import { checkTronAddress } from './tron-address';

/** The wallet account types whose address format is checked here, with the chain format each uses. */
export const WALLET_ADDRESS_FORMATS = {
  BASE_WALLET: 'evm',
  ETHEREUM_WALLET: 'evm',
  POLYGON_WALLET: 'evm',
  PLASMA_WALLET: 'evm',
  ARBITRUM_WALLET: 'evm',
  SOLANA_WALLET: 'solana',
  TRON_WALLET: 'tron',
  SPARK_WALLET: 'spark',
} as const;
export type WalletAccountType = keyof typeof WALLET_ADDRESS_FORMATS;
export type WalletAddressFormat = (typeof WALLET_ADDRESS_FORMATS)[WalletAccountType];

export const isWalletAccountType = (accountType: string): accountType is WalletAccountType =>
  Object.prototype.hasOwnProperty.call(WALLET_ADDRESS_FORMATS, accountType);

const CHECKS: Record<WalletAddressFormat, (address: string) => IdentifierCheck> = {
  evm: checkEvmAddress,
  solana: checkSolanaAddress,
  tron: checkTronAddress,
  spark: checkSparkAddress,
};

/** Checks a wallet address against the format of the account type's chain. */
export function checkWalletAddress(accountType: string, address: string): IdentifierCheck {
  if (!isWalletAccountType(accountType)) return refused(`${accountType} is not a wallet account type.`);
  const result = CHECKS[WALLET_ADDRESS_FORMATS[accountType]](address);
  return result.valid ? accepted(result.normalized) : result;
}

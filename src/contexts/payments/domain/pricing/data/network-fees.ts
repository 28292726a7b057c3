/**
 * What one withdrawal costs on each network the service pays out on, versioned: bump
 * NETWORK_FEE_DATA_VERSION whenever a number changes. These are the sandbox's fixed estimates
 * (a production source would read the chains' current fee markets).
 *
 * `networkFeeMinor` is in minor units of the network's own fee asset (lamports, wei, sun,
 * satoshis): a token transfer's usual gas or fee, priority included. `feeAssetUsd` is what one
 * MAJOR unit of the fee asset is worth in US dollars, as an exact decimal string; it converts the
 * fee into the withdrawal currency. Fee assets the service itself prices (BTC) take the rate
 * table's rate instead and carry no price here. `currencies` are the assets withdrawable over the
 * network: the same pairs as the wallet account types of external accounts, plus on-chain and
 * Lightning bitcoin.
 */
export const NETWORK_FEE_DATA_VERSION = '2026-11-24.1';

export interface NetworkFee {
  /** Ticker of the asset the network charges its fee in. */
  feeAsset: string;
  /** Decimals of the fee asset: networkFeeMinor / 10^decimals is the fee in major units. */
  feeAssetDecimals: number;
  /** One withdrawal's fee, in minor units of the fee asset. */
  networkFeeMinor: bigint;
  /** US dollars per major unit of the fee asset; absent when the rate table prices the asset. */
  feeAssetUsd?: string;
  /** Currencies that may be withdrawn over this network. */
  currencies: readonly string[];
}

export const NETWORK_FEES = {
  // 5,000 lamports base fee and a 10,000-lamport priority fee for an SPL token transfer.
  SOLANA: { feeAsset: 'SOL', feeAssetDecimals: 9, networkFeeMinor: 15_000n, feeAssetUsd: '150.00', currencies: ['USDC', 'USDT'] },
  // An ERC-20 transfer: about 65,000 gas at 3 gwei.
  ETHEREUM: { feeAsset: 'ETH', feeAssetDecimals: 18, networkFeeMinor: 195_000_000_000_000n, feeAssetUsd: '3000.00', currencies: ['USDC', 'USDT'] },
  // Layer-2 ERC-20 transfers: 65,000 gas at 0.01 gwei (Base) and 0.02 gwei (Arbitrum), fees in ETH.
  BASE: { feeAsset: 'ETH', feeAssetDecimals: 18, networkFeeMinor: 650_000_000_000n, feeAssetUsd: '3000.00', currencies: ['USDC'] },
  ARBITRUM: { feeAsset: 'ETH', feeAssetDecimals: 18, networkFeeMinor: 1_300_000_000_000n, feeAssetUsd: '3000.00', currencies: ['USDC', 'USDT'] },
  // 65,000 gas at 40 gwei, paid in POL.
  POLYGON: { feeAsset: 'POL', feeAssetDecimals: 18, networkFeeMinor: 2_600_000_000_000_000n, feeAssetUsd: '0.40', currencies: ['USDC'] },
  // A TRC-20 USDT transfer without staked energy burns about 13.4 TRX.
  TRON: { feeAsset: 'TRX', feeAssetDecimals: 6, networkFeeMinor: 13_400_000n, feeAssetUsd: '0.20', currencies: ['USDT'] },
  // Plasma sponsors plain USDT transfers: no fee.
  PLASMA: { feeAsset: 'XPL', feeAssetDecimals: 18, networkFeeMinor: 0n, feeAssetUsd: '0.50', currencies: ['USDT'] },
  // Spark transfers (bitcoin and Spark tokens) carry no network fee.
  SPARK: { feeAsset: 'BTC', feeAssetDecimals: 8, networkFeeMinor: 0n, currencies: ['BTC', 'USDB'] },
  // A typical routing fee for a Lightning payment.
  LIGHTNING: { feeAsset: 'BTC', feeAssetDecimals: 8, networkFeeMinor: 10n, currencies: ['BTC'] },
  // One on-chain output: about 141 vbytes at 10 sat/vB.
  BITCOIN: { feeAsset: 'BTC', feeAssetDecimals: 8, networkFeeMinor: 1_410n, currencies: ['BTC'] },
} as const satisfies Readonly<Record<string, NetworkFee>>;

export type WithdrawalNetwork = keyof typeof NETWORK_FEES;

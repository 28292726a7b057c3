import { findCurrency } from '../../../../domain/currencies';
import { DomainError, type FieldError } from '../../../../domain/errors';
import { decodeBase58Check } from '../../../../domain/identifiers/base58';
import { convertBits, decodeBech32 } from '../../../../domain/identifiers/bech32';
import { accepted, type IdentifierCheck, refused } from '../../../../domain/identifiers/check';
import { checkBolt12Offer, checkLightningAddress, checkLightningInvoice } from '../../../../domain/identifiers/lightning';
import { checkWalletAddress } from '../../../../domain/identifiers/wallet-addresses';
import { NETWORK_FEES, type NetworkFee, type WithdrawalNetwork } from './data/network-fees';
import { midRate, multiply, parseDecimal, type Rational } from './rates';

export { NETWORK_FEE_DATA_VERSION, type WithdrawalNetwork } from './data/network-fees';

/** Every network a withdrawal may use, in the data table's order. */
export const WITHDRAWAL_NETWORKS = Object.keys(NETWORK_FEES) as WithdrawalNetwork[];

export function isWithdrawalNetwork(value: string): value is WithdrawalNetwork {
  return Object.prototype.hasOwnProperty.call(NETWORK_FEES, value);
}

/** Every currency some network withdraws, in first-seen order. */
export const WITHDRAWAL_CURRENCIES: readonly string[] = [...new Set(Object.values(NETWORK_FEES).flatMap((n: NetworkFee) => n.currencies))];

/** The networks `currency` may be withdrawn over (empty for a currency no network carries). */
export function networksFor(currency: string): WithdrawalNetwork[] {
  return WITHDRAWAL_NETWORKS.filter((n) => (NETWORK_FEES[n] as NetworkFee).currencies.includes(currency));
}

/**
 * The currency and network of a withdrawal, judged together: an unknown currency names
 * `currency`, an unknown network or one that does not carry the currency names `cryptoNetwork`
 * (with the networks that do).
 */
export function withdrawalPairProblems(currency: string, network: string): FieldError[] {
  if (!WITHDRAWAL_CURRENCIES.includes(currency)) {
    return [
      {
        field: 'currency',
        constraint: 'enum',
        message: `must be a currency that can be withdrawn: ${WITHDRAWAL_CURRENCIES.join(', ')}`,
        hint: { enum: [...WITHDRAWAL_CURRENCIES] },
      },
    ];
  }
  const networks = networksFor(currency);
  if (!isWithdrawalNetwork(network)) {
    return [
      { field: 'cryptoNetwork', constraint: 'enum', message: `must be one of ${WITHDRAWAL_NETWORKS.join(', ')}`, hint: { enum: [...WITHDRAWAL_NETWORKS] } },
    ];
  }
  if (!networks.includes(network)) {
    return [
      {
        field: 'cryptoNetwork',
        constraint: 'supportedForCurrency',
        message: `${currency} cannot be withdrawn over ${network}; it goes over ${networks.join(', ')}`,
        hint: { enum: networks },
      },
    ];
  }
  return [];
}

/** A Bitcoin on-chain address: SegWit (bech32 v0, bech32m v1+) or legacy Base58Check P2PKH/P2SH, mainnet or test networks. */
export function checkBitcoinAddress(value: string): IdentifierCheck {
  const lower = value.toLowerCase();
  if (/^(bc|tb|bcrt)1/.test(lower)) {
    const decoded = decodeBech32(value);
    if (!decoded.ok) return refused(`Not a valid SegWit address: ${decoded.reason}`);
    if (!['bc', 'tb', 'bcrt'].includes(decoded.hrp) || decoded.words.length < 1) return refused('Not a Bitcoin SegWit address.');
    const version = decoded.words[0]!;
    const program = convertBits(decoded.words.slice(1), 5, 8, false);
    if (version > 16 || !program || program.length < 2 || program.length > 40) return refused('The witness program is malformed.');
    if (version === 0 && (decoded.variant !== 'bech32' || (program.length !== 20 && program.length !== 32)))
      return refused('A version 0 witness program is 20 or 32 bytes with a bech32 checksum.');
    if (version > 0 && decoded.variant !== 'bech32m') return refused('Witness versions 1 and above use a bech32m checksum.');
    return accepted(lower);
  }
  const legacy = decodeBase58Check(value);
  if (!legacy.ok) return refused(`Not a valid Bitcoin address: ${legacy.reason}`);
  // 0x00 P2PKH and 0x05 P2SH on mainnet, 0x6f and 0xc4 on the test networks; then a 20-byte hash.
  if (legacy.payload.length !== 21 || ![0x00, 0x05, 0x6f, 0xc4].includes(legacy.payload[0]!)) return refused('Not a Bitcoin P2PKH or P2SH address.');
  return accepted(value);
}

/** Lightning takes a BOLT11 invoice, a BOLT12 offer or a Lightning address. */
function checkLightningDestination(value: string): IdentifierCheck {
  const lower = value.toLowerCase();
  if (lower.startsWith('lno')) return checkBolt12Offer(value);
  if (lower.startsWith('ln')) return checkLightningInvoice(value);
  return checkLightningAddress(value);
}

/** Whether `address` is a destination of `network`'s form (the external-account checks, plus Bitcoin and Lightning). */
export function checkWithdrawalAddress(network: WithdrawalNetwork, address: string): IdentifierCheck {
  if (network === 'BITCOIN') return checkBitcoinAddress(address);
  if (network === 'LIGHTNING') return checkLightningDestination(address);
  return checkWalletAddress(`${network}_WALLET`, address);
}

/** Units of `to` per unit of the network's fee asset (both major), exact. */
function feeAssetRate(fee: NetworkFee, to: string): Rational {
  const direct = findCurrency(fee.feeAsset) ? midRate(fee.feeAsset, to) : undefined;
  if (direct) return direct;
  const usdTo = midRate('USD', to);
  if (!fee.feeAssetUsd || !usdTo) throw new RangeError(`no rate converts ${fee.feeAsset} into ${to}`);
  return multiply(parseDecimal(fee.feeAssetUsd), usdTo);
}

/**
 * The network fee in minor units of the withdrawal currency, rounded UP (a fee never rounds
 * down): the fee asset itself when it is the currency, else converted at the sandbox mid rate.
 */
export function networkFeeIn(network: WithdrawalNetwork, currency: string): bigint {
  const fee: NetworkFee = NETWORK_FEES[network];
  if (fee.networkFeeMinor === 0n) return 0n;
  if (fee.feeAsset === currency) return fee.networkFeeMinor;
  const decimals = findCurrency(currency)?.decimals;
  if (decimals === undefined) throw new RangeError(`unknown currency ${currency}`);
  const rate = feeAssetRate(fee, currency);
  const num = fee.networkFeeMinor * rate.num * 10n ** BigInt(decimals);
  const den = rate.den * 10n ** BigInt(fee.feeAssetDecimals);
  return (num + den - 1n) / den;
}

export interface WithdrawalFeeEstimate {
  /** Minor units of networkFeeAsset. */
  networkFee: bigint;
  networkFeeAsset: string;
  /** Minor units of the withdrawal currency. */
  applicationFee: bigint;
  /** The network fee converted (rounded up) plus the application fee, withdrawal-currency minor units. */
  totalFee: bigint;
  /** amount − totalFee: what reaches the destination. */
  netAmount: bigint;
}

/**
 * The reference's EstimateCryptoWithdrawalFeeResponse for withdrawing `amount` (minor units of
 * `currency`) over `network`. The pair must be valid (withdrawalPairProblems). An amount the fees
 * would consume entirely is `400 AMOUNT_OUT_OF_RANGE`, with the smallest amount that works.
 */
export function estimateWithdrawalFee(input: { currency: string; network: WithdrawalNetwork; amount: bigint; applicationFee?: bigint }): WithdrawalFeeEstimate {
  const problems = withdrawalPairProblems(input.currency, input.network);
  if (problems.length > 0) throw DomainError.invalidInput(problems);
  const fee: NetworkFee = NETWORK_FEES[input.network];
  const applicationFee = input.applicationFee ?? 0n;
  const totalFee = networkFeeIn(input.network, input.currency) + applicationFee;
  const netAmount = input.amount - totalFee;
  if (netAmount <= 0n) {
    throw new DomainError('AMOUNT_OUT_OF_RANGE', `The fees (${totalFee} ${input.currency} minor units) would take the whole amount`, {
      amount: input.amount,
      totalFee,
      minimumAmount: totalFee + 1n,
      currency: input.currency,
      cryptoNetwork: input.network,
    });
  }
  return { networkFee: fee.networkFeeMinor, networkFeeAsset: fee.feeAsset, applicationFee, totalFee, netAmount };
}

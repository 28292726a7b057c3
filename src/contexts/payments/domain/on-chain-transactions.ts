import { createHash } from 'node:crypto';
import { encodeBase58 } from '../../../domain/identifiers/base58';

/**
 * The on-chain leg of a payment: the hash of the transfer to an external wallet (the payout's
 * destination) or from one (a real-time funding's source), and the network it settled on — the
 * reference's `onChainTransaction { transactionHash, network }`, shown once the transfer settled.
 */
export interface OnChainTransaction {
  transactionHash: string;
  network: OnChainNetwork;
}

/**
 * The networks a transfer settles on, with the form of their transaction hashes: the reference's
 * CryptoNetwork values, plus Arbitrum (a wallet type of the spec the reference lacks) and
 * Lightning (a payment identified by its payment hash).
 */
const HASH_FORMS = {
  SOLANA: 'base58Signature',
  ETHEREUM: 'evm',
  BASE: 'evm',
  POLYGON: 'evm',
  PLASMA: 'evm',
  ARBITRUM: 'evm',
  TRON: 'hex',
  BITCOIN: 'hex',
  SPARK: 'hex',
  LIGHTNING: 'hex',
} as const;

export type OnChainNetwork = keyof typeof HASH_FORMS;
export const ON_CHAIN_NETWORKS = Object.keys(HASH_FORMS) as OnChainNetwork[];

/** The network a payout to an external account of this type (its rail) settles on; none for fiat rails. */
const NETWORK_OF_WALLET_RAIL: Readonly<Record<string, OnChainNetwork>> = {
  SOLANA_WALLET: 'SOLANA',
  ETHEREUM_WALLET: 'ETHEREUM',
  BASE_WALLET: 'BASE',
  POLYGON_WALLET: 'POLYGON',
  PLASMA_WALLET: 'PLASMA',
  ARBITRUM_WALLET: 'ARBITRUM',
  TRON_WALLET: 'TRON',
  SPARK_WALLET: 'SPARK',
  LIGHTNING: 'LIGHTNING',
};

export function networkOfRail(rail: string | null | undefined): OnChainNetwork | undefined {
  return rail ? NETWORK_OF_WALLET_RAIL[rail] : undefined;
}

export function isOnChainNetwork(value: unknown): value is OnChainNetwork {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(HASH_FORMS, value);
}

/**
 * The simulated rail's hash for one leg of a payment, in the network's form: a Solana signature
 * (Base58 of 64 bytes), an EVM hash (0x and 64 hex digits), or 64 hex digits (Bitcoin and Tron
 * transaction ids, Spark transaction hashes, Lightning payment hashes). It derives from the
 * transaction's id and the leg alone, so a read, a retried step or a replay sees the same one.
 */
export function simulatedOnChainTransaction(network: OnChainNetwork, transactionId: string, leg: 'source' | 'destination'): OnChainTransaction {
  const seed = `${transactionId}\u0000${leg}\u0000${network}`;
  switch (HASH_FORMS[network]) {
    case 'base58Signature':
      return { network, transactionHash: encodeBase58(createHash('sha512').update(seed).digest()) };
    case 'evm':
      return { network, transactionHash: `0x${createHash('sha256').update(seed).digest('hex')}` };
    case 'hex':
      return { network, transactionHash: createHash('sha256').update(seed).digest('hex') };
  }
}

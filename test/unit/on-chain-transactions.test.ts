import { networkOfRail, simulatedOnChainTransaction, type OnChainNetwork } from '../../src/contexts/payments/domain/on-chain-transactions';
import { decodeBase58 } from '../../src/domain/identifiers/base58';

describe('the simulated rail’s on-chain hashes', () => {
  const id = 'Transaction:019542f5-b3e7-1d02-0000-000000000009';

  test('each network’s hash has the form of its chain', () => {
    const hashOf = (network: OnChainNetwork) => simulatedOnChainTransaction(network, id, 'destination').transactionHash;
    expect(decodeBase58(hashOf('SOLANA'))?.length).toBe(64);
    for (const evm of ['ETHEREUM', 'BASE', 'POLYGON', 'PLASMA', 'ARBITRUM'] as const) expect(hashOf(evm)).toMatch(/^0x[0-9a-f]{64}$/);
    for (const hex of ['BITCOIN', 'TRON', 'SPARK', 'LIGHTNING'] as const) expect(hashOf(hex)).toMatch(/^[0-9a-f]{64}$/);
  });

  test('a hash depends on the transaction and its leg only: stable across reads and retries, distinct per leg and transaction', () => {
    const once = simulatedOnChainTransaction('SOLANA', id, 'source');
    expect(simulatedOnChainTransaction('SOLANA', id, 'source')).toEqual(once);
    expect(simulatedOnChainTransaction('SOLANA', id, 'destination').transactionHash).not.toBe(once.transactionHash);
    expect(simulatedOnChainTransaction('SOLANA', `${id.slice(0, -1)}8`, 'source').transactionHash).not.toBe(once.transactionHash);
  });

  test('wallet rails settle on their network; fiat rails on none', () => {
    expect(networkOfRail('SOLANA_WALLET')).toBe('SOLANA');
    expect(networkOfRail('BASE_WALLET')).toBe('BASE');
    expect(networkOfRail('LIGHTNING')).toBe('LIGHTNING');
    expect(networkOfRail('SEPA')).toBeUndefined();
    expect(networkOfRail(null)).toBeUndefined();
  });
});

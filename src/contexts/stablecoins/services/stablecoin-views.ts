import { ONLY_PROVIDER } from '../domain/stablecoin-states';
import type { Stablecoin, StablecoinOperation, StablecoinProviderAccount } from '../entities';

/** The API's StablecoinProviderAccount: never the credentials. */
export function providerAccountView(link: StablecoinProviderAccount) {
  return {
    id: link.id,
    provider: link.provider,
    providerAccountId: link.providerAccountId,
    providerEnvironment: link.environment,
    status: link.status,
    ...(link.lastVerifiedAt ? { lastVerifiedAt: link.lastVerifiedAt.toISOString() } : {}),
    createdAt: link.createdAt.toISOString(),
    updatedAt: link.updatedAt.toISOString(),
  };
}

export function stablecoinView(coin: Stablecoin) {
  return {
    id: coin.id,
    name: coin.name,
    symbol: coin.symbol,
    baseCurrency: coin.baseCurrency,
    network: coin.network,
    decimals: coin.decimals,
    issuanceStatus: coin.issuanceStatus,
    // The spec's name for the reference's gridOperationsStatus (Svc for Grid).
    svcOperationsStatus: coin.gridOperationsStatus,
    networkTokenIdentifier: coin.networkTokenIdentifier,
    ...(coin.currency ? { currency: coin.currency } : {}),
    provider: coin.provider,
    stablecoinProviderAccountId: coin.providerAccountLinkId,
    providerEnvironment: coin.environment,
    providerTokenIdentifier: coin.providerTokenIdentifier,
    createdAt: coin.createdAt.toISOString(),
    updatedAt: coin.updatedAt.toISOString(),
  };
}

export type StablecoinView = ReturnType<typeof stablecoinView>;

export function operationView(op: StablecoinOperation) {
  return {
    id: op.id,
    stablecoinId: op.stablecoinId,
    operationType: op.operationType,
    status: op.status,
    amount: op.amount,
    provider: ONLY_PROVIDER,
    providerEnvironment: op.environment,
    stablecoinProviderAccountId: op.providerAccountLinkId,
    source: { ...op.source },
    destination: { ...op.destination },
    ...(op.fundingInstructions ? { fundingInstructions: { ...op.fundingInstructions } } : {}),
    ...(op.estimatedDelivery ? { estimatedDelivery: { ...op.estimatedDelivery } } : {}),
    ...(op.expiresAt ? { expiresAt: op.expiresAt.toISOString() } : {}),
    ...(op.providerStatus ? { providerStatus: op.providerStatus } : {}),
    ...(op.failureReason ? { failureReason: op.failureReason } : {}),
    ...(op.description ? { description: op.description } : {}),
    createdAt: op.createdAt.toISOString(),
    updatedAt: op.updatedAt.toISOString(),
  };
}

export type StablecoinOperationView = ReturnType<typeof operationView>;

import { createHash } from 'node:crypto';
import { scenarioSuffix } from '../../../domain/sandbox-scenarios';
import { ProviderRefusal, type AddressToLink, type ProviderCredentials, type ProviderOrder, type StablecoinProviderClient } from './provider';

/**
 * The sandbox's Brale. It keeps no state: every answer follows from what it is asked, so a test
 * (or a partner trying the sandbox) picks a scenario by the values it sends (docs/stablecoins.md).
 *
 * - Credentials: a secret starting with `invalid` is not accepted. A client id starting with
 *   `multi` reaches two provider accounts (`<id>-a`, `<id>-b`), every other one reaches one; one
 *   starting with `unreachable` finds the provider out of reach (the call fails without an answer).
 * - Tokens (`providerTokenIdentifier`, Brale's value type): `UNKNOWN…` does not exist, `ERROR…`
 *   makes the provider fail the call; the symbol is the value type up to its first `_`; a `_D<n>`
 *   part sets `n` decimals (6 otherwise); every token is against USD. For `PINNED…` the provider
 *   reports the network identifier, `btkn1` and the value type in lower case, and a registration
 *   naming another is refused; for the others it reports none.
 * - Issuance: `REJECT…` is rejected by the provider's review, `FAIL…` fails while provisioning.
 * - External accounts: a bank account number ending 201 is refused by the provider, 202 stays
 *   pending, 203 can only be linked by the issuer in the provider's dashboard. Spark wallets link.
 * - Provider balances: USDC on SOLANA, ETHEREUM and BASE, USDB on SPARK.
 * - Orders, by their value in cents: 1313 is refused when submitted; 1414 is accepted and then
 *   fails (the transfer does not go through). Every other order completes.
 */
export const SANDBOX_SCENARIOS = {
  invalidSecretPrefix: 'invalid',
  multiAccountClientPrefix: 'multi',
  unreachableClientPrefix: 'unreachable',
  unknownTokenPrefix: 'UNKNOWN',
  providerErrorTokenPrefix: 'ERROR',
  pinnedTokenPrefix: 'PINNED',
  rejectedIssuancePrefix: 'REJECT',
  failedIssuancePrefix: 'FAIL',
  refusedLinkSuffix: '201',
  pendingLinkSuffix: '202',
  manualLinkSuffix: '203',
  refusedOrderCents: 1313n,
  failingOrderCents: 1414n,
} as const;

export const SANDBOX_PROVIDER_BALANCES = ['USDC@SOLANA', 'USDC@ETHEREUM', 'USDC@BASE', 'USDB@SPARK'];

const digest = (...parts: string[]) => createHash('sha256').update(parts.join('\u0000')).digest('hex');

function providerAccountsOf(credentials: ProviderCredentials): string[] {
  if (credentials.apiClientId.startsWith(SANDBOX_SCENARIOS.unreachableClientPrefix))
    throw new Error('connect ETIMEDOUT (sandbox: the provider is out of reach)');
  if (credentials.apiClientSecret.startsWith(SANDBOX_SCENARIOS.invalidSecretPrefix))
    throw new ProviderRefusal('AUTHENTICATION', 'The provider did not accept the API credentials');
  const base = `brale_${digest('account', credentials.apiClientId).slice(0, 20)}`;
  return credentials.apiClientId.startsWith(SANDBOX_SCENARIOS.multiAccountClientPrefix) ? [`${base}-a`, `${base}-b`] : [base];
}

function reachable(credentials: ProviderCredentials, providerAccountId: string): void {
  if (!providerAccountsOf(credentials).includes(providerAccountId))
    throw new ProviderRefusal('AUTHENTICATION', 'The credentials no longer reach this provider account');
}

export function sandboxWireInstructions(operationId: string, valueType: string): Record<string, string> {
  return {
    rail: 'WIRE',
    bankName: 'Sandbox Reserve Bank',
    beneficiaryName: 'Brale Inc. (sandbox)',
    accountNumber: `9${BigInt(`0x${digest('wire', operationId).slice(0, 12)}`)
      .toString()
      .padStart(15, '0')
      .slice(0, 11)}`,
    routingNumber: '021000021',
    reference: `MINT-${digest('reference', operationId).slice(0, 10).toUpperCase()}`,
    valueType,
  };
}

export function sandboxDepositInstructions(operationId: string, valueType: string): Record<string, string> {
  return { rail: 'SPARK', network: 'SPARK', address: `sparkrt1${digest('deposit', operationId).slice(0, 40)}`, valueType };
}

export const sandboxProvider: StablecoinProviderClient = {
  async accounts(credentials) {
    return providerAccountsOf(credentials);
  },
  async token(credentials, providerAccountId, valueType) {
    reachable(credentials, providerAccountId);
    if (valueType.startsWith(SANDBOX_SCENARIOS.unknownTokenPrefix))
      throw new ProviderRefusal('NOT_FOUND', `The provider has no token with value type ${valueType}`);
    if (valueType.startsWith(SANDBOX_SCENARIOS.providerErrorTokenPrefix)) throw new ProviderRefusal('REFUSED', 'The provider failed to read the token');
    const symbol = valueType.split('_')[0]!;
    const decimals = /_D(\d{1,2})(?:_|$)/.exec(valueType);
    const pinned = valueType.startsWith(SANDBOX_SCENARIOS.pinnedTokenPrefix) ? { networkTokenIdentifier: `btkn1${valueType.toLowerCase()}` } : {};
    return { name: `${symbol} Dollar`, symbol, decimals: decimals ? Math.min(18, Number(decimals[1])) : 6, baseCurrency: 'USD', ...pinned };
  },
  async reviewIssuance(credentials, providerAccountId, valueType) {
    reachable(credentials, providerAccountId);
    return valueType.startsWith(SANDBOX_SCENARIOS.rejectedIssuancePrefix) ? 'REJECTED' : 'APPROVED';
  },
  async provisionIssuance(credentials, providerAccountId, valueType) {
    reachable(credentials, providerAccountId);
    return valueType.startsWith(SANDBOX_SCENARIOS.failedIssuancePrefix) ? 'FAILED' : 'PROVISIONED';
  },
  async linkAddress(credentials, providerAccountId, address: AddressToLink) {
    reachable(credentials, providerAccountId);
    const addressId = `addr_${digest('address', providerAccountId, address.identifier).slice(0, 20)}`;
    if (address.kind === 'SPARK_WALLET') return { status: 'LINKED', addressId };
    switch (scenarioSuffix(address.identifier)) {
      case SANDBOX_SCENARIOS.refusedLinkSuffix:
        return { status: 'REFUSED', addressId: null };
      case SANDBOX_SCENARIOS.pendingLinkSuffix:
        return { status: 'PENDING', addressId };
      case SANDBOX_SCENARIOS.manualLinkSuffix:
        return { status: 'MANUAL_LINK_REQUIRED', addressId: null };
      default:
        return { status: 'LINKED', addressId };
    }
  },
  async balances(credentials, providerAccountId) {
    reachable(credentials, providerAccountId);
    return SANDBOX_PROVIDER_BALANCES;
  },
  async submitOrder(credentials, providerAccountId, order: ProviderOrder) {
    reachable(credentials, providerAccountId);
    if (order.cents === SANDBOX_SCENARIOS.refusedOrderCents) throw new ProviderRefusal('REFUSED', 'The provider refused the order');
    const reference = `order_${digest('order', order.operationId).slice(0, 20)}`;
    if (order.type === 'MINT' && order.source.type === 'WIRE')
      return { reference, providerStatus: 'pending', fundingInstructions: sandboxWireInstructions(order.operationId, order.valueType) };
    if (order.type === 'BURN' && order.source.type === 'EXTERNAL_ACCOUNT')
      return { reference, providerStatus: 'pending', fundingInstructions: sandboxDepositInstructions(order.operationId, order.valueType) };
    return { reference, providerStatus: 'processing' };
  },
  async orderOutcome(credentials, providerAccountId, order: ProviderOrder) {
    reachable(credentials, providerAccountId);
    return order.cents === SANDBOX_SCENARIOS.failingOrderCents
      ? { providerStatus: 'failed', completed: false }
      : { providerStatus: 'complete', completed: true };
  },
};

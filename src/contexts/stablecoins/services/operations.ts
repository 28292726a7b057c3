import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Caller } from '../../platforms';
import { DomainError } from '../../../domain/errors';
import { derivedId, isId } from '../../../domain/ids';
import { listPage } from '../../../services/listing';
import { findOverdue, type StrandedScope } from '../../../temporal/start-stranded';
import { ensureSystemAccountSet, ledgerBalance, postEntry } from '../../ledger';
import { parseOperationAmount } from '../domain/stablecoin-amounts';
import {
  assertBurnWithinSupply,
  assertGridFlow,
  assertPayoutRailAllowed,
  awaitsFunding,
  failureReasonOf,
  FAILURE_REASONS,
  FINAL_OPERATION_STATUSES,
  SUBMISSION_REFUSALS,
  type SubmissionRefusal,
  operationLines,
  PAYOUT_TIMING,
  type OperationDestination,
  type OperationSource,
  type OperationStatus,
  type OperationType,
  type PayoutRail,
} from '../domain/operation-rules';
import type { ProviderOrder } from '../domain/provider';
import { assertProvisioned } from '../domain/stablecoin-states';
import { Stablecoin, StablecoinOperation } from '../entities';
import { issuerAccount, providerAddress } from './account-links';
import { railsInUse } from '../../external-accounts';
import { reserveAccountId, supplyAccountId } from './stablecoin-ledger';
import { onLink, providerFor, retryable, usableLink, type UsableLink } from './provider-client';
import { findStablecoin } from './stablecoins';
import { operationView } from './stablecoin-views';

export type MintFunding =
  | { type: 'WIRE' }
  | { type: 'ACH_DEBIT' | 'SAME_DAY_ACH_DEBIT'; externalAccountId: string }
  | { type: 'SVC_INTERNAL_ACCOUNT'; accountId: string }
  | { type: 'PROVIDER_INTERNAL_BALANCE'; sourceTokenIdentifier: string; cryptoNetwork: string };

export interface MintRequest {
  amount: string;
  fundingSource: MintFunding;
  destination: { accountId: string };
  description?: string;
}

export type BurnSource = { type: 'EXTERNAL_ACCOUNT' } | { type: 'SVC_INTERNAL_ACCOUNT'; accountId: string } | { type: 'PROVIDER_INTERNAL_BALANCE' };

export interface BurnRequest {
  amount: string;
  source: BurnSource;
  destination: { type: 'EXTERNAL_ACCOUNT'; externalAccountId: string; rail: PayoutRail };
  description?: string;
}

/** The value of the coin's burns not yet final: supply they have claimed. */
async function claimedByOpenBurns(em: EntityManager, stablecoinId: string): Promise<bigint> {
  const [row] = await em
    .getConnection()
    .execute<{ total: string }[]>(
      `select coalesce(sum(fiat_amount), 0)::text as total from stablecoin_operations where stablecoin_id = ? and operation_type = 'BURN' and status not in ('COMPLETED', 'FAILED', 'EXPIRED')`,
      [stablecoinId],
      'all',
      em.getTransactionContext(),
    );
  return BigInt(row!.total);
}

async function checkMint(
  em: EntityManager,
  usable: UsableLink,
  coin: Stablecoin,
  body: MintRequest,
): Promise<{ source: OperationSource; destination: OperationDestination }> {
  const funding = body.fundingSource;
  let source: OperationSource;
  switch (funding.type) {
    case 'WIRE':
      source = { type: 'WIRE' };
      break;
    case 'ACH_DEBIT':
    case 'SAME_DAY_ACH_DEBIT': {
      const account = await issuerAccount(em, coin.platformId, funding.externalAccountId, 'achDebit', 'fundingSource.externalAccountId');
      await providerAddress(em, usable, account);
      source = { type: funding.type, externalAccountId: account.id };
      break;
    }
    case 'SVC_INTERNAL_ACCOUNT':
      return assertGridFlow('mintFunding', coin.gridOperationsStatus);
    case 'PROVIDER_INTERNAL_BALANCE': {
      const balances = await onLink(em, usable, (u) => u.client.balances(u.credentials, u.link.providerAccountId));
      const wanted = `${funding.sourceTokenIdentifier}@${funding.cryptoNetwork}`;
      if (!balances.includes(wanted)) {
        throw new DomainError(
          'STABLECOIN_PROVIDER_SOURCE_NOT_LINKED',
          `The provider account holds no ${funding.sourceTokenIdentifier} on ${funding.cryptoNetwork}; it holds: ${balances.join(', ') || 'nothing'}`,
        );
      }
      source = { type: 'PROVIDER_INTERNAL_BALANCE', sourceTokenIdentifier: funding.sourceTokenIdentifier, cryptoNetwork: funding.cryptoNetwork };
      break;
    }
  }
  const destinationId = body.destination.accountId;
  if (isId('InternalAccount', destinationId)) return assertGridFlow('mintDestination', coin.gridOperationsStatus);
  const wallet = await issuerAccount(em, coin.platformId, destinationId, 'mintDestination', 'destination.accountId');
  await providerAddress(em, usable, wallet);
  return { source, destination: { accountId: wallet.id } };
}

async function checkBurn(
  em: EntityManager,
  usable: UsableLink,
  coin: Stablecoin,
  body: BurnRequest,
): Promise<{ source: OperationSource; destination: OperationDestination }> {
  if (body.source.type === 'SVC_INTERNAL_ACCOUNT') return assertGridFlow('burnSource', coin.gridOperationsStatus);
  const bank = await issuerAccount(em, coin.platformId, body.destination.externalAccountId, 'burnDestination', 'destination.externalAccountId');
  assertPayoutRailAllowed(railsInUse(bank.accountInfo, bank.paymentRails) ?? [], body.destination.rail);
  await providerAddress(em, usable, bank);
  return { source: { type: body.source.type }, destination: { accountId: bank.id, rail: body.destination.rail } };
}

/**
 * Records a mint or burn (CREATED) after every check that can be made before the provider is
 * asked: the coin PROVISIONED, its provider link usable, the amount a whole cent, the accounts of
 * the right kind and linked with the provider, a burn within the supply not already claimed by
 * burns under way. Its id derives from the Idempotency-Key (the workflow id too): a retry finds
 * the same operation and can never start a second one. The workflow then submits it.
 */
export async function createOperation(
  em: EntityManager,
  masterKey: Buffer,
  caller: Caller,
  stablecoinId: string,
  type: OperationType,
  body: MintRequest | BurnRequest,
  idempotencyKey: string,
): Promise<{ operation: StablecoinOperation; coin: Stablecoin }> {
  providerFor(caller.environment);
  const coin = await findStablecoin(em, caller.platformId, stablecoinId);
  // A coin registered in the other environment moves only with that environment's tokens.
  if (coin.environment !== caller.environment) throw DomainError.notFound('Stablecoin');
  const id = derivedId('StablecoinOperation', caller.platformId, stablecoinId, type, idempotencyKey);
  const mine = await em.findOne(StablecoinOperation, { id });
  if (mine) return { operation: mine, coin };
  assertProvisioned(coin.issuanceStatus);
  const usable = await usableLink(em, masterKey, coin.providerAccountLinkId);
  const { units, cents } = parseOperationAmount(body.amount, coin.decimals);
  const { source, destination } =
    type === 'MINT' ? await checkMint(em, usable, coin, body as MintRequest) : await checkBurn(em, usable, coin, body as BurnRequest);
  const operation = await em.transactional(async (tx) => {
    // The coin's row lock serialises burns: two cannot both claim the last of the supply.
    await tx.findOneOrFail(Stablecoin, { id: coin.id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const again = await tx.findOne(StablecoinOperation, { id });
    if (again) return again;
    if (type === 'BURN') {
      // The reserve keeps no running balance (it may go negative): its postings, all made under this lock, are summed.
      const reserve = await ledgerBalance(tx, reserveAccountId(coin.platformId, coin.id));
      assertBurnWithinSupply(cents, reserve, await claimedByOpenBurns(tx, coin.id), coin.baseCurrency);
    }
    const now = new Date();
    const rail = destination.rail;
    return tx.create(StablecoinOperation, {
      id,
      platformId: coin.platformId,
      environment: coin.environment,
      stablecoinId: coin.id,
      providerAccountLinkId: coin.providerAccountLinkId,
      operationType: type,
      status: 'CREATED',
      amount: units.toString(),
      fiatAmount: cents,
      source,
      destination,
      fundingInstructions: null,
      estimatedDelivery: rail ? { rail, amount: cents.toString(), currency: coin.baseCurrency, timing: PAYOUT_TIMING[rail] } : null,
      expiresAt: null,
      providerStatus: null,
      providerReference: null,
      failureReason: null,
      description: body.description ?? null,
      createdAt: now,
      updatedAt: now,
    });
  });
  return { operation, coin };
}

export async function findOperation(em: EntityManager, platformId: string, id: string): Promise<StablecoinOperation> {
  const op = await em.findOne(StablecoinOperation, { id, platformId });
  if (!op) throw DomainError.notFound('StablecoinOperation');
  return op;
}

export async function listOperations(
  em: EntityManager,
  platformId: string,
  stablecoinId: string,
  q: { limit: number; cursor?: string; operationType?: OperationType },
) {
  await findStablecoin(em, platformId, stablecoinId);
  return listPage(em, StablecoinOperation, { platformId, stablecoinId, ...(q.operationType ? { operationType: q.operationType } : {}) }, q, (rows) =>
    rows.map((r) => operationView(r)),
  );
}

// ---- The steps of an operation's workflow. Each is guarded by the status it starts from, so a
// retried activity (or a step racing another) finds the work done and reports where it stands.

export interface StepOutcome {
  status: OperationStatus;
  /** Milliseconds left of the funding window (PENDING_FUNDING). */
  fundingWindowMs?: number;
  /** Why the operation was refused when it was submitted (it is FAILED). */
  refusal?: SubmissionRefusal;
}

function outcomeOf(op: StablecoinOperation): StepOutcome {
  const refusal =
    op.status === 'FAILED' && op.failureReason && op.failureReason in SUBMISSION_REFUSALS
      ? SUBMISSION_REFUSALS[op.failureReason as keyof typeof SUBMISSION_REFUSALS]
      : undefined;
  return {
    status: op.status,
    ...(op.status === 'PENDING_FUNDING' && op.expiresAt ? { fundingWindowMs: Math.max(0, op.expiresAt.getTime() - Date.now()) } : {}),
    ...(refusal ? { refusal } : {}),
  };
}

async function orderOf(em: EntityManager, op: StablecoinOperation): Promise<ProviderOrder> {
  const coin = await em.findOneOrFail(Stablecoin, { id: op.stablecoinId });
  return {
    operationId: op.id,
    type: op.operationType,
    valueType: coin.providerTokenIdentifier,
    units: BigInt(op.amount),
    cents: op.fiatAmount,
    source: op.source,
    destinationAddressId: null,
    ...(op.destination.rail ? { rail: op.destination.rail } : {}),
  };
}

/** Moves the operation from one status to the next, only if it is still where the step expects it. */
async function move(em: EntityManager, id: string, from: OperationStatus, changes: Partial<StablecoinOperation>): Promise<StablecoinOperation> {
  await em.nativeUpdate(StablecoinOperation, { id, status: from }, { ...changes, updatedAt: new Date() });
  return em.fork().findOneOrFail(StablecoinOperation, { id });
}

/**
 * Submits a CREATED operation to the provider (the operation id is the provider's idempotency
 * key). It then waits for funds (PENDING_FUNDING, with the instructions and the window's end) or
 * for the provider (PENDING_PROVIDER). A provider refusal fails it; a provider out of reach is
 * retried by the activity.
 */
export async function submitOperation(em: EntityManager, masterKey: Buffer, id: string, fundingWindowSeconds: number): Promise<StepOutcome> {
  const op = await em.findOneOrFail(StablecoinOperation, { id });
  if (op.status !== 'CREATED') return outcomeOf(op);
  const order = await orderOf(em, op);
  let submitted;
  try {
    const usable = await usableLink(em, masterKey, op.providerAccountLinkId);
    submitted = await onLink(em, usable, (u) => u.client.submitOrder(u.credentials, u.link.providerAccountId, order));
  } catch (err) {
    const reason = err instanceof DomainError ? failureReasonOf(err.code) : undefined;
    // Anything but a refusal (the provider out of reach) is retried by the activity.
    if (!reason) throw retryable(err);
    return outcomeOf(await move(em, id, 'CREATED', { status: 'FAILED', failureReason: reason, providerStatus: 'rejected' }));
  }
  const waits = awaitsFunding(op.operationType, op.source);
  const moved = await move(em, id, 'CREATED', {
    status: waits ? 'PENDING_FUNDING' : 'PENDING_PROVIDER',
    providerReference: submitted.reference,
    providerStatus: submitted.providerStatus,
    fundingInstructions: submitted.fundingInstructions ?? null,
    expiresAt: waits ? new Date(Date.now() + fundingWindowSeconds * 1000) : null,
  });
  return outcomeOf(moved);
}

/**
 * An operation waiting for funds leaves PENDING_FUNDING only with them (to PENDING_PROVIDER) or
 * by expiring; it was refused, if at all, before it waited. So past PENDING_FUNDING and neither
 * expired nor refused at submission means the funds were recorded.
 */
function fundsRecorded(op: StablecoinOperation): boolean {
  if (!awaitsFunding(op.operationType, op.source)) return false;
  if (op.status === 'FAILED') return op.failureReason === FAILURE_REASONS.providerTransferFailed;
  return op.status === 'PENDING_PROVIDER' || op.status === 'PROCESSING' || op.status === 'COMPLETED';
}

/**
 * The funds an operation waits for arrived (the sandbox's stand-in for the provider's notice).
 * Refused once the window has closed or the operation is no longer waiting.
 */
export async function recordFunding(em: EntityManager, id: string): Promise<StepOutcome> {
  return em.transactional(async (tx) => {
    const op = await tx.findOneOrFail(StablecoinOperation, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    // A retried step whose first attempt recorded the funds finds them recorded.
    if (fundsRecorded(op)) return outcomeOf(op);
    if (op.status !== 'PENDING_FUNDING' || (op.expiresAt && op.expiresAt.getTime() <= Date.now())) {
      throw new DomainError(
        'INVALID_STATE_TRANSITION',
        `The operation is ${op.status === 'PENDING_FUNDING' ? 'past its funding window' : op.status}; it does not wait for funds`,
      );
    }
    op.status = 'PENDING_PROVIDER';
    op.providerStatus = 'funds_received';
    op.updatedAt = new Date();
    return outcomeOf(op);
  });
}

/** The funding window closed: EXPIRED, unless the funds came first. */
export async function expireOperation(em: EntityManager, id: string): Promise<StepOutcome> {
  return outcomeOf(await move(em, id, 'PENDING_FUNDING', { status: 'EXPIRED', providerStatus: 'expired' }));
}

/** The provider took the order up. */
export async function startProcessing(em: EntityManager, id: string): Promise<StepOutcome> {
  return outcomeOf(await move(em, id, 'PENDING_PROVIDER', { status: 'PROCESSING', providerStatus: 'processing' }));
}

/**
 * The provider finished the order: COMPLETED with the ledger entry (reserve and supply move
 * together, once, under the operation's key) in the same transaction, or FAILED.
 */
export async function settleOperation(em: EntityManager, masterKey: Buffer, id: string): Promise<StepOutcome> {
  const op = await em.findOneOrFail(StablecoinOperation, { id });
  if (op.status !== 'PROCESSING') return outcomeOf(op);
  // The provider finishes an order it accepted whatever becomes of the link meanwhile: its outcome
  // is read with the credentials the order was placed with, even if the link was since marked
  // INVALID or REVOKED. Only a provider that cannot be asked leaves it PROCESSING (retried).
  const usable = await usableLink(em, masterKey, op.providerAccountLinkId, { anyStatus: true });
  const order = await orderOf(em, op);
  const outcome = await onLink(em, usable, (u) => u.client.orderOutcome(u.credentials, u.link.providerAccountId, order)).catch((err: unknown) => {
    throw retryable(err);
  });
  return em.transactional(async (tx) => {
    const locked = await tx.findOneOrFail(StablecoinOperation, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (locked.status !== 'PROCESSING') return outcomeOf(locked);
    locked.providerStatus = outcome.providerStatus;
    locked.updatedAt = new Date();
    if (!outcome.completed) {
      locked.status = 'FAILED';
      locked.failureReason = FAILURE_REASONS.providerTransferFailed;
      return outcomeOf(locked);
    }
    // The coin's row lock, as burn creation takes it: a burn is never judged against a reserve
    // read before, and open burns read after, this one settles.
    const coin = await tx.findOneOrFail(Stablecoin, { id: locked.stablecoinId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const reserve = reserveAccountId(coin.platformId, coin.id);
    const supply = supplyAccountId(coin.platformId, coin.id);
    await ensureSystemAccountSet(tx, coin.platformId, coin.baseCurrency, [
      [reserve, 'STABLECOIN_RESERVE'],
      [supply, 'STABLECOIN_SUPPLY'],
    ]);
    await postEntry(tx, {
      platformId: coin.platformId,
      idempotencyKey: `stablecoin-operation:${locked.id}`,
      description: `${locked.operationType === 'MINT' ? 'Mint' : 'Burn'} of ${locked.amount} ${coin.symbol} (${locked.id})`,
      lines: operationLines(locked.operationType, reserve, supply, coin.baseCurrency, locked.fiatAmount),
    });
    locked.status = 'COMPLETED';
    return outcomeOf(locked);
  });
}

export const isFinal = (status: OperationStatus) => FINAL_OPERATION_STATUSES.includes(status);

/** Operations recorded but never submitted (their workflow was not started), for the sweep. */
export async function strandedOperations(em: EntityManager, scope: StrandedScope): Promise<StablecoinOperation[]> {
  return findOverdue(em, StablecoinOperation, { status: 'CREATED' }, scope, { field: 'createdAt' });
}

import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ExternalAccount } from '../entities';
import { DomainError } from '../../../domain/errors';
import { derivedId } from '../../../domain/ids';
import { recordWebhookEvent } from '../../webhooks';
import type { ExternalAccountStatus, OwnershipChallengeState, OwnershipMethod } from '../domain/account-status';
import { accountTypeSpec } from '../domain/account-types';
import { isSelfCustodyWallet } from '../domain/registration';
import { sandboxBankValidationPasses, verifiedNameFor } from '../domain/sandbox-scenarios';
import { verifyOwnershipSignature } from '../domain/ownership-signatures';
import { externalAccountView, type ExternalAccountView } from './external-account-views';

export type RecordedEvent = { eventId: string; type: string };

export const STATUS_UPDATED = 'EXTERNAL_ACCOUNT.STATUS_UPDATED';

/**
 * Runs `change` on the locked account in one transaction and, when the account's status moved,
 * records the EXTERNAL_ACCOUNT.STATUS_UPDATED event in the same transaction (its id derived from
 * `step`, so a retried activity records it once). A deleted account is left alone.
 */
async function changeAccount<T>(
  em: EntityManager,
  accountId: string,
  step: string,
  change: (account: ExternalAccount) => T,
): Promise<{ result: T | undefined; account: ExternalAccount | null; events: RecordedEvent[] }> {
  return em.transactional(async (tx) => {
    const account = await tx.findOne(ExternalAccount, { id: accountId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!account || account.deletedAt) return { result: undefined, account: account ?? null, events: [] };
    const before = account.status;
    const result = change(account);
    account.updatedAt = new Date();
    await tx.flush();
    const events: RecordedEvent[] = [];
    if (account.status !== before) {
      const event = await recordWebhookEvent(tx, {
        id: derivedId('Webhook', accountId, step),
        platformId: account.platformId,
        environment: account.environment,
        type: STATUS_UPDATED,
        data: externalAccountView(account),
      });
      events.push({ eventId: event.id, type: event.type });
    }
    return { result, account, events };
  });
}

/** PENDING ends once neither the name check nor the US bank validation is outstanding. */
function settledStatus(account: ExternalAccount): ExternalAccountStatus {
  if (account.status !== 'PENDING') return account.status;
  if (account.bankValidation === 'FAILED') return 'INACTIVE';
  if (account.bankValidation === 'PENDING' || account.beneficiaryVerificationStatus === 'PENDING') return 'PENDING';
  return 'ACTIVE';
}

/** The rail's late answer to a name check that was PENDING: a match, with the name it holds. */
export async function resolveNameCheck(em: EntityManager, accountId: string) {
  const { events } = await changeAccount(em, accountId, 'name-check', (account) => {
    if (account.beneficiaryVerificationStatus !== 'PENDING') return;
    const beneficiary = account.accountInfo.beneficiary as { fullName?: string; legalName?: string } | undefined;
    account.beneficiaryVerificationStatus = 'MATCHED';
    account.beneficiaryVerifiedName = verifiedNameFor('MATCHED', beneficiary?.fullName ?? beneficiary?.legalName ?? '') ?? null;
    account.status = settledStatus(account);
  });
  return { events };
}

/**
 * The end of a US account's micro-entry return window: the entry was not returned (validated) or
 * it was (the account is INACTIVE and refused with INVALID_BANK_ACCOUNT on use). The sandbox fails
 * account numbers ending in 110; outside the sandbox no rail is connected and the entry stands.
 */
export async function completeBankValidation(em: EntityManager, accountId: string) {
  const { events } = await changeAccount(em, accountId, 'bank-validation', (account) => {
    if (account.bankValidation !== 'PENDING') return;
    const passes = account.environment !== 'SANDBOX' || sandboxBankValidationPasses(String(account.accountInfo.accountNumber ?? ''));
    account.bankValidation = passes ? 'PASSED' : 'FAILED';
    account.status = settledStatus(account);
  });
  return { events };
}

function assertOwnershipApplies(account: ExternalAccount): void {
  const applies = isSelfCustodyWallet(accountTypeSpec(account.accountType), account.accountInfo) && account.ownershipType === 'FIRST_PARTY';
  if (!applies) throw new DomainError('CONFLICT', 'Ownership verification applies only to FIRST_PARTY self-custody wallets');
  if (account.status !== 'PENDING_OWNERSHIP_VERIFICATION' && account.status !== 'UNVERIFIED') {
    throw new DomainError('CONFLICT', `Ownership verification is not applicable to an account that is ${account.status}`);
  }
}

export interface ChallengeRequest {
  accountId: string;
  challengeId: string;
  method: OwnershipMethod;
  validForMinutes: number;
  /** Where the sandbox's stand-in for the hosted liveness flow is reached. */
  livenessLink: string;
}

/** The words a wallet signs: they name the account and the challenge, so a signature proves this one. */
export function messageToSign(accountId: string, address: string, challengeId: string, expiresAt: string): string {
  return `I control the wallet ${address} and register it as ${accountId}. Challenge ${challengeId}, valid until ${expiresAt}.`;
}

/** Issues a challenge (replacing any in flight); an UNVERIFIED account is pending again. */
export async function openOwnershipChallenge(em: EntityManager, request: ChallengeRequest) {
  const account = await em.fork().findOne(ExternalAccount, { id: request.accountId, deletedAt: null });
  if (!account) throw DomainError.notFound('External account');
  assertOwnershipApplies(account);
  const expiresAt = new Date(Date.now() + request.validForMinutes * 60_000).toISOString();
  const { result, events } = await changeAccount(em, request.accountId, `challenge:${request.challengeId}`, (locked) => {
    assertOwnershipApplies(locked);
    const challenge: OwnershipChallengeState =
      request.method === 'WALLET_SIGNATURE'
        ? {
            challengeId: request.challengeId,
            method: 'WALLET_SIGNATURE',
            messageToSign: messageToSign(locked.id, String(locked.accountInfo.address), request.challengeId, expiresAt),
            expiresAt,
            state: 'OPEN',
          }
        : {
            challengeId: request.challengeId,
            method: 'LIVENESS',
            verificationLink: request.livenessLink,
            token: request.challengeId,
            expiresAt,
            state: 'OPEN',
          };
    // A repeated activity finds its own challenge already issued and returns it unchanged.
    if (locked.ownershipChallenge?.challengeId !== request.challengeId) locked.ownershipChallenge = challenge;
    locked.status = 'PENDING_OWNERSHIP_VERIFICATION';
    return locked.ownershipChallenge!;
  });
  return { challenge: challengeView(result!), events };
}

export function challengeView(challenge: OwnershipChallengeState) {
  return challenge.method === 'WALLET_SIGNATURE'
    ? { method: 'WALLET_SIGNATURE' as const, messageToSign: challenge.messageToSign!, expiresAt: challenge.expiresAt }
    : {
        method: 'LIVENESS' as const,
        verificationLink: challenge.verificationLink!,
        ...(challenge.token ? { token: challenge.token } : {}),
        expiresAt: challenge.expiresAt,
      };
}

export type SignatureOutcome = 'PASSED' | 'FAILED' | 'EXPIRED' | 'NO_CHALLENGE';

/**
 * Checks a wallet's signature over the outstanding challenge: ACTIVE when it verifies, UNVERIFIED
 * when it does not or the challenge has expired (a new challenge must be started); nothing
 * changes when no signature challenge is outstanding.
 */
export async function submitOwnershipSignature(
  em: EntityManager,
  input: { accountId: string; signature: string; signatureScheme?: 'bip137' | 'electrum'; attemptId: string },
) {
  const now = new Date();
  const { result, account, events } = await changeAccount(
    em,
    input.accountId,
    `signature:${input.attemptId}`,
    (locked): { outcome: SignatureOutcome; reason?: string } => {
      const challenge = locked.ownershipChallenge;
      if (!challenge || challenge.method !== 'WALLET_SIGNATURE' || (challenge.state !== 'OPEN' && challenge.state !== 'EXPIRED'))
        return { outcome: 'NO_CHALLENGE' };
      if (challenge.state === 'EXPIRED' || Date.parse(challenge.expiresAt) <= now.getTime()) {
        locked.ownershipChallenge = { ...challenge, state: 'FAILED' };
        locked.status = 'UNVERIFIED';
        return { outcome: 'EXPIRED', reason: 'the challenge expired; start a new challenge' };
      }
      const check = verifyOwnershipSignature({
        accountType: locked.accountType,
        address: String(locked.accountInfo.address),
        message: challenge.messageToSign!,
        signature: input.signature,
        signatureScheme: input.signatureScheme,
      });
      locked.ownershipChallenge = { ...challenge, state: check.valid ? 'PASSED' : 'FAILED' };
      locked.status = check.valid ? 'ACTIVE' : 'UNVERIFIED';
      return check.valid ? { outcome: 'PASSED' } : { outcome: 'FAILED', reason: check.reason };
    },
  );
  if (!account || account.deletedAt) throw DomainError.notFound('External account');
  return { outcome: result!.outcome, reason: result!.reason, account: externalAccountView(account) as ExternalAccountView, events };
}

/** The outcome of the hosted liveness flow for the outstanding LIVENESS challenge. */
export async function recordLivenessOutcome(em: EntityManager, input: { accountId: string; challengeId: string; passed: boolean }) {
  const { events } = await changeAccount(em, input.accountId, `liveness:${input.challengeId}`, (locked) => {
    const challenge = locked.ownershipChallenge;
    if (challenge?.challengeId !== input.challengeId || challenge.state !== 'OPEN') return;
    locked.ownershipChallenge = { ...challenge, state: input.passed ? 'PASSED' : 'FAILED' };
    locked.status = input.passed ? 'ACTIVE' : 'UNVERIFIED';
  });
  return { events };
}

/** A challenge nobody answered in time: closed; the account keeps waiting for a new one. */
export async function expireOwnershipChallenge(em: EntityManager, input: { accountId: string; challengeId: string }) {
  const { events } = await changeAccount(em, input.accountId, `expiry:${input.challengeId}`, (locked) => {
    const challenge = locked.ownershipChallenge;
    if (challenge?.challengeId === input.challengeId && challenge.state === 'OPEN') locked.ownershipChallenge = { ...challenge, state: 'EXPIRED' };
  });
  return { events };
}

import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError } from '../../../domain/errors';
import { requestFingerprint } from '../../../domain/idempotency';
import { newId } from '../../../domain/ids';
import type { Environment } from '../../platforms';
import { SIGNED_REQUEST_TTL_MS } from '../domain/auth-methods';
import { signedLegOf, type SignatureHeaders } from '../domain/signature-headers';
import { LEGACY_SANDBOX_SIGNATURE, parseStamp, stampSignsPayload } from '../domain/stamp';
import { AuthSession, SignedRequest } from '../entities';
import { requireWallet } from './wallets';

/** One call of a signed wallet operation, as a route of any context received it. */
export interface SignedCall extends SignatureHeaders {
  platformId: string;
  environment: Environment;
  /** The EMBEDDED_WALLET internal account that must sign. */
  accountId: string;
  /** The bound request: method, path (without query) and parsed JSON body. */
  method: string;
  path: string;
  body: unknown;
}

/** Who signed the retry: the session (the one the sandbox's legacy literal stands for), or null for an operation's bound key. */
export interface SignedBy {
  request: SignedRequest;
  session: AuthSession | null;
}

/** The 202 body of a first call (auth endpoints add `type`). */
export interface SignedRequestChallenge {
  payloadToSign: string;
  requestId: string;
  expiresAt: string;
}

export interface SignedOperation<T> {
  /** Stored with the request; a retry of another operation does not find it. */
  name: string;
  /** The payload's `type` (Turnkey-style activity name), e.g. ACTIVITY_TYPE_DELETE_AUTHENTICATORS. */
  activityType: string;
  /**
   * Pending requests of one group on one wallet exclude each other: a first call while another
   * of the group waits is 409 OPERATION_IN_PROGRESS, unless it is the same request (same bound
   * body), which gets the waiting challenge again (a lost 202 is not a lock-out).
   */
  conflictGroup?: string;
  /** First call only, in its transaction: what the payload shows and what the retry needs (no secrets). May refuse. */
  prepare?: (tx: EntityManager) => Promise<{ parameters?: Record<string, unknown>; data?: Record<string, unknown> }>;
  /**
   * The key that must sign, read from the pending request (the OTP login's client key, which has
   * no session yet). Without it, the signer must be an active session of the wallet.
   */
  boundKey?: (request: SignedRequest) => string;
  /** A further rule on the signing session (a different credential than the one revoked …); throws a DomainError. */
  authorizeSigner?: (session: AuthSession, request: SignedRequest) => void;
  /** The effect, in the transaction that consumes the request. */
  execute: (tx: EntityManager, signed: SignedBy) => Promise<T>;
}

export type SignedOutcome<T> = { status: 'CHALLENGE'; challenge: SignedRequestChallenge } | { status: 'DONE'; result: T };

const invalid = (reason: string) => new DomainError('WALLET_SIGNATURE_INVALID', reason);

/** Whether a call carries any signature header (it is a signed retry, or a malformed one). */
export function isSignedRetry(headers: SignatureHeaders): boolean {
  return signedLegOf(headers).leg === 'RETRY';
}

/**
 * The one signed-request mechanism (spec §5.3). A first call (no signature headers) stores the
 * pending request and answers its challenge. A signed retry is checked in this order, each
 * failure with its own 401: both headers present (REQUEST_ID_MISSING / WALLET_SIGNATURE_MISSING),
 * stamp well-formed (WALLET_SIGNATURE_MALFORMED), request known to this platform, wallet and
 * operation (UNAUTHORIZED), same bound body (WALLET_SIGNATURE_BODY_MISMATCH), neither used nor
 * expired (UNAUTHORIZED), stamp = P-256 signature of the exact payload by the key of an active
 * session of that wallet, or by the operation's bound key (WALLET_SIGNATURE_INVALID). The request
 * is then consumed by a conditional update in the transaction of the effect: of concurrent
 * retries exactly one runs it, the others are UNAUTHORIZED.
 */
export async function runSignedOperation<T>(em: EntityManager, call: SignedCall, operation: SignedOperation<T>): Promise<SignedOutcome<T>> {
  const leg = signedLegOf(call);
  await requireWallet(em, call.platformId, call.accountId);
  const requestHash = requestFingerprint(call.method, call.path, call.body);
  if (leg.leg === 'FIRST') return { status: 'CHALLENGE', challenge: await issue(em, call, operation, requestHash) };

  const legacy = leg.signature === LEGACY_SANDBOX_SIGNATURE && call.environment === 'SANDBOX';
  const stamp = legacy ? null : parseStamp(leg.signature);
  if (!legacy && !stamp) {
    throw new DomainError(
      'WALLET_SIGNATURE_MALFORMED',
      'Svc-Wallet-Signature is not a stamp: base64url of {"publicKey": compressed P-256 hex, "scheme": "SIGNATURE_SCHEME_TK_API_P256", "signature": DER hex}',
    );
  }
  const pending = await em.findOne(SignedRequest, { id: leg.requestId, platformId: call.platformId });
  if (!pending || pending.accountId !== call.accountId || pending.operation !== operation.name) {
    throw DomainError.unauthorized('Request-Id names no pending request of this operation on this wallet');
  }
  if (pending.requestHash !== requestHash) {
    throw new DomainError(
      'WALLET_SIGNATURE_BODY_MISMATCH',
      'The signed retry must repeat the first call exactly: its body differs from the one the payload was issued for',
    );
  }
  const now = new Date();
  if (pending.consumedAt) throw DomainError.unauthorized('This signed request was already used; start again without signature headers');
  if (pending.expiresAt <= now) throw DomainError.unauthorized('This signed request expired; start again without signature headers');
  if (stamp && !stampSignsPayload(stamp, pending.payloadToSign)) throw invalid('The stamp is not a signature of the payloadToSign by its public key');
  const bound = operation.boundKey?.(pending);
  if (stamp && bound !== undefined && stamp.publicKey !== bound.toLowerCase()) throw invalid('The stamp must be made with the key this request was bound to');
  // The literal stands for a session's stamp only: a request bound to a key (an OTP login's) has no session to stand for.
  if (legacy && bound !== undefined) throw invalid(LEGACY_BOUND_KEY);

  const result = await em.transactional(async (tx) => {
    // Consumed first: of concurrent retries one goes on, the others wait on this row and find it used.
    const consumed = await tx.nativeUpdate(SignedRequest, { id: pending.id, consumedAt: null, expiresAt: { $gt: now } }, { consumedAt: now });
    if (consumed !== 1) throw DomainError.unauthorized('This signed request was already used; start again without signature headers');
    // The signer's session is read under a share lock: a revocation waits for this effect, or wins before it.
    const session = legacy
      ? await legacySigner(tx, call, now, (candidate) => operation.authorizeSigner?.(candidate, pending))
      : stamp && bound === undefined
        ? await tx.findOne(
            AuthSession,
            { platformId: call.platformId, accountId: call.accountId, publicKey: stamp.publicKey, revokedAt: null, expiresAt: { $gt: now } },
            { lockMode: LockMode.PESSIMISTIC_READ },
          )
        : null;
    if (stamp && bound === undefined && !session) throw invalid('The stamp key is not the key of an active session of this wallet');
    if (session) {
      if (!legacy) operation.authorizeSigner?.(session, pending);
      await tx.nativeUpdate(SignedRequest, { id: pending.id }, { signedBySessionId: session.id });
    }
    return operation.execute(tx, { request: pending, session });
  });
  return { status: 'DONE', result };
}

const LEGACY_BOUND_KEY =
  'The sandbox literal sandbox-valid-signature stands for a stamp by an active session; this request is bound to the key it was issued for: stamp it with that key';

/**
 * The signer the sandbox's legacy literal stands for: an active session of the wallet that the
 * operation's rule accepts (read under a share lock, as a stamped signer is). A wallet with no
 * active session has nobody to sign for it: WALLET_SIGNATURE_INVALID; when every session is
 * refused by the rule, the rule's own refusal.
 */
async function legacySigner(tx: EntityManager, call: SignedCall, now: Date, authorize: (candidate: AuthSession) => void): Promise<AuthSession> {
  const sessions = await tx.find(
    AuthSession,
    { platformId: call.platformId, accountId: call.accountId, revokedAt: null, expiresAt: { $gt: now } },
    { orderBy: { createdAt: 'desc' }, lockMode: LockMode.PESSIMISTIC_READ },
  );
  if (sessions.length === 0) {
    throw invalid('sandbox-valid-signature stands for a stamp by an active session of this wallet, and the wallet has none: log in first');
  }
  let refusal: unknown;
  for (const candidate of sessions) {
    try {
      authorize(candidate);
      return candidate;
    } catch (err) {
      refusal = err;
    }
  }
  throw refusal;
}

async function issue<T>(em: EntityManager, call: SignedCall, operation: SignedOperation<T>, requestHash: string): Promise<SignedRequestChallenge> {
  return em.transactional(async (tx) => {
    const now = new Date();
    if (operation.conflictGroup) {
      // First calls of one group on one wallet take turns, so that two cannot both see none pending.
      await tx.execute('select pg_advisory_xact_lock(hashtext(?))', [`signed-request:${call.accountId}:${operation.conflictGroup}`]);
      const waiting = await tx.findOne(
        SignedRequest,
        { platformId: call.platformId, accountId: call.accountId, conflictGroup: operation.conflictGroup, consumedAt: null, expiresAt: { $gt: now } },
        { orderBy: { createdAt: 'desc' } },
      );
      if (waiting && waiting.requestHash === requestHash && waiting.operation === operation.name) return challengeOf(waiting);
      if (waiting) {
        throw new DomainError(
          'OPERATION_IN_PROGRESS',
          `Another ${operation.conflictGroup} operation waits for its signature on this wallet until ${waiting.expiresAt.toISOString()}: sign it, or let it expire`,
          { requestId: waiting.id, expiresAt: waiting.expiresAt.toISOString() },
        );
      }
    }
    const prepared = operation.prepare ? await operation.prepare(tx) : {};
    const id = newId('Request');
    const payloadToSign = JSON.stringify({
      organizationId: call.accountId,
      parameters: { ...prepared.parameters, requestHash },
      requestId: id,
      timestampMs: String(now.getTime()),
      type: operation.activityType,
    });
    const request = tx.create(SignedRequest, {
      id,
      platformId: call.platformId,
      accountId: call.accountId,
      operation: operation.name,
      conflictGroup: operation.conflictGroup ?? null,
      requestHash,
      payloadToSign,
      data: prepared.data ?? null,
      expiresAt: new Date(now.getTime() + SIGNED_REQUEST_TTL_MS),
      consumedAt: null,
      signedBySessionId: null,
      createdAt: now,
    });
    await tx.flush();
    return challengeOf(request);
  });
}

function challengeOf(request: SignedRequest): SignedRequestChallenge {
  return { payloadToSign: request.payloadToSign, requestId: request.id, expiresAt: request.expiresAt.toISOString() };
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Caller, Environment } from '../../platforms';
import { idleExpiry, isSessionOver, type SessionPolicy } from '../domain/session-policy';
import { DashboardAuditEntry, DashboardSession } from '../entities';

/** What the dashboard is told of its session (POST and GET /dashboard/session). */
export interface SessionView {
  csrfToken: string;
  platformId: string;
  tokenId: string;
  environment: Environment;
  permissions: readonly string[];
  expiresAt: string;
  idleExpiresAt: string;
  temporalUiUrl: string | null;
  temporalNamespace: string;
}

/** A live session with the caller it stands for (the token's permissions as stored now). */
export interface LiveSession {
  session: DashboardSession;
  caller: Caller;
}

const hashOf = (cookie: string) => createHash('sha256').update(cookie).digest('hex');

/** Opens a session for a token whose secret was just checked; returns it and the cookie value (kept nowhere). */
export async function openSession(em: EntityManager, caller: Caller, now: number, policy: SessionPolicy): Promise<{ cookie: string; live: LiveSession }> {
  const cookie = randomBytes(32).toString('base64url');
  const session = em.create(DashboardSession, {
    id: randomUUID(),
    cookieHash: hashOf(cookie),
    tokenId: caller.tokenId,
    platformId: caller.platformId,
    csrfToken: randomBytes(32).toString('base64url'),
    createdAt: new Date(now),
    lastSeenAt: new Date(now),
    expiresAt: new Date(now + policy.absoluteTimeoutMs),
    endedAt: null,
  });
  await em.flush();
  return { cookie, live: { session, caller } };
}

interface SessionRow {
  id: string;
  token_id: string;
  platform_id: string;
  csrf_token: string;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  ended_at: Date | null;
  environment: Environment;
  permissions: Caller['permissions'];
}

/**
 * The live session a cookie names, with its token read fresh (a revoked token has no sessions
 * left; changed permissions hold at once), its idle timer restarted; undefined when there is
 * none or it is over. One statement: the update finds the row, checks both timeouts and joins
 * the token.
 */
export async function findLiveSession(em: EntityManager, cookie: string, now: number, policy: SessionPolicy): Promise<LiveSession | undefined> {
  const at = new Date(now);
  const rows = await em.getConnection().execute<SessionRow[]>(
    `update dashboard_sessions s set last_seen_at = ?
       from api_tokens t
      where s.cookie_hash = ? and t.id = s.token_id and s.ended_at is null and s.expires_at > ? and s.last_seen_at > ?
      returning s.*, t.environment, t.permissions`,
    [at, hashOf(cookie), at, new Date(now - policy.idleTimeoutMs)],
  );
  const row = rows[0];
  if (!row) return undefined;
  const session = Object.assign(new DashboardSession(), {
    id: row.id,
    cookieHash: '',
    tokenId: row.token_id,
    platformId: row.platform_id,
    csrfToken: row.csrf_token,
    createdAt: new Date(row.created_at),
    lastSeenAt: new Date(row.last_seen_at),
    expiresAt: new Date(row.expires_at),
    endedAt: null,
  });
  if (isSessionOver(session, now, policy)) return undefined;
  const permissions = typeof row.permissions === 'string' ? (JSON.parse(row.permissions) as Caller['permissions']) : row.permissions;
  return { session, caller: { platformId: row.platform_id, tokenId: row.token_id, environment: row.environment, permissions } };
}

/** Signs a session out: it is over for every later request, whoever holds its cookie. */
export async function endSession(em: EntityManager, sessionId: string, now: number): Promise<void> {
  await em.nativeUpdate(DashboardSession, { id: sessionId, endedAt: null }, { endedAt: new Date(now) });
}

export function sessionView(live: LiveSession, policy: SessionPolicy, temporal: { uiUrl: string | null; namespace: string }): SessionView {
  const { session, caller } = live;
  return {
    csrfToken: session.csrfToken,
    platformId: caller.platformId,
    tokenId: caller.tokenId,
    environment: caller.environment,
    permissions: caller.permissions,
    expiresAt: session.expiresAt.toISOString(),
    idleExpiresAt: idleExpiry(session, policy).toISOString(),
    temporalUiUrl: temporal.uiUrl,
    temporalNamespace: temporal.namespace,
  };
}

/** Records one write made through a session (method, route template, answer status). */
export async function recordDashboardWrite(
  em: EntityManager,
  entry: { sessionId: string; tokenId: string; platformId: string; method: string; path: string; status: number; at: Date },
): Promise<void> {
  await em.insert(DashboardAuditEntry, { id: randomUUID(), ...entry });
}

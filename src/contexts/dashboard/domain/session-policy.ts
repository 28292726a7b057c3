/** How long a dashboard session lives: idle (since its last request) and at most (since sign-in). */
export interface SessionPolicy {
  idleTimeoutMs: number;
  absoluteTimeoutMs: number;
}

export const DEFAULT_SESSION_POLICY: SessionPolicy = { idleTimeoutMs: 30 * 60 * 1000, absoluteTimeoutMs: 12 * 60 * 60 * 1000 };

/** The cookie that carries a session; its value is 256 random bits, base64url. */
export const SESSION_COOKIE = 'svc_dashboard_session';
/** The header every write made with a session carries: the session's CSRF token. */
export const CSRF_HEADER = 'x-csrf-token';

/** Whether a session is over at `now`: signed out, idle too long, or past its absolute end. */
export function isSessionOver(session: { lastSeenAt: Date; expiresAt: Date; endedAt?: Date | null }, now: number, policy: SessionPolicy): boolean {
  return !!session.endedAt || now >= session.expiresAt.getTime() || now >= session.lastSeenAt.getTime() + policy.idleTimeoutMs;
}

/** When the session ends if no request comes first: the idle limit, never past the absolute one. */
export function idleExpiry(session: { lastSeenAt: Date; expiresAt: Date }, policy: SessionPolicy): Date {
  return new Date(Math.min(session.lastSeenAt.getTime() + policy.idleTimeoutMs, session.expiresAt.getTime()));
}

/** Methods that change nothing: no CSRF token needed, nothing audited. */
export function isSafeMethod(method: string): boolean {
  return method === 'GET' || method === 'HEAD';
}

/** The value of one cookie in a Cookie header, or undefined. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

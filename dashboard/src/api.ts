/**
 * The public API, called from the browser with the dashboard session's cookie. Same origin only;
 * every write carries the CSRF token the session gave, held in memory (never in storage).
 */
export const API_BASE = '/2025-10-13';

export interface ApiErrorBody {
  code?: string;
  reason?: string;
  details?: { errors?: { field: string; message?: string; constraint?: unknown }[] } & Record<string, unknown>;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody,
  ) {
    super(body.reason ?? `HTTP ${status}`);
  }
  get code(): string | undefined {
    return this.body.code;
  }
}

let csrfToken: string | null = null;
let onUnauthorized: (() => void) | null = null;

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** Called when the session is gone (expired, signed out elsewhere): the app shows the sign-in page. */
export function setUnauthorizedHandler(handler: (() => void) | null): void {
  onUnauthorized = handler;
}

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | undefined | null>;
  /** Sent once per logical write so a retry after a lost answer is not done twice. */
  idempotencyKey?: string;
  /** Sign-in and session probes handle 401 themselves. */
  quiet401?: boolean;
}

export function withQuery(path: string, query?: RequestOptions['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const s = params.toString();
  return s ? `${path}${path.includes('?') ? '&' : '?'}${s}` : path;
}

export async function api<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['X-CSRF-Token'] = csrfToken;
  if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
  const res = await fetch(API_BASE + withQuery(path, options.query), {
    method,
    headers,
    credentials: 'same-origin',
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  let body: unknown = undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = { reason: text.slice(0, 200) };
  }
  if (!res.ok) {
    if (res.status === 401 && !options.quiet401) onUnauthorized?.();
    throw new ApiError(res.status, (body ?? {}) as ApiErrorBody);
  }
  return body as T;
}

export const get = <T>(path: string, query?: RequestOptions['query']) => api<T>('GET', path, { query });
export const post = <T>(path: string, body?: unknown, idempotencyKey?: string) => api<T>('POST', path, { body, idempotencyKey });
export const patch = <T>(path: string, body: unknown) => api<T>('PATCH', path, { body });
export const del = <T>(path: string) => api<T>('DELETE', path);

export interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor?: string | null;
  totalCount?: number;
}

export const newKey = (): string => crypto.randomUUID();

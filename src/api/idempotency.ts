import type { Request, Response } from 'express';
import { IdempotencyRecord } from '../db/IdempotencyRecord';
import { DomainError } from '../domain/errors';
import { errorBody, httpStatusOf } from './error-status';
import { MAX_IDEMPOTENCY_KEY_LENGTH, requestFingerprint } from '../domain/idempotency';
import type { ApiDeps, Caller } from './context';
import { stringifyWithBigInt } from '../domain/json';
import { sendJson } from './http';
import type { Reply } from './route-reply';
import { routeTemplateOf } from './route-template';
import { decrypt, encrypt } from '../security/secrets';

const WAIT_FOR_FIRST_MS = 15_000;
const POLL_MS = 100;
/** How often the request holding a claim renews it while it works. */
export const CLAIM_RENEWAL_MS = 2_000;
/**
 * An IN_PROGRESS claim not renewed for this long belongs to a request that died (its process was
 * killed); a retry may take it over. Short, because a partner's retry waits for it: a quote whose
 * creation waited a minute here had expired by the time its answer arrived.
 */
export const STALE_CLAIM_MS = 10_000;

/** An Idempotency-Key is 1 to 255 characters; none at all is fine. */
export function checkIdempotencyKey(key: string | undefined): void {
  if (key === undefined) return;
  if (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw DomainError.invalidInput([{ field: 'Idempotency-Key', constraint: 'maxLength', message: `must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters` }]);
  }
}

/**
 * Runs `work` at most once per (platform, Idempotency-Key). The first request claims the key
 * with an IN_PROGRESS row; repeats replay the stored response; concurrent repeats wait for it;
 * a repeat with a different request is refused. 5xx outcomes release the key. `content` is what
 * makes the request itself (its JSON body unless the route says otherwise, as a multipart route
 * does for its file). `sealed`: the answer holds a secret (a new token's client secret), so it is
 * stored encrypted with the master key, decrypted only to replay it, and replayed only to the
 * token that made the request.
 */
export async function withIdempotency(
  deps: ApiDeps,
  req: Request,
  res: Response,
  caller: Caller,
  work: () => Promise<Reply>,
  content: unknown = req.body ?? null,
  options: { sealed?: boolean } = {},
): Promise<void> {
  const sent = req.get('idempotency-key');
  if (sent === undefined) {
    const reply = await work();
    sendJson(res, reply.status, reply.body);
    return;
  }
  checkIdempotencyKey(sent);
  // An agent's keys are its own: the same key from its platform (or another agent) is another request.
  const key = caller.agent ? `agent:${caller.agent.agentId}:${sent}` : sent;
  // A sealed answer (a new token's secret) is replayed to the token that asked for it only: another
  // token of the platform with the key and the body (both readable from GET /tokens and logs) would
  // otherwise get a secret with permissions it may not grant. For it, the key was used differently.
  const fingerprinted = options.sealed ? { content, askedBy: caller.tokenId } : content;
  const fingerprint = requestFingerprint(req.method, req.originalUrl.split('?')[0]!, fingerprinted, deps.config.masterKey);
  const em = deps.orm.em.fork();
  const claim = async (): Promise<boolean> => {
    const inserted = await em.getConnection().execute<{ key: string }[]>(
      `insert into idempotency_keys (platform_id, key, fingerprint, state, created_at, renewed_at) values (?, ?, ?, 'IN_PROGRESS', now(), now())
       on conflict (platform_id, key) do update set created_at = now(), renewed_at = now(), fingerprint = excluded.fingerprint
         where idempotency_keys.state = 'IN_PROGRESS' and idempotency_keys.renewed_at < now() - (? * interval '1 millisecond')
           and idempotency_keys.fingerprint = excluded.fingerprint
       returning key`,
      [caller.platformId, key, fingerprint, STALE_CLAIM_MS],
    );
    return inserted.length === 1;
  };

  const deadline = Date.now() + WAIT_FOR_FIRST_MS;
  while (!(await claim())) {
    const existing = await em.findOne(IdempotencyRecord, { platformId: caller.platformId, key }, { refresh: true });
    if (!existing) continue; // released by a failed first attempt: try to claim again
    if (existing.fingerprint !== fingerprint) {
      throw new DomainError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used with a different request');
    }
    if (existing.state === 'COMPLETED') {
      deps.metrics?.idempotencyReplays.inc({ route: routeTemplateOf(req, res) });
      res.setHeader('Idempotent-Replayed', 'true');
      const stored = existing.responseBody ?? '';
      res
        .status(existing.statusCode!)
        .type('application/json')
        .send(options.sealed && stored ? decrypt(deps.config.masterKey, stored) : stored);
      return;
    }
    if (Date.now() > deadline) {
      throw new DomainError('OPERATION_IN_PROGRESS', 'A request with this Idempotency-Key is still being processed; retry shortly');
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }

  let reply: Reply;
  const renewal = setInterval(() => {
    // A renewal that fails (PostgreSQL away) is not the request's failure: the work decides that.
    void em.nativeUpdate(IdempotencyRecord, { platformId: caller.platformId, key, state: 'IN_PROGRESS' }, { renewedAt: new Date() }).catch(() => undefined);
  }, CLAIM_RENEWAL_MS);
  try {
    reply = await work();
  } catch (err) {
    clearInterval(renewal);
    if (err instanceof DomainError && httpStatusOf(err) < 500) {
      await complete(httpStatusOf(err), stringifyWithBigInt(errorBody(err)));
    } else {
      await release();
    }
    throw err;
  }
  clearInterval(renewal);
  // Stored before it is sent: a retry that follows the answer at once must find it.
  if (reply.status < 500) await complete(reply.status, reply.status === 204 || reply.body === undefined ? '' : stringifyWithBigInt(reply.body));
  else await release();
  sendJson(res, reply.status, reply.body);

  async function complete(statusCode: number, body: string): Promise<void> {
    const responseBody = options.sealed && body ? encrypt(deps.config.masterKey, body) : body;
    await em.nativeUpdate(
      IdempotencyRecord,
      { platformId: caller.platformId, key: key! },
      { state: 'COMPLETED', statusCode, responseBody, completedAt: new Date() },
    );
  }
  async function release(): Promise<void> {
    await em.nativeDelete(IdempotencyRecord, { platformId: caller.platformId, key: key!, state: 'IN_PROGRESS' });
  }
}

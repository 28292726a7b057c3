import { Agent, request } from 'undici';
import { addressRefusal, DESTINATION_REFUSED, endpointRefusal, type DestinationRules } from '../../src/contexts/webhooks/domain/destination-policy';
import type { WebhookSender } from '../deps';
import { DestinationRefusedError, guardedConnector, systemResolve, type AddressPolicy, type Resolve } from './guarded-connector';

/** How much of a receiver's answer is kept: enough for support staff, too little to read another service through us. */
export const RESPONSE_BODY_CAP = 256;

/** Without an HTTP answer the reason stays vague: refused, closed, filtered and slow all read the same (no port scanning). */
export const NO_ANSWER = 'no HTTP answer from the endpoint (connection failed or timed out)';

export interface HttpWebhookSenderOptions {
  /** Operator setting WEBHOOK_ALLOW_LOOPBACK (sandbox deliveries only). */
  allowLoopback?: boolean;
  /** The destination policy; the real one unless a test says otherwise. */
  policy?: AddressPolicy;
  resolve?: Resolve;
  /** Extra trusted certificate authority (tests); the system's store otherwise. */
  ca?: string;
}

async function cappedText(body: AsyncIterable<Buffer>, cap: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= cap) break; // leaving the loop destroys the stream: the rest is never read
  }
  return Buffer.concat(chunks).toString('utf8').slice(0, cap);
}

/**
 * Real HTTP delivery with a hard time-out, through the destination policy at every connection
 * (guarded-connector.ts); no redirects are followed. The response body is read, capped, for
 * support staff.
 */
export function createHttpWebhookSender({
  allowLoopback = false,
  policy = addressRefusal,
  resolve = systemResolve,
  ca,
}: HttpWebhookSenderOptions = {}): WebhookSender {
  const agents = new Map<DestinationRules['environment'], Agent>();
  const agentFor = (environment: DestinationRules['environment']) => {
    let agent = agents.get(environment);
    if (!agent) {
      agent = new Agent({ connect: guardedConnector({ environment, allowLoopback }, resolve, policy, ca ? { ca } : {}) });
      agents.set(environment, agent);
    }
    return agent;
  };
  return {
    async post(url, body, headers, timeoutMs, environment = 'PRODUCTION', responseCap = RESPONSE_BODY_CAP) {
      // The URL's own rules again (https in production, no credentials): an endpoint stored before
      // the policy, or by a sandbox token of a platform that also has production ones, is not trusted.
      if (endpointRefusal(url, { environment, allowLoopback })) return { status: null, body: '', error: DESTINATION_REFUSED };
      try {
        const res = await request(url, {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json', 'user-agent': 'payments-service-webhooks/1', ...headers },
          dispatcher: agentFor(environment),
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
          signal: AbortSignal.timeout(timeoutMs),
        });
        return { status: res.statusCode, body: await cappedText(res.body, responseCap) };
      } catch (err) {
        return { status: null, body: '', error: err instanceof DestinationRefusedError ? DESTINATION_REFUSED : NO_ANSWER };
      }
    },
  };
}

/** The sender with the strict policy (no loopback receivers at all). */
export const httpWebhookSender: WebhookSender = createHttpWebhookSender();

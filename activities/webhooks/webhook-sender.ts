import { request } from 'undici';
import type { WebhookSender } from '../deps';

/** Real HTTP delivery with a hard time-out; the response body is read (capped) for support staff. */
export const httpWebhookSender: WebhookSender = {
  async post(url, body, headers, timeoutMs) {
    try {
      const res = await request(url, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', 'user-agent': 'payments-service-webhooks/1', ...headers },
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await res.body.text();
      return { status: res.statusCode, body: text.slice(0, 2000) };
    } catch (err) {
      return { status: null, body: '', error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) };
    }
  },
};

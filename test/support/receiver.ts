import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createHttpWebhookSender } from '../../activities/webhooks/webhook-sender';

/**
 * The real sender, with the operator setting that lets sandbox deliveries reach this machine's
 * receivers (as `npm start` does); production deliveries stay under the full destination policy.
 */
export const loopbackWebhookSender = createHttpWebhookSender({ allowLoopback: true });

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: { id: string; type: string; timestamp: string; data: Record<string, unknown> };
}

/** A real local webhook endpoint; `respond` decides each answer (default 200). */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  respond: (hook: ReceivedWebhook, attempt: number) => number = () => 200;
  private server?: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const rawBody = Buffer.concat(chunks).toString('utf8');
        const hook: ReceivedWebhook = { headers: req.headers, rawBody, body: JSON.parse(rawBody) as ReceivedWebhook['body'] };
        this.received.push(hook);
        const attempt = this.received.filter((h) => h.body.id === hook.body.id).length;
        res.statusCode = this.respond(hook, attempt);
        res.end(res.statusCode < 300 ? 'ok' : 'nope');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as { port: number };
    this.url = `http://127.0.0.1:${port}/webhooks`;
    return this;
  }

  ofType(type: string): ReceivedWebhook[] {
    return this.received.filter((h) => h.body.type === type);
  }

  async waitFor(predicate: (hooks: ReceivedWebhook[]) => boolean, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.received)) {
      if (Date.now() > deadline) throw new Error(`webhook condition not met; received: ${this.received.map((h) => h.body.type).join(', ')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

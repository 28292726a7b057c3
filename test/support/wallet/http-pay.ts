import { deviceKeyOf } from './keys';
import { stamp } from './stamp';

/**
 * Pays a quote from the wallet over plain HTTP (fetch), as scripts/wallet-client.ts runs it: reads
 * the quote's EMBEDDED_WALLET payloadToSign, stamps it with the session key, and executes the
 * quote with the stamp (single-shot, no Request-Id). Returns the execute answer.
 */
export async function payQuoteOverHttp(base: string, auth: string, quoteId: string, sessionPrivateKey: string) {
  const headers = { authorization: `Basic ${Buffer.from(auth).toString('base64')}`, 'content-type': 'application/json' };
  const path = `/quotes/${encodeURIComponent(quoteId)}`;
  const quote = (await (await fetch(`${base}${path}`, { headers })).json()) as {
    paymentInstructions?: { accountOrWalletInfo: { accountType: string; payloadToSign?: string } }[];
  };
  const payload = quote.paymentInstructions?.find((i) => i.accountOrWalletInfo.accountType === 'EMBEDDED_WALLET')?.accountOrWalletInfo.payloadToSign;
  if (!payload) throw new Error(`${quoteId} is not paid from an embedded wallet (no EMBEDDED_WALLET payloadToSign)`);
  const res = await fetch(`${base}${path}/execute`, {
    method: 'POST',
    headers: { ...headers, 'Svc-Wallet-Signature': stamp(deviceKeyOf(sessionPrivateKey), payload) },
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (res.status >= 300) throw new Error(`POST ${path}/execute: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

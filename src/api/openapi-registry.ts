import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from '../schemas/zod';
import { API_VERSION } from '../config';

/** The single registry every route registers into: it is the source of the OpenAPI document. */
export const registry = new OpenAPIRegistry();

registry.registerComponent('securitySchemes', 'BasicAuth', {
  type: 'http',
  scheme: 'basic',
  description: 'API token id as the username, client secret as the password.',
});

registry.registerComponent('securitySchemes', 'AgentAuth', {
  type: 'http',
  scheme: 'bearer',
  description: "An agent's access token, from redeeming its device code (POST /agents/device-codes/{code}/redeem); accepted on /agents/me operations only.",
});

export function openApiDocument(serverUrl: string) {
  return withLinks(
    new OpenApiGeneratorV31(registry.definitions).generateDocument({
      openapi: '3.1.0',
      info: {
        title: 'Payments Service API',
        version: API_VERSION,
        description:
          'Global payments API for partner platforms: API tokens and platform configuration; invitations; customers (individual and business) with KYC/KYB verifications, beneficial owners, documents, contact verification and bulk CSV import; internal accounts and their balances; external accounts (bank accounts, mobile money, wallets, Lightning) with ownership verification; quotes and payouts (cross-currency, real-time funding, pulls, UMA receivers), same-currency transfers, transactions and receiver lookups; exchange rates and crypto withdrawal fees; directories of institutions, VASPs and UMA providers; cards; stablecoins; embedded-wallet authentication (OTP, passkey and OAuth credentials, sessions, delegated keys, signed requests); strong customer authentication (SCA: factors, logins, challenges on quotes, trusted beneficiaries); agents (managed by the platform, installed with a device code, reading and managing external accounts, quoting and paying within their policy, with platform approval above it, with their own bearer token); platform approval of transactions; webhooks; sandbox simulators. ' +
          'Amounts are integers in the smallest currency unit. Webhooks are signed with P-256 ECDSA (header X-Svc-Signature).',
      },
      servers: [{ url: serverUrl }],
      security: [{ BasicAuth: [] }],
    }),
  );
}

type Document = ReturnType<OpenApiGeneratorV31['generateDocument']>;
type Schema = { $ref?: string; properties?: Record<string, unknown>; oneOf?: Schema[]; anyOf?: Schema[]; allOf?: Schema[] };
interface Operation {
  operationId?: string;
  responses?: Record<string, { content?: Record<string, { schema?: Schema }>; links?: Record<string, unknown> }>;
}

/**
 * OpenAPI links, derived from the paths, so every route added later is linked without a word:
 * what a POST creates (its 2xx body's `id`) fills the one parameter of the operations under its
 * path (`POST /quotes` → `/quotes/{quoteId}`, `/quotes/{quoteId}/execute`), and a 2xx body's
 * property named like an operation's only path parameter fills it (`transactionId` →
 * `/transactions/{transactionId}`). Stateful fuzzing follows them from one call to the next.
 */
function withLinks(document: Document): Document {
  const paths = Object.entries(document.paths ?? {}) as [string, Record<string, Operation>][];
  const singleParameter = paths.flatMap(([path, item]) => {
    const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    return names.length === 1
      ? Object.values(item)
          .filter((op) => op.operationId)
          .map((op) => ({ path, name: names[0]!, operationId: op.operationId! }))
      : [];
  });
  for (const [path, item] of paths) {
    const post = item.post;
    if (!post || path.includes('{')) continue;
    for (const [status, response] of Object.entries(post.responses ?? {})) {
      if (!/^2\d\d$/.test(status)) continue;
      const properties = propertiesOf(document, response.content?.['application/json']?.schema);
      if (!properties.has('id')) continue;
      const links: Record<string, unknown> = {};
      for (const target of singleParameter) {
        const under = target.path.startsWith(`${path}/{${target.name}}`);
        const named = target.name !== 'id' && properties.has(target.name);
        if (under || named)
          links[target.operationId] = { operationId: target.operationId, parameters: { [target.name]: `$response.body#/${under ? 'id' : target.name}` } };
      }
      if (Object.keys(links).length > 0) response.links = links;
    }
  }
  return document;
}

/** The top-level property names a response schema can have (through references and unions). */
function propertiesOf(document: Document, schema: Schema | undefined, seen = new Set<string>()): Set<string> {
  if (!schema) return new Set();
  if (schema.$ref) {
    if (seen.has(schema.$ref)) return new Set();
    seen.add(schema.$ref);
    const name = schema.$ref.replace('#/components/schemas/', '');
    return propertiesOf(document, (document.components?.schemas as Record<string, Schema> | undefined)?.[name], seen);
  }
  const names = new Set(Object.keys(schema.properties ?? {}));
  for (const part of [...(schema.oneOf ?? []), ...(schema.anyOf ?? []), ...(schema.allOf ?? [])])
    for (const n of propertiesOf(document, part, seen)) names.add(n);
  return names;
}

export { z };

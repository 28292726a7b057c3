import { MAX_ROTATION_OVERLAP_SECONDS, platformSigningKeys, rotateSigningKey } from '../../platforms';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Caller } from '../../../api/context';
import { SIGNATURE_HEADER } from '../../../security/webhook-signature';
import { z } from '../../../api/openapi-registry';
import { defineRoute } from '../../../api/route';
import { errorResponses } from '../../../api/schemas/common';
import { sendTestWebhook } from '../services/webhook-test';

/** The reference's TestWebhookResponse (snake_case fields), with the delivered event's id; the camelCase pair is kept for earlier clients. */
const TestWebhookResponseSchema = z
  .object({
    id: z.string().openapi({ description: 'The TEST event delivered (the envelope id the endpoint received)' }),
    url: z.string().openapi({ format: 'uri', description: 'Where the webhook was sent' }),
    response_status: z.number().int().openapi({ description: 'The HTTP status the endpoint answered' }),
    response_body: z.string().openapi({ description: "The endpoint's answer body, as text" }),
    responseStatus: z.number().int().openapi({ deprecated: true, description: 'Deprecated: the same as response_status' }),
    responseBody: z.string().openapi({ deprecated: true, description: 'Deprecated: the same as response_body' }),
  })
  .openapi('TestWebhookResponse');

const SigningKeyViewSchema = z
  .object({
    id: z.string(),
    publicKeyPem: z.string().openapi({ description: 'PEM (SPKI) P-256 public key' }),
    validFrom: z.iso.datetime(),
    validUntil: z.iso.datetime().nullable().openapi({ description: 'End of the rotation overlap; null for the current key' }),
  })
  .openapi('WebhookSigningKey');

const WebhookPublicKeySchema = z
  .object({
    environment: z.enum(['SANDBOX', 'PRODUCTION']),
    algorithm: z.literal('ECDSA_P256_SHA256'),
    signatureHeader: z.string(),
    publicKeyPem: z.string().openapi({ description: 'The key that verifies the `s` signature of the header (the oldest key that signs now)' }),
    keys: z.array(SigningKeyViewSchema).openapi({ description: 'Every key that signs now, oldest first: one, or two during a rotation overlap' }),
  })
  .openapi('WebhookPublicKey');

const DEFAULT_ROTATION_OVERLAP_SECONDS = 24 * 60 * 60;

const RotateSigningKeyRequestSchema = z
  .object({
    overlapSeconds: z
      .number()
      .int()
      .min(0)
      .max(MAX_ROTATION_OVERLAP_SECONDS)
      .optional()
      .openapi({
        description: `How long the previous key keeps signing beside the new one (default ${DEFAULT_ROTATION_OVERLAP_SECONDS}, one day); 0 retires it at once`,
      }),
  })
  .strict()
  .openapi('RotateWebhookSigningKeyRequest');

async function publicKeyView(em: EntityManager, masterKey: Buffer, caller: Caller) {
  const keys = await platformSigningKeys(em, masterKey, caller.platformId, caller.environment);
  return {
    environment: caller.environment,
    algorithm: 'ECDSA_P256_SHA256' as const,
    signatureHeader: SIGNATURE_HEADER,
    publicKeyPem: keys[0]!.publicKeyPem,
    keys: keys.map((k) => ({ id: k.id, publicKeyPem: k.publicKeyPem, validFrom: k.createdAt.toISOString(), validUntil: k.expiresAt?.toISOString() ?? null })),
  };
}

const testWebhook = (path: string, operationId: string, sandboxOnly = false) =>
  defineRoute({
    method: 'post',
    path,
    operationId,
    ...(sandboxOnly ? { sandboxOnly } : {}),
    summary: path.startsWith('/sandbox/') ? 'Send a test webhook' : 'Test the webhook endpoint',
    description: 'Send a TEST webhook to the configured endpoint and report its answer',
    tags: ['Webhooks'],
    responses: {
      200: { description: 'The endpoint answered 2xx', schema: TestWebhookResponseSchema },
      400: { description: 'WEBHOOK_ENDPOINT_NOT_SET or WEBHOOK_DELIVERY_ERROR', schema: errorResponses[400].schema },
      401: errorResponses[401],
    },
    handler: async ({ deps, caller }) => ({ status: 200, body: await sendTestWebhook(deps, caller, { wait: true }) }),
  });

export const webhookRoutes = [
  testWebhook('/webhooks/test', 'sendTestWebhook'),
  testWebhook('/sandbox/webhooks/test', 'sendSandboxTestWebhook', true),
  defineRoute({
    method: 'get',
    path: '/webhooks/public-key',
    operationId: 'getWebhookPublicKey',
    summary: 'Get the webhook public key',
    description: "The public keys that verify the calling platform's webhook signatures in the token's environment, with their validity",
    tags: ['Webhooks'],
    responses: {
      200: { description: "The platform's signing keys, with their validity", schema: WebhookPublicKeySchema },
      401: errorResponses[401],
    },
    handler: async ({ em, caller, deps }) => ({ status: 200, body: await publicKeyView(em, deps.config.masterKey, caller) }),
  }),
  defineRoute({
    method: 'post',
    path: '/webhooks/signing-keys/rotate',
    permission: 'MANAGE',
    operationId: 'rotateWebhookSigningKey',
    summary: 'Rotate the webhook signing key',
    tags: ['Webhooks'],
    body: RotateSigningKeyRequestSchema,
    // A retried rotation must not rotate again: that would end the overlap it just opened.
    idempotent: true,
    responses: {
      200: { description: 'The signing keys after the rotation: the new one and the previous one until the overlap ends', schema: WebhookPublicKeySchema },
      400: errorResponses[400],
      401: errorResponses[401],
    },
    handler: async ({ em, caller, deps, body }) => {
      await rotateSigningKey(em, deps.config.masterKey, caller.platformId, caller.environment, body.overlapSeconds ?? DEFAULT_ROTATION_OVERLAP_SECONDS);
      return { status: 200, body: await publicKeyView(em, deps.config.masterKey, caller) };
    },
  }),
];

import { publicSigningKey } from '../../platforms/services/signing-keys';
import { SIGNATURE_HEADER } from '../domain/webhook-signature';
import { z } from '../../../api/openapi-registry';
import { defineRoute } from '../../../api/route';
import { errorResponses } from '../../../api/schemas/common';
import { sendTestWebhook } from '../services/webhook-test';

const TestWebhookResponseSchema = z
  .object({ id: z.string(), url: z.string(), responseStatus: z.number().int().nullable(), responseBody: z.string() })
  .openapi('TestWebhookResponse');

const testWebhook = (path: string, operationId: string) =>
  defineRoute({
    method: 'post',
    path,
    operationId,
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
  testWebhook('/sandbox/webhooks/test', 'sendSandboxTestWebhook'),
  defineRoute({
    method: 'get',
    path: '/webhooks/public-key',
    operationId: 'getWebhookPublicKey',
    summary: 'Get the webhook public key',
    description: "The public key that verifies webhook signatures for the calling token's environment",
    tags: ['Webhooks'],
    responses: {
      200: {
        description: 'PEM (SPKI) P-256 public key',
        schema: z.object({ environment: z.enum(['SANDBOX', 'PRODUCTION']), algorithm: z.literal('ECDSA_P256_SHA256'), signatureHeader: z.string(), publicKeyPem: z.string() }).openapi('WebhookPublicKey'),
      },
      401: errorResponses[401],
    },
    handler: async ({ em, caller, deps }) => ({
      status: 200,
      body: {
        environment: caller.environment,
        algorithm: 'ECDSA_P256_SHA256',
        signatureHeader: SIGNATURE_HEADER,
        publicKeyPem: await publicSigningKey(em, deps.config.masterKey, caller.environment),
      },
    }),
  }),
];

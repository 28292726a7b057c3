import { extendZodWithOpenApi, OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { API_VERSION } from '../config';

extendZodWithOpenApi(z);

/** The single registry every route registers into: it is the source of the OpenAPI document. */
export const registry = new OpenAPIRegistry();

registry.registerComponent('securitySchemes', 'BasicAuth', {
  type: 'http',
  scheme: 'basic',
  description: 'API token id as the username, client secret as the password.',
});

export function openApiDocument(serverUrl: string) {
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Payments Service API',
      version: API_VERSION,
      description:
        'Global payments API: customers, internal accounts, incoming payments and webhooks. Amounts are integers in the smallest currency unit. Webhooks are signed with P-256 ECDSA (header X-Svc-Signature).',
    },
    servers: [{ url: serverUrl }],
    security: [{ BasicAuth: [] }],
  });
}

export { z };

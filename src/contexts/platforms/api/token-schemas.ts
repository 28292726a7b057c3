import { PERMISSIONS } from '../domain/permissions';
import { z } from '../../../api/openapi-registry';
import { PageQuerySchema, pageOf } from '../../../api/schemas/common';

export const PermissionSchema = z.enum(PERMISSIONS).openapi('Permission', {
  description:
    'VIEW: read everything. TRANSACT: move money (quotes, their execution, transfers). MANAGE: change the platform configuration, its API tokens, customers and accounts.',
});

export const ApiTokenSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    permissions: z.array(PermissionSchema),
    clientId: z
      .string()
      .openapi({ description: 'The HTTP Basic user name to send beside the secret (the id without its Token: prefix); the id itself works too' }),
    clientSecret: z
      .string()
      .optional()
      .openapi({ description: 'Only in the answer to POST /tokens: it is not stored (only a hash is) and cannot be shown again' }),
    environment: z.enum(['SANDBOX', 'PRODUCTION']).openapi({ description: 'The environment of the token that created it' }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi('ApiToken');

export const ApiTokenCreateSchema = z
  .object({
    name: z.string().trim().min(1).max(255),
    permissions: z.array(PermissionSchema).min(1).openapi({ description: 'At most the permissions of the token making the request' }),
  })
  .strict()
  .openapi('ApiTokenCreateRequest');

const dateTimeFilter = (description: string) => z.iso.datetime({ offset: true }).optional().openapi({ description });

export const TokenListQuerySchema = PageQuerySchema.extend({
  name: z.string().min(1).max(255).optional().openapi({ description: 'Tokens with exactly this name' }),
  createdAfter: dateTimeFilter('Tokens created at or after this time'),
  createdBefore: dateTimeFilter('Tokens created at or before this time'),
  updatedAfter: dateTimeFilter('Tokens updated at or after this time'),
  updatedBefore: dateTimeFilter('Tokens updated at or before this time'),
});

export const TokenListSchema = pageOf(ApiTokenSchema, 'TokenListResponse');

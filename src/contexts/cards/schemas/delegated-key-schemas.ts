import { z } from '../../../api/openapi-registry';

const id = (example: string) => z.string().min(1).max(200).openapi({ example });

export const DelegatedKeyStatusSchema = z.enum(['PENDING', 'ACTIVE', 'REVOKED']).openapi('DelegatedKeyStatus');

export const DelegatedKeySchema = z
  .object({
    id: id('DelegatedKey:019542f5-b3e7-1d02-0000-000000000020'),
    cardId: z.string(),
    fundingSourceId: z.string().openapi({ description: "The card's funding source the key signs for: the embedded wallet's internal account id" }),
    accountId: z.string(),
    publicKey: z.string().openapi({ description: 'Compressed P-256 public key, hex' }),
    nickname: z.string(),
    status: DelegatedKeyStatusSchema,
    createdAt: z.string().openapi({ format: 'date-time' }),
    updatedAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('DelegatedKey');

export const DelegatedKeyListSchema = z.object({ data: z.array(DelegatedKeySchema) }).openapi('DelegatedKeyList');

export const DelegatedKeyCreateSchema = z
  .object({
    cardId: id('Card:019542f5-b3e7-1d02-0000-000000000010'),
    internalAccountId: id('InternalAccount:019542f5-b3e7-1d02-0000-000000000002'),
    nickname: z.string().min(1).max(256),
  })
  .strict()
  .openapi('DelegatedKeyCreateRequest');

export const DelegatedKeyListQuerySchema = z
  .object({
    accountId: z.string().min(1).max(200).optional(),
    fundingSourceId: z.string().min(1).max(200).optional(),
  })
  .refine((q) => q.accountId !== undefined || q.fundingSourceId !== undefined, { message: 'Give accountId, fundingSourceId or both', path: ['accountId'] });

export const DelegatedKeyChallengeSchema = z
  .object({ payloadToSign: z.string(), requestId: z.string(), expiresAt: z.string().openapi({ format: 'date-time' }) })
  .openapi('DelegatedKeySignedRequestChallenge');

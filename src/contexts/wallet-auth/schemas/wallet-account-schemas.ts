import { z } from '../../../api/openapi-registry';

/** Export keys are uncompressed P-256 (04 + 128 hex), as the reference requires for exports. */
const UNCOMPRESSED_PUBLIC_KEY = /^04[0-9a-fA-F]{128}$/;

export const InternalAccountUpdateSchema = z
  .object({ privateEnabled: z.boolean().optional().openapi({ description: 'Wallet privacy (EMBEDDED_WALLET accounts only)' }) })
  .strict()
  .refine((body) => body.privateEnabled !== undefined, { message: 'Give at least one field to change: privateEnabled', path: ['privateEnabled'] })
  .openapi('InternalAccountUpdateRequest');

export const InternalAccountExportSchema = z
  .object({
    clientPublicKey: z
      .string()
      .regex(UNCOMPRESSED_PUBLIC_KEY, 'clientPublicKey must be an uncompressed P-256 public key: 04 and 128 hex digits')
      .openapi({ description: 'A fresh P-256 key of the client, uncompressed hex; the export is sealed to it' }),
  })
  .strict()
  .openapi('InternalAccountExportRequest');

export const InternalAccountExportResponseSchema = z
  .object({
    id: z.string(),
    encryptedWalletCredentials: z.string().openapi({
      description:
        'JSON envelope {version, data, dataSignature, enclaveQuorumPublic}; data is the hex of {encappedPublic, ciphertext, organizationId}, HPKE-sealed to clientPublicKey',
    }),
  })
  .openapi('InternalAccountExportResponse');

import { z } from '../../../api/openapi-registry';

export const ContactVerificationConfirmRequestSchema = z
  .object({
    code: z
      .string({ error: (i) => (i.input === undefined ? 'code is required' : 'code must be a string of six digits') })
      .regex(/^\d{6}$/, 'code must be the six digits that were sent')
      .openapi({ description: 'The one-time code that was sent; in the sandbox always 123456', example: '123456' }),
  })
  .openapi('ContactVerificationConfirmRequest');

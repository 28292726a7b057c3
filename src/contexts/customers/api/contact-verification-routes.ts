import type { ContactChannel } from '../domain/contact-verification';
import { confirmContactVerificationCode, sendContactVerificationCode } from '../services/contact-verification';
import { customerView } from '../services/customer-views';
import { defineRoute } from '../../../api/route';
import { errorResponses, IdParam } from '../../../api/schemas/common';
import { ContactVerificationConfirmRequestSchema } from './contact-verification-schemas';
import { CustomerSchema } from './customer-schemas';

const conflict = {
  description: "CONFLICT: the customer's provider does not verify contacts, or this contact is already verified",
  schema: errorResponses[400].schema,
};

/** Send and confirm routes of one channel (email or phone). */
function channelRoutes(channel: ContactChannel, segment: 'email' | 'phone', noun: string, Noun: string) {
  return [
    defineRoute({
      method: 'post',
      path: `/customers/:customerId/verify-${segment}`,
      operationId: `sendCustomer${Noun}Verification`,
      summary: `Send ${segment === 'email' ? 'an' : 'a'} ${segment} verification code to a customer`,
      description: `Send (or resend) a one-time code to the customer's ${noun}; a resend replaces the previous code. Sandbox: nothing is sent, the code is 123456`,
      tags: ['Contact Verification'],
      params: IdParam('customerId'),
      responses: {
        204: { description: 'Code sent; valid for 10 minutes and 5 attempts' },
        400: { description: `MISSING_MANDATORY_USER_INFO: the customer has no ${noun}`, schema: errorResponses[400].schema },
        401: errorResponses[401],
        404: errorResponses[404],
        409: conflict,
        501: {
          description: `NOT_IMPLEMENTED: production only, when this server has no ${channel === 'email' ? 'email' : 'SMS'} delivery configured (details: channel, delivery NOT_CONFIGURED); nothing is stored`,
          schema: errorResponses[400].schema,
        },
      },
      handler: async ({ em, caller, params, deps }) => {
        await sendContactVerificationCode(em, {
          platformId: caller.platformId,
          customerId: params.customerId,
          channel,
          environment: caller.environment,
          masterKey: deps.config.masterKey,
          sender: deps.contactCodeSender,
        });
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'post',
      path: `/customers/:customerId/verify-${segment}/confirm`,
      operationId: `confirmCustomer${Noun}Verification`,
      summary: `Confirm a customer's ${segment} verification code`,
      description: `Submit the code sent to the customer's ${noun}; marks contactVerification.${channel} VERIFIED`,
      tags: ['Contact Verification'],
      params: IdParam('customerId'),
      body: ContactVerificationConfirmRequestSchema,
      responses: {
        200: { description: `The customer, with contactVerification.${channel} VERIFIED`, schema: CustomerSchema },
        400: {
          description: 'INVALID_INPUT on `code`: constraint invalid (wrong), expired, attempts_exceeded (5 wrong attempts) or not_requested (no live code)',
          schema: errorResponses[400].schema,
        },
        401: errorResponses[401],
        404: errorResponses[404],
        409: conflict,
      },
      handler: async ({ em, caller, params, body, deps }) => {
        const customer = await confirmContactVerificationCode(em, {
          platformId: caller.platformId,
          customerId: params.customerId,
          channel,
          code: body.code,
          environment: caller.environment,
          masterKey: deps.config.masterKey,
        });
        return { status: 200, body: customerView(customer) };
      },
    }),
  ];
}

export const contactVerificationRoutes = [
  ...channelRoutes('email', 'email', 'email address', 'Email'),
  ...channelRoutes('phone', 'phone', 'phone number', 'Phone'),
];

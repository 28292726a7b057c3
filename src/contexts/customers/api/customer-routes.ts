import { Customer } from '../entities';
import { announceOpenedAccounts } from '../../ledger';
import { Platform } from '../../platforms';
import { startWebhookDelivery, type WebhookEvent } from '../../webhooks';
import { currentTerms } from '../domain/agreements';
import { DomainError } from '../../../domain/errors';
import { logger } from '../../../logger';
import {
  createCustomer,
  createProblems,
  deleteCustomer,
  findCustomer,
  listCustomers,
  updateCustomer,
  updateProblems,
  type CustomerWrite,
} from '../services/customers';
import { changeWalletTiedContact, walletTiedChangeOf } from '../services/wallet-contact-change';
import { signedCallOf, SignedRequestChallengeSchema, WalletSignatureHeadersSchema } from '../../../api/wallet-signature';
import { customerView } from '../services/customer-views';
import { announceReadiness } from './verification-readiness';
import type { ApiDeps } from '../../../api/context';
import { defineRoute } from '../../../api/route';
import { errorResponses, IdParam } from '../../../api/schemas/common';
import {
  CustomerCreateSchema,
  CustomerListQuerySchema,
  CustomerListSchema,
  CustomerSchema,
  CustomerUpdateSchema,
  EndUserTermsSchema,
} from './customer-schemas';

const conflict = { description: 'CONFLICT (platformCustomerId used by an active customer) or UMA_ADDRESS_EXISTS', schema: errorResponses[400].schema };

/**
 * Starts delivery of events recorded by a committed transaction. The change already happened, so
 * a failure to start is logged rather than turned into an error for the caller.
 */
async function deliver(deps: ApiDeps, events: WebhookEvent[]): Promise<void> {
  for (const event of events) {
    try {
      await startWebhookDelivery(deps.temporal, event, { taskQueue: deps.taskQueue });
    } catch (err) {
      logger.error({ err, eventId: event.id, type: event.type }, 'could not start webhook delivery');
    }
  }
}

export const customerRoutes = [
  defineRoute({
    method: 'post',
    path: '/customers',
    operationId: 'createCustomer',
    summary: 'Add a new customer',
    description: 'Create an individual or business customer; accounts it may already hold are provisioned in the same step',
    tags: ['Customers'],
    body: CustomerCreateSchema,
    idempotent: true,
    check: async ({ em, caller, body }) => createProblems(await em.findOneOrFail(Platform, { id: caller.platformId }), body),
    responses: {
      201: { description: 'Created', schema: CustomerSchema },
      400: { description: 'INVALID_INPUT (every invalid field in details.errors) or END_USER_TERMS_VERSION_NOT_FOUND', schema: errorResponses[400].schema },
      401: errorResponses[401],
      409: conflict,
    },
    handler: async ({ em, caller, body, deps, idempotencyKey }) => {
      const platform = await em.findOneOrFail(Platform, { id: caller.platformId });
      const { customer, events, opened } = await createCustomer(
        em,
        platform,
        body,
        { masterKey: deps.config.masterKey, environment: caller.environment },
        { ...(idempotencyKey ? { idempotencyKey } : {}) },
      );
      await deliver(deps, events);
      await announceOpenedAccounts({ em, temporal: deps.temporal, taskQueue: deps.taskQueue, environment: caller.environment }, opened);
      return { status: 201, body: customerView(customer) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/customers',
    operationId: 'listCustomers',
    summary: 'List customers',
    description: "List the platform's customers, newest first, with filters",
    tags: ['Customers'],
    query: CustomerListQuerySchema,
    responses: { 200: { description: 'A page of customers', schema: CustomerListSchema }, 400: errorResponses[400], 401: errorResponses[401] },
    handler: async ({ em, caller, query }) => ({ status: 200, body: await listCustomers(em, caller.platformId, query) }),
  }),
  // Before /customers/:customerId, which would otherwise take "end-user-terms" for an id.
  defineRoute({
    method: 'get',
    path: '/customers/end-user-terms',
    operationId: 'getEndUserTerms',
    summary: 'Get the current End User Terms',
    description: 'The current version of the end-user terms and where they are published',
    tags: ['Customers'],
    responses: { 200: { description: 'The current end-user terms', schema: EndUserTermsSchema }, 401: errorResponses[401] },
    handler: async () => {
      const { version, url } = currentTerms();
      return { status: 200, body: { version, url } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/customers/:customerId',
    operationId: 'getCustomerById',
    summary: 'Get customer by ID',
    description: 'Fetch one customer (soft-deleted customers too, with isDeleted: true)',
    tags: ['Customers'],
    params: IdParam('customerId'),
    responses: { 200: { description: 'The customer', schema: CustomerSchema }, 401: errorResponses[401], 404: errorResponses[404] },
    handler: async ({ em, caller, params }) => {
      const customer = await findCustomer(em, caller.platformId, params.customerId);
      if (!customer) throw DomainError.notFound('Customer');
      return { status: 200, body: customerView(customer) };
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/customers/:customerId',
    operationId: 'updateCustomerById',
    summary: 'Update customer by ID',
    description: "Update a customer; customerType must be the customer's",
    tags: ['Customers'],
    params: IdParam('customerId'),
    body: CustomerUpdateSchema,
    check: async ({ em, caller, params, body }) => {
      const customer = await em.findOne(Customer, { id: params.customerId, platformId: caller.platformId, isDeleted: false });
      if (!customer) throw DomainError.notFound('Customer');
      return updateProblems(await em.findOneOrFail(Platform, { id: caller.platformId }), customer, body);
    },
    headers: WalletSignatureHeadersSchema,
    responses: {
      200: { description: 'The updated customer (for a wallet-tied email or phone change: on the signed retry)', schema: CustomerSchema },
      202: {
        description:
          "An email change of a customer whose embedded wallet has an EMAIL_OTP credential (a phone change: SMS_OTP), sent without signature headers: sign payloadToSign with a session of the customer's wallet and send the same request again with Svc-Wallet-Signature and Request-Id",
        schema: SignedRequestChallengeSchema,
      },
      400: {
        description:
          'INVALID_INPUT (every invalid field in details.errors; email and phoneNumber changed together for a wallet-tied customer, rule separateContactChange), END_USER_TERMS_VERSION_NOT_FOUND, AUTH_CREDENTIAL_VERIFICATION_REQUIRED (no credential of the wallet was ever verified), AUTH_CREDENTIAL_VERIFICATION_EXPIRED (every session of the wallet has ended)',
        schema: errorResponses[400].schema,
      },
      401: {
        description:
          'UNAUTHORIZED, or on the signed retry: WALLET_SIGNATURE_MALFORMED, WALLET_SIGNATURE_INVALID, WALLET_SIGNATURE_BODY_MISMATCH, WALLET_SIGNATURE_MISSING, REQUEST_ID_MISSING, UNAUTHORIZED (unknown, used or expired request)',
        schema: errorResponses[401].schema,
      },
      404: { description: 'Not found, deleted, or owned by another platform', schema: errorResponses[404].schema },
      409: {
        description:
          'UMA_ADDRESS_EXISTS, EMAIL_OTP_EMAIL_ALREADY_EXISTS / SMS_OTP_PHONE_NUMBER_ALREADY_EXISTS (another credential uses it), EMAIL_OTP_CREDENTIAL_SET_CHANGED / SMS_OTP_CREDENTIAL_SET_CHANGED (the credentials changed since the 202), OPERATION_IN_PROGRESS (another contact change waits for its signature)',
        schema: errorResponses[400].schema,
      },
    },
    handler: async ({ em, caller, params, body, deps, req }) => {
      const platform = await em.findOneOrFail(Platform, { id: caller.platformId });
      const ctx = { masterKey: deps.config.masterKey, environment: caller.environment };
      const tied = await walletTiedChangeOf(em, caller.platformId, params.customerId, body);
      let write: CustomerWrite;
      if (tied) {
        const call = signedCallOf(req, caller, tied.walletAccountId);
        const outcome = await changeWalletTiedContact(em, { platform, customerId: params.customerId, update: body, tied, call, ctx });
        if (outcome.status === 'CHALLENGE') return { status: 202, body: outcome.challenge };
        write = outcome.result;
      } else {
        // Signature headers mean nothing to a synchronous update (spec §4.4 rule 5).
        write = await updateCustomer(em, platform, params.customerId, body, ctx);
      }
      const { customer, events, opened } = write;
      await deliver(deps, events);
      await announceOpenedAccounts({ em, temporal: deps.temporal, taskQueue: deps.taskQueue, environment: caller.environment }, opened);
      await announceReadiness(em, deps, caller, customer.id);
      return { status: 200, body: customerView(customer) };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/customers/:customerId',
    operationId: 'deleteCustomerById',
    summary: 'Delete customer by ID',
    description: 'Soft-delete a customer: it leaves default lists and its platformCustomerId becomes free again',
    tags: ['Customers'],
    params: IdParam('customerId'),
    responses: {
      200: { description: 'The deleted customer (isDeleted: true)', schema: CustomerSchema },
      401: errorResponses[401],
      404: errorResponses[404],
      410: { description: 'CUSTOMER_DELETED: already deleted', schema: errorResponses[404].schema },
    },
    handler: async ({ em, caller, params }) => ({ status: 200, body: customerView(await deleteCustomer(em, caller.platformId, params.customerId)) }),
  }),
];

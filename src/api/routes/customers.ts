import { Customer, Platform } from '../../db/entities';
import { ApiError } from '../../domain/errors';
import { createCustomer } from '../../services/customers';
import { customerView } from '../../services/views';
import { defineRoute } from '../route';
import { errorResponses, IdParam } from '../schemas/common';
import { CustomerSchema, IndividualCustomerCreateSchema } from '../schemas/customers';

export const customerRoutes = [
  defineRoute({
    method: 'post',
    path: '/customers',
    operationId: 'createCustomer',
    summary: 'Create a customer; its internal accounts are provisioned in the same step',
    tags: ['Customers'],
    body: IndividualCustomerCreateSchema,
    idempotent: true,
    responses: {
      201: { description: 'Created', schema: CustomerSchema },
      400: errorResponses[400],
      401: errorResponses[401],
      409: { description: 'CONFLICT (platformCustomerId in use) or UMA_ADDRESS_EXISTS', schema: errorResponses[400].schema },
    },
    handler: async ({ em, caller, body }) => {
      const platform = await em.findOneOrFail(Platform, { id: caller.platformId });
      const customer = await createCustomer(em, platform, body);
      return { status: 201, body: customerView(customer) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/customers/:customerId',
    operationId: 'getCustomerById',
    summary: 'Fetch one customer',
    tags: ['Customers'],
    params: IdParam('customerId'),
    responses: { 200: { description: 'The customer', schema: CustomerSchema }, 401: errorResponses[401], 404: errorResponses[404] },
    handler: async ({ em, caller, params }) => {
      const customer = await em.findOne(Customer, { id: params.customerId, platformId: caller.platformId });
      if (!customer) throw ApiError.notFound('Customer');
      return { status: 200, body: customerView(customer) };
    },
  }),
];

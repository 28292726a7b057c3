import { SUPPORTED_CURRENCY_CODES } from '../../domain/currencies';
import { z } from '../openapi-registry';

// The minimal individual customer of the foundation; the full customer model (business
// customers, EDD attributes, tax ids) extends these schemas.

export const E164 = /^\+[1-9]\d{1,14}$/;
// A malformed date is reported once, by the format check; the refinement only judges valid dates.
const isoDate = z.iso.date().refine((d) => Number.isNaN(Date.parse(d)) || Date.parse(d) <= Date.now(), { message: 'must not be in the future', params: { constraint: 'past' } });

export const AddressSchema = z
  .object({
    line1: z.string().min(1).max(255),
    line2: z.string().max(255).optional(),
    city: z.string().max(255).optional(),
    state: z.string().max(255).optional(),
    postalCode: z.string().min(1).max(32),
    country: z.string().regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 country code'),
  })
  .openapi('Address');

export const IndividualCustomerCreateSchema = z
  .object({
    customerType: z.literal('INDIVIDUAL'),
    platformCustomerId: z.string().min(1).max(255),
    email: z.email().max(255).optional(),
    phoneNumber: z.string().regex(E164, 'must be an E.164 phone number such as +14155550123').optional(),
    fullName: z.string().min(1).max(250).optional(),
    birthDate: isoDate.optional(),
    nationality: z.string().regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 country code').optional(),
    address: AddressSchema.optional(),
    umaAddress: z.string().regex(/^\$[a-z0-9._-]{1,64}@[a-z0-9.-]+$/i, 'must look like $name@domain').optional(),
    currencies: z.array(z.enum(SUPPORTED_CURRENCY_CODES)).min(1).optional(),
  })
  .openapi('IndividualCustomerCreateRequest');

export const CustomerSchema = z
  .object({
    id: z.string().openapi({ example: 'Customer:019542f5-b3e7-1d02-0000-000000000001' }),
    platformCustomerId: z.string(),
    customerType: z.enum(['INDIVIDUAL', 'BUSINESS']),
    umaAddress: z.string(),
    kycStatus: z.enum(['UNVERIFIED', 'PENDING', 'APPROVED', 'REJECTED', 'HOLD']),
    region: z.string().optional(),
    currencies: z.array(z.string()),
    email: z.string().optional(),
    phoneNumber: z.string().optional(),
    fullName: z.string().optional(),
    birthDate: z.string().optional(),
    nationality: z.string().optional(),
    address: AddressSchema.optional(),
    isDeleted: z.boolean(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi('Customer');

import type { EntityManager } from '@mikro-orm/postgresql';
import type { Customer } from '../../customers';
import { DomainError } from '../../../domain/errors';
import type { PaymentScaFactor } from '../domain/payment-challenges';
import { ScaFactor } from '../entities';
import { verifiedPhoneOf } from './sca-customers';

/**
 * A payment the customer could not authorize is refused now (nothing held, nothing moved)
 * rather than held until it lapses: SMS_OTP needs the verified phone, PASSKEY an enrolled passkey.
 */
export async function assertPaymentFactorAvailable(em: EntityManager, customer: Customer, factor: PaymentScaFactor): Promise<void> {
  const available =
    factor === 'SMS_OTP'
      ? verifiedPhoneOf(customer) !== null
      : (await em.count(ScaFactor, { platformId: customer.platformId, customerId: customer.id, type: 'PASSKEY', status: 'ACTIVE' })) > 0;
  if (available) return;
  throw DomainError.invalidInput(
    [
      {
        field: 'scaFactor',
        constraint: 'unavailable',
        message:
          factor === 'SMS_OTP'
            ? "the payment needs the customer's strong authentication by SMS_OTP: verify the phone number with POST /customers/{customerId}/verify-phone"
            : "the payment needs the customer's strong authentication by PASSKEY: enrol one with POST /sca/factors",
      },
    ],
    `The ${factor} factor is not available to authorize this payment`,
  );
}

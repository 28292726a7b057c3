import { Customer } from '../../customers';
import { heldWhole } from '../../../db/joined-rows';
import { PASS, type ExecutionGate } from '../../../domain/execution-gate-contract';
import { HOLD_MARGIN_SECONDS, paymentFactor, SCA_AUTHORIZATION_GATE } from '../domain/payment-challenges';
import { assertPaymentFactorAvailable } from '../services/payment-factors';
import { scaRequired } from '../domain/sca-region';
import { SCA_CODE_TTL_MS } from '../domain/one-time-codes';

/**
 * Strong Customer Authentication of a payment (PSD2): an execution paid by a customer of an SCA
 * region is held until the customer authorizes it (POST /quotes/{id}/authorize answers the
 * challenge the execute answer carries). It passes when approved (the challenge was authorized),
 * for a trusted beneficiary (the customer exempted it with a proof of its own), for payments of
 * the platform itself, and for funds that arrived (a real-time quote is challenged before its
 * payment instructions are given). For everyone else it reads nothing beyond the customer the
 * execution holds already, so a payout of a non-SCA customer costs no more than before.
 */
export const scaAuthorization: ExecutionGate = {
  name: SCA_AUTHORIZATION_GATE,
  async check(em, subject, { approved }) {
    if (approved || subject.trigger === 'FUNDS_ARRIVED' || !subject.customerId || subject.destinationTrusted) return PASS;
    const customer = heldWhole(em, Customer, subject.customerId) ?? (await em.findOne(Customer, { id: subject.customerId }));
    if (!customer || !scaRequired(subject.platformRegion, customer.regionCode)) return PASS;
    await assertPaymentFactorAvailable(em, customer, paymentFactor(subject.scaFactor));
    return {
      hold: {
        status: 'PENDING_AUTHORIZATION',
        expiresInSeconds: SCA_CODE_TTL_MS / 1000 + HOLD_MARGIN_SECONDS,
        reason: 'strong customer authentication: the customer authorizes the payment with POST /quotes/{id}/authorize',
      },
    };
  },
};

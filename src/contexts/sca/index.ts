// The sca context's public face: what other contexts may use of it (its api/ stays private).
// Strong Customer Authentication: who needs it, the factors, the one proof verifier, challenges
// and the SCA login session check.
export { ENROLLABLE_FACTORS, SCA_FACTORS, type EnrollableFactor, type ScaChallengePurpose, type ScaFactorType } from './domain/factors';
export { MAX_CHALLENGE_ATTEMPTS, SANDBOX_SCA_CODE, SCA_CODE_TTL_MS } from './domain/one-time-codes';
export { scaProofError, type ProofFailure, type ScaProofVerdict } from './domain/proof-verdicts';
export { scaRequired } from './domain/sca-region';
export { ScaChallenge, ScaFactor } from './entities';
export { issueScaChallenge, resendScaChallenge, type IssuedScaChallenge, type IssueScaChallengeInput, type ScaCodeSender } from './services/challenges';
export { assertNotLocked } from './services/lockout';
export { verifyScaProof, type ScaProof, type VerifyScaProofInput } from './services/proofs';
export { loadScaCustomer, type ScaCustomer } from './services/sca-customers';
export { requireScaSession } from './services/sessions';
// Payment challenges (sca-payments): the gate's name and the rules of dynamic linking.
export {
  challengePurposes,
  challengeTtlMs,
  HOLD_MARGIN_SECONDS,
  MAX_RESENDS,
  nextStep,
  PAYMENT_SCA_FACTORS,
  paymentFactor,
  SCA_AUTHORIZATION_GATE,
  type ChallengeKind,
  type ChallengePurpose,
  type PaymentScaFactor,
} from './domain/payment-challenges';
export { paymentBinding, paymentContext, type LinkedPayment } from './domain/payment-binding';
export { assertPaymentFactorAvailable } from './services/payment-factors';
export { ScaChallengeSchema } from './schemas/sca-challenge';
// The scaChallenge workflow's starter: payments starts a quote's challenge and passes the customer's answers on.
export { authorizeChallenge, resendChallenge, startScaChallenge } from './starters/sca-challenge';
// What this context adds to the registration lists (src/contexts/*.ts: stranded starts, execution gates, deciders, ledger audit).
export { scaAuthorization } from './gates/sca-authorization';

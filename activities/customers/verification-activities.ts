import type { Environment } from '../../src/contexts/platforms/entities/ApiToken';
import { applyResolution, applySubmission, type SubmissionInput, type SubmissionResult } from '../../src/contexts/customers/services/verifications';
import type { ActivityDeps } from '../deps';

export function verificationActivities({ orm }: ActivityDeps) {
  return {
    /** Evaluates one submission (POST /verifications) in one database transaction. */
    async evaluateVerificationSubmission(input: SubmissionInput): Promise<SubmissionResult> {
      return applySubmission(orm.em.fork(), input);
    },

    /** Records the decision a verification waited for; the approval provisions the customer's accounts. */
    async resolveVerification(input: { verificationId: string; environment: Environment }): Promise<SubmissionResult> {
      return applyResolution(orm.em.fork(), input);
    },
  };
}

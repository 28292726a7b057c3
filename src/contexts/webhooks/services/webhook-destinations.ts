import type { FieldError } from '../../../domain/errors';
import { endpointRefusal } from '../domain/destination-policy';

/**
 * The field error for a webhook endpoint the destination policy refuses, judged for the
 * environment of the token that sets it (the operator's WEBHOOK_ALLOW_LOOPBACK applies to the
 * sandbox only). Anything but an http(s) URL (absent, null, garbage) is for the schema to judge.
 */
export function webhookEndpointErrors(
  endpoint: unknown,
  environment: 'SANDBOX' | 'PRODUCTION',
  config: { webhookAllowLoopback?: boolean },
  field = 'webhookEndpoint',
): FieldError[] {
  // What is not an http(s) URL at all is the schema's to report (one error per field).
  if (typeof endpoint !== 'string' || !URL.canParse(endpoint) || !['http:', 'https:'].includes(new URL(endpoint).protocol)) return [];
  const refusal = endpointRefusal(endpoint, { environment, allowLoopback: config.webhookAllowLoopback ?? false });
  return refusal ? [{ field, constraint: 'webhookDestination', message: `not an allowed webhook destination: ${refusal}` }] : [];
}

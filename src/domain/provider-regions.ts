import { jurisdictionOf } from './countries';

// The regions whose payment provider is regulated: it verifies customers' contacts (customers) and
// asks for Strong Customer Authentication (sca), judged the same way by both contexts.

/** Platform regions whose provider verifies contacts. */
export const CONTACT_VERIFICATION_REGIONS: readonly string[] = ['EU', 'UK'];

export function contactVerificationRequired(platformRegion: string): boolean {
  return CONTACT_VERIFICATION_REGIONS.includes(platformRegion);
}

/**
 * The region whose provider serves a customer, for contact verification: the customer's own
 * jurisdiction when it has one the service distinguishes (EEA countries and `EU` → EU, GB → UK,
 * US), else its region code as is; customers without a region follow their platform's.
 */
export function contactRegionOf(platformRegion: string, customerRegionCode: string | null | undefined): string {
  if (!customerRegionCode) return platformRegion;
  return jurisdictionOf(customerRegionCode) ?? customerRegionCode;
}

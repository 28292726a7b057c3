import { contactRegionOf, contactVerificationRequired } from '../../../domain/provider-regions';

/**
 * Who needs Strong Customer Authentication: customers served by a provider of an SCA region (EU,
 * UK) — the same regions whose provider verifies contacts, judged the same way (the customer's
 * own jurisdiction, else its platform's region). Everyone else gets 409 on every SCA endpoint.
 */
export function scaRequired(platformRegion: string, customerRegionCode: string | null | undefined): boolean {
  return contactVerificationRequired(contactRegionOf(platformRegion, customerRegionCode));
}

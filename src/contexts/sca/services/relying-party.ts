import { umaDomainOf, type Platform } from '../../platforms';
import { relyingPartyOf, type RelyingParty } from '../domain/relying-party';

/** The relying party of the platform's passkeys (its UMA domain). */
export function platformRelyingParty(platform: Platform): RelyingParty {
  return relyingPartyOf(platform, umaDomainOf(platform));
}

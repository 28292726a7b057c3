/**
 * The WebAuthn relying party of a platform's passkeys: its UMA domain (the domain the platform
 * owns and its customers' addresses are on), with `https://<domain>` as the one allowed origin.
 * An assertion made for another site (a phishing page, another platform's app) fails the check.
 */
export interface RelyingParty {
  rpId: string;
  rpName: string;
  origins: string[];
}

export function relyingPartyOf(platform: { name: string }, domain: string): RelyingParty {
  return { rpId: domain, rpName: platform.name, origins: [`https://${domain}`] };
}

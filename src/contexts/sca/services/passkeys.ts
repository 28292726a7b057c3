import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import type { RelyingParty } from '../domain/relying-party';
import { PasskeyCheckFailed, verifyPasskeyAssertion, verifyPasskeyRegistration, type RegisteredPasskey } from '../../../security/webauthn';

/**
 * SCA's WebAuthn ceremonies (the one verifier: src/security/webauthn.ts): user presence and user
 * verification are required (a passkey alone is then possession plus inherence, two SCA
 * elements), the origin must be one the relying party allows, and an assertion must raise the
 * signature counter.
 */

export async function registrationOptions(rp: RelyingParty, user: { id: string; name: string }, exclude: string[]) {
  return generateRegistrationOptions({
    rpName: rp.rpName,
    rpID: rp.rpId,
    userName: user.name,
    userID: new TextEncoder().encode(user.id) as Uint8Array<ArrayBuffer>,
    attestationType: 'none',
    excludeCredentials: exclude.map((id) => ({ id })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
  });
}

export async function authenticationOptions(rp: RelyingParty, credentialIds: string[], challenge: string) {
  return generateAuthenticationOptions({
    rpID: rp.rpId,
    allowCredentials: credentialIds.map((id) => ({ id })),
    userVerification: 'required',
    challenge: isoBase64URL.toBuffer(challenge),
  });
}

/** The origin the client says the ceremony ran on, if the relying party allows it. */
function allowedOrigin(rp: RelyingParty, origin: string): string {
  if (!rp.origins.includes(origin)) throw new PasskeyCheckFailed('origin');
  return origin;
}

/** Verifies an attestation (registration response) against the challenge issued for it, on an origin the relying party allows. */
export async function verifyRegistration(rp: RelyingParty, credential: unknown, origin: string, expectedChallenge: string): Promise<RegisteredPasskey> {
  return verifyPasskeyRegistration(credential as RegistrationResponseJSON, expectedChallenge, {
    rpId: rp.rpId,
    origins: allowedOrigin(rp, origin),
    requireUserVerification: true,
  });
}

/** Verifies an assertion by the enrolled credential, on an origin the relying party allows; returns the new signature counter. */
export async function verifyAssertion(
  rp: RelyingParty,
  assertion: AuthenticationResponseJSON,
  origin: string,
  expectedChallenge: string,
  credential: { id: string; publicKey: string; counter: number },
): Promise<number> {
  return verifyPasskeyAssertion(assertion, expectedChallenge, { rpId: rp.rpId, origins: allowedOrigin(rp, origin), requireUserVerification: true }, credential);
}

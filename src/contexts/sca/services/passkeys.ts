import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import type { RelyingParty } from '../domain/relying-party';

/**
 * WebAuthn ceremonies through @simplewebauthn/server: user presence and user verification are
 * required (a passkey alone is then possession plus inherence, two SCA elements), the origin must
 * be one the relying party allows, and an assertion must raise the signature counter.
 */

export type PasskeyFailure = 'origin' | 'challenge' | 'relying_party' | 'user_verification' | 'counter' | 'credential' | 'signature' | 'malformed';

export class PasskeyCheckFailed extends Error {
  constructor(readonly failure: PasskeyFailure) {
    super(`passkey check failed: ${failure}`);
  }
}

/** Sorts a library refusal into what failed, without echoing its text (which quotes expected values). */
function failureOf(err: unknown): PasskeyFailure {
  const text = err instanceof Error ? err.message.toLowerCase() : '';
  if (text.includes('origin')) return 'origin';
  if (text.includes('challenge')) return 'challenge';
  if (text.includes('rp id') || text.includes('rpid') || text.includes('rp hash')) return 'relying_party';
  if (text.includes('user') && (text.includes('verif') || text.includes('present'))) return 'user_verification';
  if (text.includes('counter')) return 'counter';
  if (text.includes('signature')) return 'signature';
  return 'malformed';
}

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

export interface RegisteredPasskey {
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
}

/** Verifies an attestation (registration response) against the challenge issued for it. */
export async function verifyRegistration(rp: RelyingParty, credential: unknown, origin: string, expectedChallenge: string): Promise<RegisteredPasskey> {
  const expectedOrigin = allowedOrigin(rp, origin);
  let result;
  try {
    result = await verifyRegistrationResponse({
      response: credential as RegistrationResponseJSON,
      expectedChallenge,
      expectedOrigin,
      expectedRPID: rp.rpId,
      requireUserPresence: true,
      requireUserVerification: true,
    });
  } catch (err) {
    throw new PasskeyCheckFailed(failureOf(err));
  }
  if (!result.verified) throw new PasskeyCheckFailed('signature');
  const { credential: registered } = result.registrationInfo;
  return {
    credentialId: registered.id,
    publicKey: isoBase64URL.fromBuffer(registered.publicKey),
    counter: registered.counter,
    transports: registered.transports ?? [],
  };
}

/**
 * An assertion as the standard WebAuthn JSON (`id`, `rawId`, `response.clientDataJSON`, …), or
 * in the reference's wallet shape (`credentialId`, `clientDataJson`, `authenticatorData`,
 * `signature`), which is read as the same.
 */
export function assertionJson(assertion: Record<string, unknown>): AuthenticationResponseJSON {
  if (typeof assertion.credentialId === 'string') {
    return {
      id: assertion.credentialId,
      rawId: assertion.credentialId,
      type: 'public-key',
      response: {
        clientDataJSON: String(assertion.clientDataJson ?? ''),
        authenticatorData: String(assertion.authenticatorData ?? ''),
        signature: String(assertion.signature ?? ''),
        ...(typeof assertion.userHandle === 'string' ? { userHandle: assertion.userHandle } : {}),
      },
      clientExtensionResults: {},
    };
  }
  return assertion as unknown as AuthenticationResponseJSON;
}

/** Verifies an assertion by the enrolled credential; returns the new signature counter. */
export async function verifyAssertion(
  rp: RelyingParty,
  assertion: AuthenticationResponseJSON,
  origin: string,
  expectedChallenge: string,
  credential: { id: string; publicKey: string; counter: number },
): Promise<number> {
  const expectedOrigin = allowedOrigin(rp, origin);
  if (assertion?.id !== credential.id) throw new PasskeyCheckFailed('credential');
  let result;
  try {
    result = await verifyAuthenticationResponse({
      response: assertion,
      expectedChallenge,
      expectedOrigin,
      expectedRPID: rp.rpId,
      credential: { id: credential.id, publicKey: isoBase64URL.toBuffer(credential.publicKey), counter: credential.counter },
      requireUserVerification: true,
    });
  } catch (err) {
    throw new PasskeyCheckFailed(failureOf(err));
  }
  if (!result.verified) throw new PasskeyCheckFailed('signature');
  return result.authenticationInfo.newCounter;
}

import {
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';

/**
 * The one WebAuthn verifier (through @simplewebauthn/server) of every passkey the service checks:
 * embedded-wallet credentials and SCA factors. Each context decides what its ceremony requires
 * (user verification, the relying party, the origins) and how a refusal is answered; what failed
 * is told by name only, never with the library's text, which quotes the expected values.
 */

export type PasskeyFailure =
  'origin' | 'challenge' | 'relying_party' | 'user_presence' | 'user_verification' | 'counter' | 'credential' | 'signature' | 'malformed';

export class PasskeyCheckFailed extends Error {
  constructor(readonly failure: PasskeyFailure) {
    super(`passkey check failed: ${failure}`);
  }
}

/** Sorts a library refusal into what failed. */
function failureOf(err: unknown): PasskeyFailure {
  const text = err instanceof Error ? err.message.toLowerCase() : '';
  if (text.includes('origin')) return 'origin';
  if (text.includes('challenge')) return 'challenge';
  if (text.includes('rp id') || text.includes('rpid') || text.includes('rp hash')) return 'relying_party';
  // "User not present…" / "User presence was required…" (the UP flag), apart from "…could not be verified" (the UV flag).
  if (text.includes('user') && (text.includes('present') || text.includes('presence'))) return 'user_presence';
  if (text.includes('user') && text.includes('verif')) return 'user_verification';
  if (text.includes('counter')) return 'counter';
  if (text.includes('signature')) return 'signature';
  return 'malformed';
}

/** What is kept of a registered passkey: its credential id, its COSE public key (base64url), its signature counter. */
export interface RegisteredPasskey {
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
}

/** What a ceremony must match: the relying party's id, the origins it allows, and whether user verification is required. */
export interface PasskeyExpectations {
  rpId: string;
  origins: string | string[];
  requireUserVerification: boolean;
  /** COSE algorithms a registration may use (the library's default set when absent). */
  algorithms?: number[];
}

/** Verifies a registration (attestation) against the challenge issued for it. */
export async function verifyPasskeyRegistration(
  response: RegistrationResponseJSON,
  expectedChallenge: string,
  expected: PasskeyExpectations,
): Promise<RegisteredPasskey> {
  let result;
  try {
    result = await verifyRegistrationResponse({
      response,
      expectedChallenge,
      expectedOrigin: expected.origins,
      expectedRPID: expected.rpId,
      requireUserPresence: true,
      requireUserVerification: expected.requireUserVerification,
      ...(expected.algorithms ? { supportedAlgorithmIDs: expected.algorithms } : {}),
    });
  } catch (err) {
    throw new PasskeyCheckFailed(failureOf(err));
  }
  if (!result.verified) throw new PasskeyCheckFailed('signature');
  const { credential } = result.registrationInfo;
  return {
    credentialId: credential.id,
    publicKey: isoBase64URL.fromBuffer(credential.publicKey),
    counter: credential.counter,
    transports: credential.transports ?? response.response.transports ?? [],
  };
}

/** Verifies an assertion by the registered credential (its signature, and a counter that moved forward); returns the new counter. */
export async function verifyPasskeyAssertion(
  response: AuthenticationResponseJSON,
  expectedChallenge: string,
  expected: PasskeyExpectations,
  credential: { id: string; publicKey: string; counter: number },
): Promise<number> {
  if (response?.id !== credential.id) throw new PasskeyCheckFailed('credential');
  let result;
  try {
    result = await verifyAuthenticationResponse({
      response,
      expectedChallenge,
      expectedOrigin: expected.origins,
      expectedRPID: expected.rpId,
      credential: { id: credential.id, publicKey: isoBase64URL.toBuffer(credential.publicKey), counter: credential.counter },
      requireUserVerification: expected.requireUserVerification,
    });
  } catch (err) {
    throw new PasskeyCheckFailed(failureOf(err));
  }
  if (!result.verified) throw new PasskeyCheckFailed('signature');
  return result.authenticationInfo.newCounter;
}

/**
 * An assertion as the standard WebAuthn JSON (`id`, `rawId`, `response.clientDataJSON`, …), or in
 * the reference's wallet shape (`credentialId`, `clientDataJson`, `authenticatorData`, `signature`),
 * which is read as the same.
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

/**
 * The challenge an assertion says it signed (its clientDataJSON's `challenge`, base64url), or
 * null when the client data cannot be read. Only a pointer to the challenge to check it against:
 * the verifier still compares it with the one issued.
 */
export function assertionChallenge(response: AuthenticationResponseJSON): string | null {
  try {
    const clientData = JSON.parse(Buffer.from(String(response?.response?.clientDataJSON ?? ''), 'base64url').toString('utf8')) as unknown;
    const challenge = (clientData as { challenge?: unknown } | null)?.challenge;
    return typeof challenge === 'string' && challenge.length > 0 && challenge.length <= 512 ? challenge : null;
  } catch {
    return null;
  }
}

import { verifyAuthenticationResponse, verifyRegistrationResponse } from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import { DomainError } from '../../../domain/errors';
import type { WalletAuthConfig } from './wallet-auth-config';

/** The old fixed sandbox assertion signature (spec §5.6, §9): accepted in SANDBOX only, checked for nothing but the credential and the request. */
export const LEGACY_SANDBOX_PASSKEY_SIGNATURE = 'sandbox-valid-passkey-signature';

export type PasskeyTransport = 'usb' | 'nfc' | 'ble' | 'internal' | 'hybrid';

export interface PasskeyAttestation {
  credentialId: string;
  clientDataJson: string;
  attestationObject: string;
  transports?: PasskeyTransport[];
}

export interface PasskeyAssertion {
  credentialId: string;
  clientDataJson: string;
  authenticatorData: string;
  signature: string;
  userHandle?: string;
}

/** What is kept of a registered passkey: its WebAuthn credential id, its COSE public key (base64url) and signature counter. */
export interface RegisteredPasskey {
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: PasskeyTransport[];
}

/** The WebAuthn library's refusal, as a 401 naming the failed check (origin, RP id, challenge, presence, signature, counter). */
const refused = (what: string, error: unknown) =>
  DomainError.unauthorized(`The passkey ${what} was refused: ${error instanceof Error ? error.message : 'verification failed'}`);

/**
 * A registration (navigator.credentials.create(), ES256) checked by @simplewebauthn/server: the
 * challenge the platform issued and sent along, the origin and RP id, user presence, the
 * attestation, and that the attested credential is the one named.
 */
export async function verifyPasskeyRegistration(config: WalletAuthConfig, challenge: string, attestation: PasskeyAttestation): Promise<RegisteredPasskey> {
  let info;
  try {
    const result = await verifyRegistrationResponse({
      response: {
        id: attestation.credentialId,
        rawId: attestation.credentialId,
        type: 'public-key',
        response: { clientDataJSON: attestation.clientDataJson, attestationObject: attestation.attestationObject, transports: attestation.transports },
        clientExtensionResults: {},
      },
      expectedChallenge: challenge,
      expectedOrigin: config.passkeyOrigins,
      expectedRPID: config.passkeyRpId,
      requireUserVerification: false,
      supportedAlgorithmIDs: [-7],
    });
    if (!result.verified) throw new Error('not verified');
    info = result.registrationInfo;
  } catch (error) {
    throw refused('attestation', error);
  }
  if (info.credential.id !== attestation.credentialId) throw DomainError.unauthorized('The passkey attestation is for another credentialId');
  return {
    credentialId: info.credential.id,
    publicKey: isoBase64URL.fromBuffer(info.credential.publicKey),
    counter: info.credential.counter,
    transports: attestation.transports ?? [],
  };
}

export interface AssertionCheck {
  environment: 'SANDBOX' | 'PRODUCTION';
  /** The challenge issued (lowercase hex); the authenticator signed its UTF-8 bytes. */
  challenge: string;
  passkey: RegisteredPasskey;
}

/**
 * An assertion (navigator.credentials.get()) checked by @simplewebauthn/server: the registered
 * credential id, the issued challenge, origin and RP id, the user-presence bit, the signature by
 * the registered key, and a signature counter that moved forward (a clone's replay does not).
 * Returns the counter to store.
 */
export async function verifyPasskeyAssertion(config: WalletAuthConfig, assertion: PasskeyAssertion, check: AssertionCheck): Promise<{ counter: number }> {
  if (assertion.credentialId !== check.passkey.credentialId) throw DomainError.unauthorized('The assertion is by another passkey than the credential');
  if (assertion.signature === LEGACY_SANDBOX_PASSKEY_SIGNATURE) {
    if (check.environment !== 'SANDBOX') throw DomainError.unauthorized('The fixed sandbox passkey signature is accepted in the sandbox only');
    return { counter: check.passkey.counter };
  }
  try {
    const result = await verifyAuthenticationResponse({
      response: {
        id: assertion.credentialId,
        rawId: assertion.credentialId,
        type: 'public-key',
        response: {
          clientDataJSON: assertion.clientDataJson,
          authenticatorData: assertion.authenticatorData,
          signature: assertion.signature,
          ...(assertion.userHandle ? { userHandle: assertion.userHandle } : {}),
        },
        clientExtensionResults: {},
      },
      expectedChallenge: isoBase64URL.fromUTF8String(check.challenge),
      expectedOrigin: config.passkeyOrigins,
      expectedRPID: config.passkeyRpId,
      credential: { id: check.passkey.credentialId, publicKey: isoBase64URL.toBuffer(check.passkey.publicKey), counter: check.passkey.counter },
      requireUserVerification: false,
    });
    if (!result.verified) throw new Error('the signature does not verify');
    return { counter: result.authenticationInfo.newCounter };
  } catch (error) {
    throw refused('assertion', error);
  }
}

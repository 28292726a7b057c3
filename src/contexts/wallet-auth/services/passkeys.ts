import { isoBase64URL } from '@simplewebauthn/server/helpers';
import {
  assertionJson,
  PasskeyCheckFailed,
  verifyPasskeyAssertion as verifyAssertion,
  verifyPasskeyRegistration as verifyRegistration,
  type RegisteredPasskey,
} from '../../../security/webauthn';
import { DomainError } from '../../../domain/errors';
import type { WalletAuthConfig } from './wallet-auth-config';

/** The old fixed sandbox assertion signature (spec §5.6, §9): accepted in SANDBOX only, checked for nothing but the credential and the request. */
export const LEGACY_SANDBOX_PASSKEY_SIGNATURE = 'sandbox-valid-passkey-signature';

export type { RegisteredPasskey } from '../../../security/webauthn';

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

/** A refusal of the one WebAuthn verifier, as a 401 naming the failed check (origin, RP id, challenge, presence, signature, counter). */
function refused(what: 'attestation' | 'assertion', error: unknown): never {
  if (error instanceof PasskeyCheckFailed) throw DomainError.unauthorized(`The passkey ${what} was refused: ${error.failure.replace('_', ' ')} check failed`);
  throw error;
}

const expectationsOf = (config: WalletAuthConfig) => ({
  rpId: config.passkeyRpId,
  origins: config.passkeyOrigins,
  requireUserVerification: false,
  algorithms: [-7],
});

/**
 * A registration (navigator.credentials.create(), ES256) checked by the one WebAuthn verifier: the
 * challenge the platform issued and sent along, the origin and RP id, user presence, the
 * attestation, and that the attested credential is the one named.
 */
export async function verifyPasskeyRegistration(config: WalletAuthConfig, challenge: string, attestation: PasskeyAttestation): Promise<RegisteredPasskey> {
  const registered = await verifyRegistration(
    {
      id: attestation.credentialId,
      rawId: attestation.credentialId,
      type: 'public-key',
      response: { clientDataJSON: attestation.clientDataJson, attestationObject: attestation.attestationObject, transports: attestation.transports ?? [] },
      clientExtensionResults: {},
    },
    challenge,
    expectationsOf(config),
  ).catch((error: unknown) => refused('attestation', error));
  if (registered.credentialId !== attestation.credentialId) throw DomainError.unauthorized('The passkey attestation is for another credentialId');
  return { ...registered, transports: attestation.transports ?? [] };
}

export interface AssertionCheck {
  environment: 'SANDBOX' | 'PRODUCTION';
  /** The challenge issued (lowercase hex); the authenticator signed its UTF-8 bytes. */
  challenge: string;
  passkey: RegisteredPasskey;
}

/**
 * An assertion (navigator.credentials.get()) checked by the one WebAuthn verifier: the registered
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
  const counter = await verifyAssertion(assertionJson({ ...assertion }), isoBase64URL.fromUTF8String(check.challenge), expectationsOf(config), {
    id: check.passkey.credentialId,
    publicKey: check.passkey.publicKey,
    counter: check.passkey.counter,
  }).catch((error: unknown) => refused('assertion', error));
  return { counter };
}

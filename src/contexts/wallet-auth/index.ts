// The wallet-auth context's public face: embedded-wallet credentials, sessions and the one
// signed-request mechanism every signed wallet operation (of any context) goes through.
export { AUTH_METHOD_TYPES, type AuthMethodType, credentialSetFingerprint, SESSION_TTL_MS, SIGNED_REQUEST_TTL_MS } from './domain/auth-methods';
export { CLIENT_PUBLIC_KEY_PATTERN, COMPRESSED_PUBLIC_KEY_PATTERN, isCompressedPublicKey } from './domain/p256-keys';
export { type SignatureHeaders } from './domain/signature-headers';
export { LEGACY_SANDBOX_SIGNATURE, parseStamp, type Stamp, STAMP_SCHEME, stampSignsPayload } from './domain/stamp';
export { AuthCredential, AuthSession, SignedRequest } from './entities';
export {
  isSignedRetry,
  runSignedOperation,
  type SignedBy,
  type SignedCall,
  type SignedOperation,
  type SignedOutcome,
  type SignedRequestChallenge,
} from './services/signed-requests';
export { requireWallet } from './services/wallets';
export { verifySingleShotStamp } from './services/single-shot-stamps';
export { releaseSignedRequest } from './services/signed-request-release';
export { assertOtpContactFree, assertWalletVerified, retargetOtpCredentials, tiedOtpCredentials } from './services/contact-credentials';
export { WALLET_SIGNATURE_GATE } from './gates/wallet-signature';
export { type OwnerContacts, type OwnerContactsSource, provideWalletOwnerContacts } from './services/owner-contacts';
export { openWalletEmailCredential } from './services/wallet-credentials';
export { assertCredentialSetUnchanged, currentCredentialSet, liveCredentials, lockCredentialSet } from './services/credential-set';
export { openSession, type SessionView } from './services/sessions';
export { credentialView, sessionView } from './services/views';
// What this context adds to the registration lists (src/contexts/*.ts: stranded starts, execution gates, deciders, ledger audit).
export { walletSignature } from './gates/wallet-signature';

import { createHash } from 'node:crypto';

/** Spec §5.5 and §8: a token's `iat` may be at most 60 s old, with 5 s of clock skew either way. */
export const OIDC_MAX_TOKEN_AGE_SECONDS = 60;
export const OIDC_CLOCK_SKEW_SECONDS = 5;

/** The identity an OAUTH credential stands for: issuer, audience (one) and subject. */
export interface OidcIdentity {
  iss: string;
  aud: string;
  sub: string;
}

/** Why a token is refused: `malformed` and `unsupported-issuer` are bad input (400), the rest failed authentication (401). */
export type OidcRefusal = { kind: 'malformed' | 'unsupported-issuer' | 'unauthorized'; reason: string };

export type OidcClaimsCheck = { ok: true; identity: OidcIdentity; email?: string } | { ok: false; refusal: OidcRefusal };

export interface OidcClaimsRules {
  /** The issuers this service accepts (exact `iss` strings). */
  supportedIssuers: readonly string[];
  /** The request's time, in seconds since the epoch. */
  nowSeconds: number;
  /** On verify: the identity registered with the credential, which the token must repeat. */
  identity?: OidcIdentity;
  /** On verify: the `nonce` the token must carry (oidcNonceFor of the request's clientPublicKey). */
  nonce?: string;
}

/** The `nonce` a verify token must carry: the SHA-256 (lowercase hex) of the exact clientPublicKey string sent. */
export function oidcNonceFor(clientPublicKey: string): string {
  return createHash('sha256').update(clientPublicKey, 'utf8').digest('hex');
}

const refuse = (kind: OidcRefusal['kind'], reason: string): OidcClaimsCheck => ({ ok: false, refusal: { kind, reason } });
const isNonEmptyString = (value: unknown): value is string => typeof value === 'string' && value.length > 0;
const isNumericDate = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** `aud` is a non-empty string or an array of exactly one non-empty string (spec §5.5). */
function singleAudience(aud: unknown): string | undefined {
  if (isNonEmptyString(aud)) return aud;
  if (Array.isArray(aud) && aud.length === 1 && isNonEmptyString(aud[0])) return aud[0];
  return undefined;
}

/**
 * The claim rules of spec §5.5, the same in sandbox and production (only the issuer signature
 * check, made elsewhere, differs): a supported `iss`, one `aud`, a `sub`, a numeric `iat` no more
 * than 60 s (+5 s skew) in the past and not in the future beyond the skew, a numeric `exp` after
 * now; on verify, the registered identity and the nonce bound to the client's public key.
 */
export function checkOidcClaims(claims: Record<string, unknown>, rules: OidcClaimsRules): OidcClaimsCheck {
  const { iss, sub, iat, exp, nonce, email } = claims;
  if (!isNonEmptyString(iss)) return refuse('malformed', 'The OIDC token has no iss claim');
  if (!rules.supportedIssuers.includes(iss)) return refuse('unsupported-issuer', `The OIDC issuer ${JSON.stringify(iss)} is not supported`);
  const aud = singleAudience(claims.aud);
  if (aud === undefined) return refuse('unauthorized', 'The OIDC token aud must be a non-empty string or an array of one');
  if (!isNonEmptyString(sub)) return refuse('unauthorized', 'The OIDC token has no sub claim');
  if (!isNumericDate(iat)) return refuse('unauthorized', 'The OIDC token iat must be a number');
  if (iat < rules.nowSeconds - OIDC_MAX_TOKEN_AGE_SECONDS - OIDC_CLOCK_SKEW_SECONDS) {
    return refuse('unauthorized', `The OIDC token is stale: iat is more than ${OIDC_MAX_TOKEN_AGE_SECONDS} s old`);
  }
  if (iat > rules.nowSeconds + OIDC_CLOCK_SKEW_SECONDS) return refuse('unauthorized', 'The OIDC token iat is in the future');
  if (!isNumericDate(exp)) return refuse('unauthorized', 'The OIDC token exp must be a number');
  if (exp <= rules.nowSeconds) return refuse('unauthorized', 'The OIDC token has expired');
  const identity = { iss, aud, sub };
  if (rules.identity && (rules.identity.iss !== iss || rules.identity.aud !== aud || rules.identity.sub !== sub)) {
    return refuse('unauthorized', 'The OIDC token names another identity than the credential');
  }
  if (rules.nonce !== undefined && nonce !== rules.nonce) {
    return refuse('unauthorized', 'The OIDC token nonce is not the SHA-256 of the clientPublicKey');
  }
  return { ok: true, identity, ...(isNonEmptyString(email) ? { email } : {}) };
}

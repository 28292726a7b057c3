import { compactVerify, createLocalJWKSet, createRemoteJWKSet, decodeJwt, decodeProtectedHeader, type JWTVerifyGetKey } from 'jose';
import { DomainError } from '../../../domain/errors';
import { checkOidcClaims, type OidcIdentity } from '../domain/oidc-claims';
import type { OidcIssuerKeys, WalletAuthConfig } from './wallet-auth-config';

/** The old fixed sandbox token: no longer a token at all (spec §5.6, §9). */
export const LEGACY_SANDBOX_OIDC_TOKEN = 'sandbox-valid-oidc-token';

/** Asymmetric algorithms only: an issuer's published key never verifies an HMAC, and `none` never passes. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

/** One key set per issuer configuration: a remote set caches the issuer's keys between tokens. */
const keySets = new WeakMap<OidcIssuerKeys, JWTVerifyGetKey>();

function keySetOf(keys: OidcIssuerKeys): JWTVerifyGetKey {
  let set = keySets.get(keys);
  if (!set) {
    set = 'jwksUrl' in keys ? createRemoteJWKSet(new URL(keys.jwksUrl)) : createLocalJWKSet(keys.jwks);
    keySets.set(keys, set);
  }
  return set;
}

const malformed = (reason: string) => DomainError.invalidInput([{ field: 'oidcToken', constraint: 'format', message: reason }], reason);

export interface OidcTokenCheck {
  /** SANDBOX skips only the issuer signature (spec §5.6); every claim rule still applies. */
  environment: 'SANDBOX' | 'PRODUCTION';
  nowSeconds: number;
  /** On verify: the credential's identity and the nonce the token must carry. */
  identity?: OidcIdentity;
  nonce?: string;
}

const BASE64URL_SEGMENT = /^[A-Za-z0-9_-]*$/;
const NOT_A_JWT = 'The oidcToken is not a JWT (header.payload.signature, base64url JSON)';

/**
 * The claims of a JWT-shaped token: three base64url segments, a header that is a JSON object
 * naming its `alg`, a payload that is a JSON object (the signature segment may be a dummy). Null
 * for anything else: malformed, whatever the environment (the sandbox does not check the
 * signature, so the shape is all that would otherwise tell a token from garbage).
 */
function jwtClaims(token: string): Record<string, unknown> | null {
  const segments = token.split('.');
  if (segments.length !== 3 || !segments.every((segment) => BASE64URL_SEGMENT.test(segment))) return null;
  try {
    const header = decodeProtectedHeader(token);
    if (typeof header.alg !== 'string' || header.alg === '') return null;
    return decodeJwt(token);
  } catch {
    return null;
  }
}

/**
 * Checks an OIDC token for an OAUTH credential: JWT-shaped (else 400 INVALID_INPUT, the old
 * sandbox literal included), from a supported issuer (else 400), signed by that issuer's key
 * outside the sandbox, and passing the claim rules of spec §5.5 (else 401 UNAUTHORIZED naming the
 * failed check). Returns the identity.
 */
export async function checkOidcToken(config: WalletAuthConfig, token: string, check: OidcTokenCheck): Promise<{ identity: OidcIdentity; email?: string }> {
  if (token === LEGACY_SANDBOX_OIDC_TOKEN) throw malformed('The fixed sandbox OIDC token is no longer accepted: send a JWT from a supported issuer');
  const claims = jwtClaims(token);
  if (!claims) throw malformed(NOT_A_JWT);
  const result = checkOidcClaims(claims, {
    supportedIssuers: Object.keys(config.oidcIssuers),
    nowSeconds: check.nowSeconds,
    identity: check.identity,
    nonce: check.nonce,
  });
  if (!result.ok) {
    if (result.refusal.kind === 'unauthorized') throw DomainError.unauthorized(result.refusal.reason);
    throw malformed(result.refusal.reason);
  }
  if (check.environment !== 'SANDBOX') {
    try {
      await compactVerify(token, keySetOf(config.oidcIssuers[result.identity.iss]!), { algorithms: ALGORITHMS });
    } catch {
      throw DomainError.unauthorized("The OIDC token's signature does not verify with its issuer's keys");
    }
  }
  return { identity: result.identity, ...(result.email ? { email: result.email } : {}) };
}

import type { JSONWebKeySet } from 'jose';

/** Where an OIDC issuer's signing keys come from: its JWKS document, or keys given inline. */
export type OidcIssuerKeys = { jwksUrl: string } | { jwks: JSONWebKeySet };

/** The embedded-wallet credential settings: the WebAuthn relying party and the OIDC issuers accepted. */
export interface WalletAuthConfig {
  /** WebAuthn relying-party id (a passkey is bound to it): the platform app's domain. */
  passkeyRpId: string;
  /** The origins a passkey ceremony may come from (clientDataJSON.origin). */
  passkeyOrigins: string[];
  /** Supported OIDC issuers (exact `iss`), each with where its signing keys are published. */
  oidcIssuers: Record<string, OidcIssuerKeys>;
}

/** The reference's supported sandbox issuers, with their published key sets. */
export const DEFAULT_OIDC_ISSUERS: Record<string, OidcIssuerKeys> = {
  'https://accounts.google.com': { jwksUrl: 'https://www.googleapis.com/oauth2/v3/certs' },
  'accounts.google.com': { jwksUrl: 'https://www.googleapis.com/oauth2/v3/certs' },
  'https://appleid.apple.com': { jwksUrl: 'https://appleid.apple.com/auth/keys' },
};

function parseIssuers(text: string): Record<string, OidcIssuerKeys> {
  const parsed: unknown = JSON.parse(text);
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new Error('OIDC_ISSUERS must be a JSON object: {"<iss>": {"jwksUrl": "…"} | {"jwks": {"keys": […]}}}');
  const issuers: Record<string, OidcIssuerKeys> = {};
  for (const [iss, keys] of Object.entries(parsed as Record<string, unknown>)) {
    const entry = keys as { jwksUrl?: unknown; jwks?: { keys?: unknown } } | null;
    if (entry && typeof entry.jwksUrl === 'string') issuers[iss] = { jwksUrl: new URL(entry.jwksUrl).toString() };
    else if (entry && entry.jwks && Array.isArray(entry.jwks.keys)) issuers[iss] = { jwks: entry.jwks as JSONWebKeySet };
    else throw new Error(`OIDC_ISSUERS[${JSON.stringify(iss)}] needs jwksUrl or jwks.keys`);
  }
  return issuers;
}

/**
 * From the environment: PASSKEY_RP_ID (default `localhost`), PASSKEY_ORIGINS (comma-separated;
 * default `https://<rp id>` and, for localhost, `http://localhost`), OIDC_ISSUERS (JSON: issuer →
 * `{jwksUrl}` or `{jwks}`; replaces the default Google and Apple issuers).
 */
export function loadWalletAuthConfig(env: NodeJS.ProcessEnv): WalletAuthConfig {
  const passkeyRpId = env.PASSKEY_RP_ID ?? 'localhost';
  const passkeyOrigins = env.PASSKEY_ORIGINS
    ? env.PASSKEY_ORIGINS.split(',')
        .map((origin) => origin.trim())
        .filter(Boolean)
    : [`https://${passkeyRpId}`, ...(passkeyRpId === 'localhost' ? ['http://localhost'] : [])];
  return { passkeyRpId, passkeyOrigins, oidcIssuers: env.OIDC_ISSUERS ? parseIssuers(env.OIDC_ISSUERS) : DEFAULT_OIDC_ISSUERS };
}

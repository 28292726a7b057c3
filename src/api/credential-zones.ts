/**
 * Which credential a request must carry, decided by its path before any route is matched:
 * platform credentials (HTTP Basic) everywhere, an agent's bearer token under `/agents/me`, and
 * the device code itself on its redemption. A credential of another kind is refused (401) — an
 * agent's token never reaches a platform operation, nor a platform's token an agent operation.
 */
export type CredentialKind = 'platform' | 'agent' | 'device-code';

const AGENT_ZONE = /^\/agents\/me(\/|$)/;
const DEVICE_CODE_REDEMPTION = /^\/agents\/device-codes\/([^/]+)\/redeem\/?$/;

/** The credential kind of a request, by method and path below the versioned base. */
export function credentialKindOf(method: string, path: string): CredentialKind {
  if (AGENT_ZONE.test(path)) return 'agent';
  if (method.toLowerCase() === 'post' && DEVICE_CODE_REDEMPTION.test(path)) return 'device-code';
  return 'platform';
}

/** The device code of a redemption path (still URL-encoded), or undefined. */
export function deviceCodeOfPath(path: string): string | undefined {
  return DEVICE_CODE_REDEMPTION.exec(path)?.[1];
}

/** A delegated key's life (reference DelegatedKeyStatus): PENDING after the second leg, ACTIVE after the third, REVOKED by the platform. */
export type DelegatedKeyStatus = 'PENDING' | 'ACTIVE' | 'REVOKED';

/** Only an ACTIVE key is revoked (the reference's 400 otherwise); a PENDING one of an abandoned flow is harmless and stays. */
export function canRevoke(status: DelegatedKeyStatus): boolean {
  return status === 'ACTIVE';
}

/** Only the PENDING key of the flow is activated by its third leg. */
export function canActivate(status: DelegatedKeyStatus): boolean {
  return status === 'PENDING';
}

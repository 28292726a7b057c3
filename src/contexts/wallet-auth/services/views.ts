import type { AuthCredential, AuthSession } from '../entities';

/** A credential as the API shows it (the reference's AuthMethod): never its secrets or challenge. */
export function credentialView(credential: AuthCredential) {
  return {
    id: credential.id,
    accountId: credential.accountId,
    type: credential.type,
    ...(credential.passkeyCredentialId ? { credentialId: credential.passkeyCredentialId } : {}),
    nickname: credential.nickname,
    createdAt: credential.createdAt.toISOString(),
    updatedAt: credential.updatedAt.toISOString(),
  };
}

/** A session as the API shows it (the reference's AuthSession: its credential's AuthMethod fields, its own id and times): never its key. */
export function sessionView(session: AuthSession, credential: AuthCredential) {
  return {
    ...credentialView(credential),
    id: session.id,
    createdAt: session.createdAt.toISOString(),
    updatedAt: session.updatedAt.toISOString(),
    expiresAt: session.expiresAt.toISOString(),
  };
}

import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuthCredential } from '../entities';
import { newSessionKeyPair, sealSessionSigningKey } from './client-sealing';
import { openSession, type SessionView } from './sessions';

export type SealedSessionView = SessionView & {
  /** The session's private key, HPKE-sealed to the client's key: the only copy there is. */
  encryptedSessionSigningKey: string;
};

/**
 * A PASSKEY or OAUTH login (spec §5.3): the service makes a fresh session key pair, opens the
 * session with its public half and hands out the private half only sealed to the request's
 * clientPublicKey, so that only the device holding that key's private half can sign with the
 * session. In the caller's transaction.
 */
export async function openSealedSession(tx: EntityManager, credential: AuthCredential, clientPublicKey: string): Promise<SealedSessionView> {
  const pair = newSessionKeyPair();
  const encryptedSessionSigningKey = await sealSessionSigningKey(clientPublicKey, pair.privateKey);
  pair.privateKey.fill(0);
  return { ...(await openSession(tx, credential, pair.publicKeyHex)), encryptedSessionSigningKey };
}

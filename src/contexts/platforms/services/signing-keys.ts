import type { EntityManager } from '@mikro-orm/postgresql';
import { SigningKey } from '../entities';
import type { Environment } from '../entities/ApiToken';
import { decrypt, encrypt } from '../../../security/secrets';
import { generateSigningKeyPair } from '../../webhooks/domain/webhook-signature';

/** The webhook-signing key of an environment, created on first use; the private key is sealed at rest. */
export async function signingKey(em: EntityManager, masterKey: Buffer, environment: Environment): Promise<{ publicKeyPem: string; privateKeyPem: string }> {
  let key = await em.findOne(SigningKey, { environment });
  if (!key) {
    const pair = generateSigningKeyPair();
    await em
      .createQueryBuilder(SigningKey)
      .insert({ environment, publicKeyPem: pair.publicKeyPem, privateKeyEncrypted: encrypt(masterKey, pair.privateKeyPem), createdAt: new Date() })
      .onConflict('environment')
      .ignore()
      .execute();
    key = await em.findOneOrFail(SigningKey, { environment }, { refresh: true });
  }
  return { publicKeyPem: key.publicKeyPem, privateKeyPem: decrypt(masterKey, key.privateKeyEncrypted) };
}

export async function publicSigningKey(em: EntityManager, masterKey: Buffer, environment: Environment): Promise<string> {
  return (await signingKey(em, masterKey, environment)).publicKeyPem;
}

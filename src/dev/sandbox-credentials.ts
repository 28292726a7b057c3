import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiToken } from '../contexts/platforms/entities';
import { createToken } from '../contexts/platforms/services/platforms';
import { createPlatform } from '../contexts/platform-setup/services/platform-setup';
import { adoptDefaultUmaDomain } from '../contexts/platforms/services/uma-domain-assignment';
import { migrate, openOrm } from '../db/orm';
import { parseMasterKey } from '../security/secrets';
import { DEV_SANDBOX_PLATFORM } from './sandbox-platform';

export interface Credentials {
  platformId: string;
  tokenId: string;
  clientSecret: string;
  baseUrl: string;
}

/**
 * The default sandbox platform of a local stack (`npm start`, `npm run start:cluster`): created on first
 * start (after the migrations), its credentials kept in the stack's state folder.
 */
export async function sandboxCredentials(
  databaseUrl: string,
  baseUrl: string,
  stack: { dataDir: string; masterKey: string; say: (msg: string) => void },
): Promise<Credentials> {
  const file = join(stack.dataDir, 'sandbox-credentials.json');
  const orm = await openOrm(databaseUrl, { poolMax: 2 });
  try {
    await migrate(orm, databaseUrl);
    const em = orm.em.fork();
    if (existsSync(file)) {
      const saved = JSON.parse(readFileSync(file, 'utf8')) as Credentials;
      if (await em.findOne(ApiToken, { id: saved.tokenId })) {
        // A sandbox platform created before platforms had a UMA domain gets its default one now.
        await adoptDefaultUmaDomain(em, saved.platformId);
        return { ...saved, baseUrl };
      }
      stack.say('saved sandbox credentials do not match this database; creating a new sandbox platform');
    }
    const key = parseMasterKey(stack.masterKey);
    const platform = await createPlatform(em, DEV_SANDBOX_PLATFORM, { masterKey: key });
    const token = await createToken(em, key, platform.id, 'SANDBOX', 'sandbox-default');
    const creds = { platformId: platform.id, tokenId: token.tokenId, clientSecret: token.clientSecret, baseUrl };
    writeFileSync(file, JSON.stringify(creds), { mode: 0o600 });
    return creds;
  } finally {
    await orm.close();
  }
}

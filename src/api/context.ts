import type { MikroORM } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import type { Config } from '../config';
import type { Environment } from '../db/entities/ApiToken';

export interface ApiDeps {
  orm: MikroORM;
  temporal: Client;
  config: Pick<Config, 'masterKey' | 'apiPrefix' | 'publicBaseUrl'>;
  taskQueue?: string;
}

/** Who is calling: resolved from the Basic credentials on every authenticated request. */
export interface Caller {
  platformId: string;
  tokenId: string;
  environment: Environment;
}

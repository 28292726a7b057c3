import { parseMasterKey } from './security/secrets';

export const API_VERSION = '2025-10-13';

export interface Config {
  databaseUrl: string;
  temporalAddress: string;
  temporalNamespace: string;
  port: number;
  /** Path prefix in front of the version segment, e.g. `/v1` → `/v1/2025-10-13`. */
  apiPrefix: string;
  publicBaseUrl: string;
  masterKey: Buffer;
  logLevel: string;
}

function required(env: NodeJS.ProcessEnv, name: string, hint: string): string {
  const value = env[name];
  if (!value) throw new Error(`${name} is not set: ${hint}`);
  return value;
}

export function basePath(apiPrefix: string): string {
  return `${apiPrefix.replace(/\/+$/, '')}/${API_VERSION}`;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  const apiPrefix = env.API_PREFIX ?? '';
  return {
    databaseUrl: required(env, 'DATABASE_URL', 'point it at PostgreSQL, or start everything with `npm start`'),
    temporalAddress: env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233',
    temporalNamespace: env.TEMPORAL_NAMESPACE ?? 'default',
    port,
    apiPrefix,
    publicBaseUrl: (env.PUBLIC_BASE_URL ?? `http://127.0.0.1:${port}`).replace(/\/+$/, '') + basePath(apiPrefix),
    masterKey: parseMasterKey(required(env, 'MASTER_KEY', 'a base64 32-byte key (openssl rand -base64 32); `npm start` creates one in .data/')),
    logLevel: env.LOG_LEVEL ?? 'info',
  };
}

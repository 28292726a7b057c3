import { parseArgs } from 'node:util';
import { basePath, loadWebhookAllowLoopback } from '../config';
import { parseMasterKey } from '../security/secrets';
import { stackDataDir, stackMasterKey } from '../dev/master-key';
import { stackDatabase, withoutPassword } from '../dev/stack-database';
import { webhookEndpointErrors } from '../contexts/webhooks/services/webhook-destinations';
import { migrate, openOrm } from '../db/orm';
import { databaseOutOfReach } from '../db/out-of-reach';
import type { Region } from '../contexts/platforms/entities/Platform';
import { createToken } from '../contexts/platforms/services/platforms';
import { createPlatform } from '../contexts/platform-setup/services/platform-setup';
import { OWN_DEFAULT_UMA_DOMAIN } from '../contexts/platforms/domain/uma-domains';

/**
 * Creates a platform and an API token and prints one line of JSON:
 * {"platformId","tokenId","clientSecret","baseUrl"}. The secret is shown only here.
 */
function positiveInteger(text: string, flag: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${flag} must be a positive integer`);
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      name: { type: 'string', default: 'Sandbox platform' },
      environment: { type: 'string', default: 'SANDBOX' },
      region: { type: 'string', default: 'US' },
      currencies: { type: 'string', default: 'USD' },
      regulated: { type: 'boolean', default: false },
      'embedded-wallets': { type: 'boolean', default: false },
      'counterparty-required': { type: 'boolean', default: false },
      'webhook-url': { type: 'string' },
      // A host name of the platform's own; `default` (the default with a SANDBOX token) gives it its default domain.
      'uma-domain': { type: 'string' },
      'max-live-cards': { type: 'string' },
      'one-card-per-cardholder': { type: 'boolean', default: false },
    },
  });
  // Without DATABASE_URL: the database `npm start` runs on, found as bin/up finds it.
  const database = process.env.DATABASE_URL
    ? { url: process.env.DATABASE_URL, described: `${withoutPassword(process.env.DATABASE_URL)} (DATABASE_URL)` }
    : stackDatabase();
  const databaseUrl = database.url;
  const environment = values.environment.toUpperCase();
  if (environment !== 'SANDBOX' && environment !== 'PRODUCTION') throw new Error('--environment must be SANDBOX or PRODUCTION');
  const masterKey = parseMasterKey(stackMasterKey(stackDataDir(), { create: false }));
  // The same webhook destination policy as PATCH /config, for the token's environment.
  const refused = webhookEndpointErrors(values['webhook-url'], environment, { webhookAllowLoopback: loadWebhookAllowLoopback(process.env) }, '--webhook-url');
  if (refused.length > 0) throw new Error(`--webhook-url: ${refused[0]!.message}`);
  const orm = await openOrm(databaseUrl, { poolMax: 2 });
  try {
    await migrate(orm, databaseUrl).catch((err: unknown) => {
      if (!databaseOutOfReach(err)) throw err;
      const hint = process.env.DATABASE_URL ? '' : ': is npm start running?';
      throw new Error(`cannot reach ${database.described}${hint} (${err instanceof Error ? err.message : String(err)})`);
    });
    const em = orm.em.fork();
    const platform = await createPlatform(
      em,
      {
        name: values.name,
        region: values.region.toUpperCase() as Region,
        currencies: values.currencies
          .split(',')
          .map((c) => c.trim().toUpperCase())
          .filter(Boolean),
        isRegulatedFinancialInstitution: values.regulated,
        embeddedWalletsSupported: values['embedded-wallets'],
        counterpartyInformationRequired: values['counterparty-required'],
        webhookEndpoint: values['webhook-url'] ?? null,
        // A sandbox platform gets its default domain, so invitations work at once; production names its own.
        umaDomain: values['uma-domain'] ?? (environment === 'SANDBOX' ? OWN_DEFAULT_UMA_DOMAIN : null),
        maxLiveCards: values['max-live-cards'] === undefined ? null : positiveInteger(values['max-live-cards'], '--max-live-cards'),
        oneCardPerCardholder: values['one-card-per-cardholder'],
      },
      { masterKey },
    );
    const token = await createToken(em, masterKey, platform.id, environment);
    const port = process.env.PORT ?? '3000';
    const baseUrl = (process.env.PUBLIC_BASE_URL ?? `http://127.0.0.1:${port}`).replace(/\/+$/, '') + basePath(process.env.API_PREFIX ?? '');
    process.stdout.write(`${JSON.stringify({ platformId: platform.id, tokenId: token.tokenId, clientSecret: token.clientSecret, baseUrl })}\n`);
    // On stderr: stdout stays the one line of JSON that scripts read.
    process.stderr.write(`create-platform: wrote platform ${platform.id} to ${database.described}\n`);
  } finally {
    await orm.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`create-platform failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});

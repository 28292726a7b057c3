import { NativeConnection } from '@temporalio/worker';
import { httpWebhookSender } from '../activities/webhook-sender';
import { loadConfig } from '../src/config';
import { migrate, openOrm } from '../src/db/orm';
import { logger } from '../src/logger';
import { createWorker } from './worker';

async function main(): Promise<void> {
  const config = loadConfig();
  const orm = await openOrm(config.databaseUrl);
  await migrate(orm, config.databaseUrl);
  const connection = await NativeConnection.connect({ address: config.temporalAddress });
  const worker = await createWorker({
    connection,
    namespace: config.temporalNamespace,
    deps: { orm, masterKey: config.masterKey, webhookSender: httpWebhookSender },
  });
  logger.info({ temporalAddress: config.temporalAddress, taskQueue: worker.options.taskQueue }, 'worker started');
  // Worker.run() handles SIGINT/SIGTERM itself: it drains in-flight tasks, then resolves.
  await worker.run();
  await connection.close();
  await orm.close();
  logger.info('worker stopped');
}

main().catch((err: unknown) => {
  logger.fatal({ err }, 'worker failed');
  process.exit(1);
});

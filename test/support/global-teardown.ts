import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { Client } from 'pg';
import { summariseFindings } from './conformance-record';

export default async function globalTeardown(): Promise<void> {
  const conformance = summariseFindings();
  if (conformance) console.log(conformance);
  const temporal = (globalThis as Record<string, unknown>).__temporalServer as ChildProcess | undefined;
  temporal?.kill('SIGKILL');
  if (process.env.TEST_WORKFLOW_BUNDLE) rmSync(process.env.TEST_WORKFLOW_BUNDLE, { force: true });
  if (process.env.TEST_DATABASE_URL && process.env.TEST_DATABASE_NAME && !process.env.KEEP_TEST_DATABASE) {
    const admin = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${process.env.TEST_DATABASE_NAME} with (force)`);
    await admin.end();
  }
}

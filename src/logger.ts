import pino from 'pino';

/**
 * Where credentials and secrets could appear in a log line: API credentials (ours, and the
 * stablecoin provider's `apiClientSecret`), the master key,
 * tax identification numbers (`identifier` of customers and of beneficial owners' personalInfo,
 * at the top, in a body or one object further down) and one-time contact codes (`code` of a
 * confirm body or of a code delivery message; an error's own `code`, e.g. `err.code`, stays).
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["svc-wallet-signature"]',
  'clientSecret',
  '*.clientSecret',
  'apiClientSecret',
  '*.apiClientSecret',
  '*.*.apiClientSecret',
  'secret',
  '*.secret',
  'masterKey',
  'MASTER_KEY',
  'identifier',
  '*.identifier',
  '*.*.identifier',
  '*.*.*.identifier',
  'code',
  'body.code',
  '*.body.code',
  'message.code',
];

export function createLogger(destination?: pino.DestinationStream, level = process.env.LOG_LEVEL ?? 'info') {
  const options: pino.LoggerOptions = {
    level,
    base: { service: 'payments' },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}

/** Structured JSON logs. Credentials and secrets are redacted wherever they could appear. */
export const logger = createLogger();

export type Logger = typeof logger;

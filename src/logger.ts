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
  'req.headers["grid-wallet-signature"]',
  'clientSecret',
  '*.clientSecret',
  'apiClientSecret',
  'accessToken',
  '*.accessToken',
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

/** A request URL as logged: a device code in the path is a credential (its redemption needs nothing else), so it is masked. */
export function loggedUrl(url: string): string {
  return url.replace(/(\/agents\/device-codes\/)[^/?#]+/g, '$1[redacted]');
}

/**
 * An error as a log line shows it: its type, message and stack, and the chain of its causes
 * (Temporal's failures wrap the cause that matters). Other properties are left out: client errors
 * carry connections and metadata whose references go round in circles.
 */
export function errorSummary(err: unknown, depth = 0): unknown {
  if (!(err instanceof Error)) return err;
  const typed = err as Error & { type?: unknown; code?: unknown };
  return {
    type: err.name,
    message: err.message,
    ...(typeof typed.type === 'string' ? { failureType: typed.type } : {}),
    ...(typeof typed.code === 'string' || typeof typed.code === 'number' ? { code: typed.code } : {}),
    stack: err.stack,
    ...(err.cause !== undefined && depth < 5 ? { cause: errorSummary(err.cause, depth + 1) } : {}),
  };
}

export function createLogger(destination?: pino.DestinationStream, level = process.env.LOG_LEVEL ?? 'info') {
  const options: pino.LoggerOptions = {
    level,
    base: { service: 'payments' },
    serializers: { err: errorSummary },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}

/** Structured JSON logs. Credentials and secrets are redacted wherever they could appear. */
export const logger = createLogger();

export type Logger = typeof logger;

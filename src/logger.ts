import pino from 'pino';

/** Structured JSON logs. Credentials and secrets are redacted wherever they could appear. */
export const logger = pino({
  level: process.env.LOG_LEVEL ?? 'info',
  base: { service: 'payments' },
  redact: {
    paths: ['req.headers.authorization', 'req.headers["svc-wallet-signature"]', 'clientSecret', '*.clientSecret', 'secret', '*.secret', 'masterKey', 'MASTER_KEY', 'identifier', '*.identifier'],
    censor: '[redacted]',
  },
});

export type Logger = typeof logger;

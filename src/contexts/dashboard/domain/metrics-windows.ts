/** The dashboard's chart windows, and the bucket each is drawn in: hourly for a day, daily beyond. */
export const METRICS_WINDOWS = {
  '24h': { ms: 24 * 60 * 60 * 1000, bucket: 'hour' },
  '7d': { ms: 7 * 24 * 60 * 60 * 1000, bucket: 'day' },
  '30d': { ms: 30 * 24 * 60 * 60 * 1000, bucket: 'day' },
} as const;

export type MetricsWindow = keyof typeof METRICS_WINDOWS;

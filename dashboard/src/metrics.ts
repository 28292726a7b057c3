import { decimalsOf } from './money';

/** GET /dashboard/metrics (beyond the reference): the Home page's figures. */
export type CurrencyRef = string | { code: string; decimals?: number };
export interface Metrics {
  window: string;
  balances: { currency: CurrencyRef; available: number | string; total: number | string }[];
  payments: {
    byStatus: Record<string, number> | { status: string; count: number }[];
    volume: { bucketStart: string; currency: CurrencyRef; count: number; amount: number | string }[];
  };
  webhooks: { failing: number | boolean; endpointPaused: boolean };
  approvalsWaiting: { agentActions: number; incomingPayments: number };
}

export const codeOf = (c: CurrencyRef) => (typeof c === 'string' ? c : c.code);
export const decimalsOfRef = (c: CurrencyRef) => (typeof c === 'string' ? decimalsOf(c) : (c.decimals ?? decimalsOf(c.code)));

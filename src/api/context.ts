import type { MikroORM } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import type { RequestHandler } from 'express';
import type { AbuseLimits, Config } from '../config';
import type { ContactCodeSender } from '../contexts/customers/services/contact-verification';
import type { ScaCodeSender } from '../contexts/sca';
import type { WalletAuthConfig } from '../contexts/wallet-auth/services/wallet-auth-config';
import type { ApiMetrics } from './metrics';
import type { TransactionDecider } from '../domain/transaction-decider-contract';
import type { SessionPolicy } from '../contexts/dashboard';

/** The dashboard's sessions and what it links to; defaults without it. */
export interface DashboardOptions {
  /** Idle and absolute timeouts (30 minutes, 12 hours by default). */
  session?: SessionPolicy;
  /** Temporal UI's address, for the dashboard's links to a payment's workflows; null: none. */
  temporalUiUrl?: string | null;
  temporalNamespace?: string;
  /** The built front end (dashboard/dist at the top of the checkout unless a test says otherwise). */
  distDir?: string;
}

export interface ApiDeps {
  orm: MikroORM;
  temporal: Client;
  /** `limits` defaults to DEFAULT_ABUSE_LIMITS; a test may give one app instance its own. */
  config: Pick<Config, 'masterKey' | 'apiPrefix' | 'publicBaseUrl'> & { limits?: AbuseLimits; webhookAllowLoopback?: boolean; temporalCallTimeoutMs?: number };
  /** The clock of the rate limit and the authentication lockouts (ms); tests move it by hand. */
  now?: () => number;
  taskQueue?: string;
  /** Delivers contact verification codes outside the sandbox (email / SMS provider). */
  contactCodeSender?: ContactCodeSender;
  /** Delivers SCA codes by SMS outside the sandbox. */
  scaCodeSender?: ScaCodeSender;
  /** How long a quote's SCA challenge lives (the sca context's default unless a test shortens it). */
  scaChallengeTtlMs?: number;
  /** Passkey relying party and OIDC issuers of embedded-wallet credentials; loadWalletAuthConfig's defaults without it. */
  walletAuth?: WalletAuthConfig;
  /** Prometheus metrics of requests and idempotency replays; none recorded without it. */
  metrics?: ApiMetrics;
  /** Starts a trace span per request (only when tracing is configured; see src/api/tracing.ts). */
  requestSpans?: RequestHandler;
  /** Who decides pending transactions (POST /transactions/{id}/approve, /reject); createApp gives the registered list. */
  transactionDeciders?: readonly TransactionDecider[];
  /** How long a UMA payment the platform deferred (202) waits for its decision (5 s unless a test shortens it). */
  incomingPaymentApprovalWindowMs?: number;
  dashboard?: DashboardOptions;
}

export type { Caller } from '../contexts/platforms/services/caller';

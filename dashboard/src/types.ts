import type { Money } from './money';

export interface Transaction {
  id: string;
  status: string;
  type: 'INCOMING' | 'OUTGOING' | string;
  direction?: string;
  source?: { sourceType: string; accountId?: string; currency?: string; umaAddress?: string };
  destination?: { destinationType: string; accountId?: string; currency?: string; umaAddress?: string };
  customerId?: string;
  platformCustomerId?: string;
  receivedAmount?: Money;
  sentAmount?: Money;
  reconciliationInstructions?: { reference: string };
  failureReason?: string;
  description?: string;
  settledAt?: string;
  quoteId?: string;
  agentId?: string;
  exchangeRate?: number;
  fees?: number;
  platformFees?: number;
  rateDetails?: Record<string, unknown>;
  paymentRail?: string | null;
  refund?: { reference: string; initiatedAt: string; settledAt?: string; status: string; reason?: string };
  createdAt: string;
  updatedAt: string;
}

export interface LedgerEntry {
  id: string;
  description: string;
  postedAt: string;
  postings: { accountId: string; accountKind: string; direction: 'DEBIT' | 'CREDIT'; amount: Money }[];
}

export interface WebhookEvent {
  id: string;
  type: string;
  state: string;
  resourceId?: string | null;
  createdAt: string;
  payload?: unknown;
  deliveryAttempts?: DeliveryAttempt[];
}

export interface DeliveryAttempt {
  attemptedAt: string;
  responseStatus: number | null;
  durationMs: number | null;
  error: string | null;
  outcome: string;
}

export interface InternalAccount {
  id: string;
  customerId?: string;
  type?: string;
  status?: string;
  balance: Money;
  totalBalance?: Money;
  fundingPaymentInstructions?: unknown[];
}

export interface Customer {
  id: string;
  customerType: 'INDIVIDUAL' | 'BUSINESS';
  platformCustomerId: string;
  fullName?: string;
  businessInfo?: { legalName?: string };
  email?: string;
  kycStatus?: string;
  kybStatus?: string;
  createdAt?: string;
  [k: string]: unknown;
}

export const customerName = (c: Customer) => c.fullName ?? c.businessInfo?.legalName ?? c.platformCustomerId;

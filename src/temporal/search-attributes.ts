import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/**
 * Custom search attributes support staff filter by in Temporal UI. This list is the only
 * source: the worker and the API register it on the server at start (ensureSearchAttributes),
 * so a dev server, a test server and a production cluster all get the same set. Workflows import
 * the keys, so this file must stay free of I/O.
 */
export const PlatformIdKey = defineSearchAttributeKey('PlatformId', SearchAttributeType.KEYWORD);
export const CustomerIdKey = defineSearchAttributeKey('CustomerId', SearchAttributeType.KEYWORD);
export const TransactionIdKey = defineSearchAttributeKey('TransactionId', SearchAttributeType.KEYWORD);
export const QuoteIdKey = defineSearchAttributeKey('QuoteId', SearchAttributeType.KEYWORD);
export const AccountIdKey = defineSearchAttributeKey('AccountId', SearchAttributeType.KEYWORD);
export const CardIdKey = defineSearchAttributeKey('CardId', SearchAttributeType.KEYWORD);
export const StablecoinIdKey = defineSearchAttributeKey('StablecoinId', SearchAttributeType.KEYWORD);
export const BusinessStatusKey = defineSearchAttributeKey('BusinessStatus', SearchAttributeType.KEYWORD);
export const WebhookEventTypeKey = defineSearchAttributeKey('WebhookEventType', SearchAttributeType.KEYWORD);

export const ALL_SEARCH_ATTRIBUTES = [
  PlatformIdKey,
  CustomerIdKey,
  TransactionIdKey,
  QuoteIdKey,
  AccountIdKey,
  CardIdKey,
  StablecoinIdKey,
  BusinessStatusKey,
  WebhookEventTypeKey,
];

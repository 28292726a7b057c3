import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/**
 * Custom search attributes support staff filter by in Temporal UI. The dev server registers
 * the same list from bin/lib/search-attributes.txt; keep the two in step.
 */
export const PlatformIdKey = defineSearchAttributeKey('PlatformId', SearchAttributeType.KEYWORD);
export const CustomerIdKey = defineSearchAttributeKey('CustomerId', SearchAttributeType.KEYWORD);
export const TransactionIdKey = defineSearchAttributeKey('TransactionId', SearchAttributeType.KEYWORD);
export const QuoteIdKey = defineSearchAttributeKey('QuoteId', SearchAttributeType.KEYWORD);
export const AccountIdKey = defineSearchAttributeKey('AccountId', SearchAttributeType.KEYWORD);
export const BusinessStatusKey = defineSearchAttributeKey('BusinessStatus', SearchAttributeType.KEYWORD);
export const WebhookEventTypeKey = defineSearchAttributeKey('WebhookEventType', SearchAttributeType.KEYWORD);

export const ALL_SEARCH_ATTRIBUTES = [PlatformIdKey, CustomerIdKey, TransactionIdKey, QuoteIdKey, AccountIdKey, BusinessStatusKey, WebhookEventTypeKey];

import { ApiToken } from './ApiToken';
import { ContactVerificationCode } from './ContactVerificationCode';
import { Customer } from './Customer';
import { IdempotencyRecord } from './IdempotencyRecord';
import { InternalAccount } from './InternalAccount';
import { JournalEntry } from './JournalEntry';
import { LedgerAccount } from './LedgerAccount';
import { Platform } from './Platform';
import { Posting } from './Posting';
import { SigningKey } from './SigningKey';
import { Transaction } from './Transaction';
import { WebhookEvent } from './WebhookEvent';

/** Every entity, for the ORM; import single entities from here too. */
export const entities = [ApiToken, ContactVerificationCode, Customer, IdempotencyRecord, InternalAccount, JournalEntry, LedgerAccount, Platform, Posting, SigningKey, Transaction, WebhookEvent];

export { ApiToken, ContactVerificationCode, Customer, IdempotencyRecord, InternalAccount, JournalEntry, LedgerAccount, Platform, Posting, SigningKey, Transaction, WebhookEvent };

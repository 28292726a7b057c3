import { ApiToken } from './ApiToken';
import { BeneficialOwner } from './BeneficialOwner';
import { Customer } from './Customer';
import { Document, DocumentFile } from './Document';
import { IdempotencyRecord } from './IdempotencyRecord';
import { InternalAccount } from './InternalAccount';
import { JournalEntry } from './JournalEntry';
import { KycLink } from './KycLink';
import { LedgerAccount } from './LedgerAccount';
import { Platform } from './Platform';
import { Posting } from './Posting';
import { SigningKey } from './SigningKey';
import { Transaction } from './Transaction';
import { Verification } from './Verification';
import { WebhookEvent } from './WebhookEvent';

/** Every entity, for the ORM; import single entities from here too. */
export const entities = [ApiToken, Customer, IdempotencyRecord, InternalAccount, JournalEntry, LedgerAccount, Platform, Posting, SigningKey, Transaction, WebhookEvent, BeneficialOwner, Document, DocumentFile, KycLink, Verification];

export { ApiToken, Customer, IdempotencyRecord, InternalAccount, JournalEntry, LedgerAccount, Platform, Posting, SigningKey, Transaction, WebhookEvent, BeneficialOwner, Document, DocumentFile, KycLink, Verification };

import { ApiToken } from './ApiToken';
import { BeneficialOwner } from './BeneficialOwner';
import { ContactVerificationCode } from './ContactVerificationCode';
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
export const entities = [
  ApiToken,
  BeneficialOwner,
  ContactVerificationCode,
  Customer,
  Document,
  DocumentFile,
  IdempotencyRecord,
  InternalAccount,
  JournalEntry,
  KycLink,
  LedgerAccount,
  Platform,
  Posting,
  SigningKey,
  Transaction,
  Verification,
  WebhookEvent,
];

export {
  ApiToken,
  BeneficialOwner,
  ContactVerificationCode,
  Customer,
  Document,
  DocumentFile,
  IdempotencyRecord,
  InternalAccount,
  JournalEntry,
  KycLink,
  LedgerAccount,
  Platform,
  Posting,
  SigningKey,
  Transaction,
  Verification,
  WebhookEvent,
};

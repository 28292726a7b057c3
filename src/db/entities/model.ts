// Every entity module; index.ts re-exports them and lists their classes for the ORM.
export * from './ApiToken';
export * from './BeneficialOwner';
export * from './ContactVerificationCode';
export * from './Customer';
export * from './Document';
export * from './IdempotencyRecord';
export * from './InternalAccount';
export * from './JournalEntry';
export * from './KycLink';
export * from './LedgerAccount';
export * from './Platform';
export * from './Posting';
export * from './SigningKey';
export * from './Transaction';
export * from './Verification';
export * from './WebhookEvent';

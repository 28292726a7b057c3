// The ledger context's entities.
export * from './InternalAccount';
export * from './JournalEntry';
export * from './LedgerAccount';
export * from './Posting';

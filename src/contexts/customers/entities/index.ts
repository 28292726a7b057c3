// The customers context's entities.
export * from './BeneficialOwner';
export * from './ContactVerificationCode';
export * from './Customer';
export * from './Document';
export * from './KycLink';
export * from './Verification';
export * from './BulkImport';

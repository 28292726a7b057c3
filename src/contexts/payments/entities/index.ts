// The payments context's entities.
export * from './Transaction';
export * from './Quote';
export * from './Lookup';

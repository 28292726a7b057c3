// The workflow bundle's entry point: every workflow type the worker runs, one line per context.
// This is the one list a new context adds itself to (webpack bundles it, so it cannot be found
// at run time like the other layers' parts).
export * from './customers';
export * from './payments';
export * from './webhooks';
export * from './external-accounts';
export * from './cards';
export * from './invitations';
export * from './stablecoins';
export * from './sca';

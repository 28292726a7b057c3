// The external accounts context's public face: what other contexts may use of it (its api/ stays private: what it shares of its HTTP shapes lives in schemas/).
export { primaryIdentifier } from './domain/account-identity';
export { railsInUse } from './domain/account-rails';
export { assertExternalAccountUsable } from './domain/account-usage';
export { ExternalAccount } from './entities';
export { externalAccountView } from './services/external-account-views';
// The agents' mirrors of the customer external-account operations (customer inferred from the agent).
export { ExternalAccountCreateSchema, ExternalAccountListSchema, ExternalAccountSchema } from './schemas/external-account-schemas';
export { registerExternalAccountFor } from './services/account-registration';
export {
  deleteExternalAccount,
  findExternalAccount,
  listExternalAccounts,
  type NewExternalAccount,
  registrationProblems,
  registrationProblemsOf,
} from './services/external-accounts';
// What this context adds to the registration lists (src/contexts/*.ts: stranded starts, execution gates, deciders, ledger audit).
export { strandedVerifications } from './services/stranded-verifications';
export { externalAccountsUsable } from './gates/accounts-usable';

import { Migration20261121000000_foundation } from './Migration20261121000000_foundation';
import { Migration20261121050000_onboarding_base } from './Migration20261121050000_onboarding_base';
import { Migration20261121060000_customer_profile_columns } from './Migration20261121060000_customer_profile_columns';
import { Migration20261121100000_customers } from './Migration20261121100000_customers';
import { Migration20261121200000_verification } from './Migration20261121200000_verification';
import { Migration20261121300000_contact_accounts } from './Migration20261121300000_contact_accounts';

/** Every migration, in order. Listed explicitly so that tsx, jest and compiled builds agree. */
export const migrationsList = [
  { name: 'Migration20261121000000_foundation', class: Migration20261121000000_foundation },
  { name: 'Migration20261121050000_onboarding_base', class: Migration20261121050000_onboarding_base },
  { name: 'Migration20261121060000_customer_profile_columns', class: Migration20261121060000_customer_profile_columns },
  { name: 'Migration20261121100000_customers', class: Migration20261121100000_customers },
  { name: 'Migration20261121200000_verification', class: Migration20261121200000_verification },
  { name: 'Migration20261121300000_contact_accounts', class: Migration20261121300000_contact_accounts },
];

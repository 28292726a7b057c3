import { Migration20261121000000_foundation } from './Migration20261121000000_foundation';

/** Every migration, in order. Listed explicitly so that tsx, jest and compiled builds agree. */
export const migrationsList = [
  { name: 'Migration20261121000000_foundation', class: Migration20261121000000_foundation },
];

/**
 * The directories context's pure functions, for other contexts: the institution, mobile-money
 * and VASP look-ups that validate the names clients send (`bankName`, `provider`, `vaspName`).
 */
export {
  currenciesWithInstitutionDirectory,
  currenciesWithMobileMoneyDirectory,
  discoveries,
  discoveryKey,
  findMobileMoneyProvider,
  findReceivingInstitution,
} from './institutions';
export type { Discovery, InstitutionRail, MobileMoneyProvider, ReceivingInstitution } from './institutions';
export { findVasp, vaspKey, vasps } from './vasps';
export type { VaspEntry } from './vasps';
export { umaProviderKey, umaProviders } from './uma-providers';
export type { UmaProviderFilter, UmaProviderView } from './uma-providers';
export { pageOfDirectory, wholeOrPageOfDirectory, type DirectoryPageQuery } from './directory-paging';
export { DIRECTORY_DATA_VERSION } from './data/version';

// The directories context's public face: what other contexts may use of it (its api/ stays private).
export { currenciesWithMobileMoneyDirectory, findMobileMoneyProvider, findReceivingInstitution, findVasp } from './domain';

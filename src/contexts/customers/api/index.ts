import { beneficialOwnerRoutes } from './beneficial-owner-routes';
import { bulkImportRoutes } from './bulk-import-routes';
import { contactVerificationRoutes } from './contact-verification-routes';
import { customerRoutes } from './customer-routes';
import { documentRoutes } from './document-routes';
import { verificationRoutes } from './verification-routes';
import { provideWalletOwnerContacts } from '../../wallet-auth';
import { customerContacts } from '../services/wallet-owner-contacts';

// Wallet-auth sits below customers: the API gives it the owners' contacts from here.
provideWalletOwnerContacts(customerContacts);

/** Customers and onboarding: customers, their bulk import, contact verification, owners, documents, KYC/KYB. */
export const routes = [
  ...bulkImportRoutes,
  ...customerRoutes,
  ...contactVerificationRoutes,
  ...beneficialOwnerRoutes,
  ...documentRoutes,
  ...verificationRoutes,
];

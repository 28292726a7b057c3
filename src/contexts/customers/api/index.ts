import { beneficialOwnerRoutes } from './beneficial-owner-routes';
import { bulkImportRoutes } from './bulk-import-routes';
import { contactVerificationRoutes } from './contact-verification-routes';
import { customerRoutes } from './customer-routes';
import { documentRoutes } from './document-routes';
import { verificationRoutes } from './verification-routes';

/** Customers and onboarding: customers, their bulk import, contact verification, owners, documents, KYC/KYB. */
export const routes = [
  ...bulkImportRoutes,
  ...customerRoutes,
  ...contactVerificationRoutes,
  ...beneficialOwnerRoutes,
  ...documentRoutes,
  ...verificationRoutes,
];

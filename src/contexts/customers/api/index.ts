import { beneficialOwnerRoutes } from './beneficial-owner-routes';
import { contactVerificationRoutes } from './contact-verification-routes';
import { customerRoutes } from './customer-routes';
import { documentRoutes } from './document-routes';
import { verificationRoutes } from './verification-routes';

/** Customers and onboarding: customers, contact verification, owners, documents, KYC/KYB. */
export const routes = [...customerRoutes, ...contactVerificationRoutes, ...beneficialOwnerRoutes, ...documentRoutes, ...verificationRoutes];

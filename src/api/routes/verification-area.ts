import { beneficialOwnerRoutes } from './beneficial-owners';
import { documentRoutes } from './documents';
import { verificationRoutes } from './verifications';

/** KYC/KYB: beneficial owners, documents, verifications and hosted links. */
export const verificationAreaRoutes = [...beneficialOwnerRoutes, ...documentRoutes, ...verificationRoutes];

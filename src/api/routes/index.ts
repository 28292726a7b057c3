import { configRoutes } from './config';
import { contactVerificationRoutes } from './contact-verification';
import { customerRoutes } from './customers';
import { internalAccountRoutes } from './internal-accounts';
import { sandboxRoutes } from './sandbox';
import { transactionRoutes } from './transactions';
import { verificationAreaRoutes } from './verification-area';
import { webhookRoutes } from './webhooks';

// Order matters where paths overlap: /customers/internal-accounts before /customers/:customerId.
export const allRoutes = [
  ...configRoutes,
  ...internalAccountRoutes,
  ...customerRoutes,
  ...contactVerificationRoutes,
  ...sandboxRoutes,
  ...transactionRoutes,
  ...webhookRoutes,
  ...verificationAreaRoutes,
];

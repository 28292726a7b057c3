import { invitationRoutes } from './routes';

/** UMA invitations: created for a platform's customer, claimed by an invitee, cancelled or expired. */
export const routes = [...invitationRoutes];

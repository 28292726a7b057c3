export { invitationLifecycle } from './invitation-lifecycle';

// The invitations context's entities.
export * from './Invitation';

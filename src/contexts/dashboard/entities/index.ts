// The dashboard context's entities.
export * from './DashboardAuditEntry';
export * from './DashboardSession';

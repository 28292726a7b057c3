// The dashboard context's public face: its sessions, for the API's authentication (its api/ stays private;
// routes are found by src/contexts/discover.ts).
export { cookieValue, CSRF_HEADER, DEFAULT_SESSION_POLICY, isSafeMethod, SESSION_COOKIE, type SessionPolicy } from './domain/session-policy';
export { findLiveSession, recordDashboardWrite, type LiveSession } from './services/sessions';

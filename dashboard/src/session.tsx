import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { api, ApiError, setCsrfToken, setUnauthorizedHandler } from './api';

export interface Session {
  csrfToken: string;
  platformId: string;
  tokenId: string;
  environment: 'SANDBOX' | 'PRODUCTION';
  permissions: string[];
  expiresAt: string;
  idleExpiresAt: string;
  temporalUiUrl: string | null;
  temporalNamespace: string;
}

interface SessionState {
  session: Session | null;
  /** True until the first GET session has answered (a reload re-fetches the CSRF token). */
  loading: boolean;
  /** Why the user was signed out, when it was not their doing. */
  notice: string | null;
  signIn(clientId: string, clientSecret: string): Promise<void>;
  signOut(): Promise<void>;
  can(permission: 'TRANSACT' | 'MANAGE'): boolean;
}

const SessionContext = createContext<SessionState | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<Session | null>(null);
  const [loading, setLoading] = useState(true);
  const [notice, setNotice] = useState<string | null>(null);
  const queryClient = useQueryClient();

  const adopt = useCallback(
    (s: Session | null) => {
      setCsrfToken(s?.csrfToken ?? null);
      setSession(s);
      if (!s) queryClient.clear();
    },
    [queryClient],
  );

  useEffect(() => {
    let cancelled = false;
    api<Session>('GET', '/dashboard/session', { quiet401: true })
      .then((s) => !cancelled && adopt(s))
      .catch(() => !cancelled && adopt(null))
      .finally(() => !cancelled && setLoading(false));
    return () => {
      cancelled = true;
    };
  }, [adopt]);

  useEffect(() => {
    setUnauthorizedHandler(() => {
      setNotice('Your session has ended. Sign in again.');
      adopt(null);
    });
    return () => setUnauthorizedHandler(null);
  }, [adopt]);

  const value = useMemo<SessionState>(
    () => ({
      session,
      loading,
      notice,
      async signIn(clientId, clientSecret) {
        // The secret goes out in this one request and is kept nowhere: not in state, not in storage.
        const s = await api<Session>('POST', '/dashboard/session', { body: { clientId, clientSecret }, quiet401: true });
        setNotice(null);
        adopt(s);
      },
      async signOut() {
        try {
          await api<void>('DELETE', '/dashboard/session', { quiet401: true });
        } catch (err) {
          if (!(err instanceof ApiError && err.status === 401)) throw err;
        }
        setNotice('You are signed out.');
        adopt(null);
      },
      can(permission) {
        return !!session && (session.permissions.includes(permission) || session.permissions.includes('ADMIN'));
      },
    }),
    [session, loading, notice, adopt],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside SessionProvider');
  return s;
}

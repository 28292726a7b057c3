import { useEffect, useRef, useState, type ReactNode } from 'react';
import { NavLink, Outlet } from 'react-router';
import { useSession } from '../session';
import { ErrorMessage } from './ui';

const NAV: { to: string; label: string; sandboxOnly?: boolean }[] = [
  { to: '/', label: 'Home' },
  { to: '/payments', label: 'Payments' },
  { to: '/approvals', label: 'Approvals' },
  { to: '/webhooks', label: 'Webhooks' },
  { to: '/customers', label: 'Customers' },
  { to: '/sandbox', label: 'Sandbox tools', sandboxOnly: true },
  { to: '/tokens', label: 'API tokens' },
  { to: '/agents', label: 'Agents' },
  { to: '/cards', label: 'Cards' },
  { to: '/settings', label: 'Settings' },
];

export function EnvironmentBadge({ environment }: { environment: string }) {
  return (
    <span className={`env env-${environment.toLowerCase()}`} data-testid="environment">
      {environment}
    </span>
  );
}

export function Layout() {
  const { session, signOut } = useSession();
  const [error, setError] = useState<unknown>(null);
  if (!session) return null;
  const readOnly = !session.permissions.includes('TRANSACT') && !session.permissions.includes('MANAGE');
  return (
    <div className="shell">
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <span className="brand">Payments dashboard</span>
        <EnvironmentBadge environment={session.environment} />
        <span className="muted" title={session.platformId}>
          Signed in with {session.tokenId}
          {readOnly && ' (read-only)'}
        </span>
        <button type="button" onClick={() => signOut().catch(setError)}>
          Sign out
        </button>
      </header>
      <ErrorMessage error={error} />
      <nav aria-label="Main" className="side">
        <ul>
          {NAV.filter((n) => !n.sandboxOnly || session.environment === 'SANDBOX').map((n) => (
            <li key={n.to}>
              <NavLink to={n.to} end={n.to === '/'}>
                {n.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}

/** The page's heading and title; focus moves to it on navigation so keyboard and reader users land on the page. */
export function PageTitle({ children, title }: { children: ReactNode; title: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Payments dashboard`;
    ref.current?.focus();
  }, [title]);
  return (
    <h1 ref={ref} tabIndex={-1}>
      {children}
    </h1>
  );
}

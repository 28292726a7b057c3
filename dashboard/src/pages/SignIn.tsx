import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ApiError } from '../api';
import { ErrorMessage, Field } from '../components/ui';
import { useSession } from '../session';

/**
 * Sign-in with a platform's API token. The secret lives only in this form's input until it is sent
 * once to POST /dashboard/session; the form is cleared whatever the answer.
 */
export function SignIn() {
  const { signIn, notice } = useSession();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = 'Sign in · Payments dashboard';
  }, []);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    const clientId = String(data.get('clientId') ?? '').trim();
    const clientSecret = String(data.get('clientSecret') ?? '');
    (form.elements.namedItem('clientSecret') as HTMLInputElement).value = '';
    setBusy(true);
    setError(null);
    try {
      await signIn(clientId, clientSecret);
    } catch (err) {
      setError(
        err instanceof ApiError && err.status === 401
          ? new Error('That token id and secret were not accepted.')
          : err instanceof ApiError && err.status === 429
            ? new Error('Too many failed attempts: wait a moment, then try again.')
            : err,
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <main id="main" className="signin">
      <h1 ref={heading}>Sign in to the payments dashboard</h1>
      <p>Use one of your platform's API tokens. The secret is sent once to start a session and is not kept in this browser.</p>
      {notice && <p role="status">{notice}</p>}
      <form onSubmit={(e) => void submit(e)} aria-describedby="signin-help">
        <Field label="Token id">{(id) => <input id={id} name="clientId" autoComplete="username" required autoFocus />}</Field>
        <Field label="Client secret">{(id) => <input id={id} name="clientSecret" type="password" autoComplete="current-password" required />}</Field>
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <ErrorMessage error={error} />
      </form>
      <p id="signin-help" className="muted">
        <code>npm start</code> prints a sandbox token id and secret.
      </p>
    </main>
  );
}

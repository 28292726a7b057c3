import { useId, useState, type ButtonHTMLAttributes, type ReactNode } from 'react';
import { ApiError } from '../api';
import { useSession } from '../session';

/** A write button: disabled (with the reason as its description) when the token lacks the permission. */
export function WriteButton({ permission, children, ...rest }: ButtonHTMLAttributes<HTMLButtonElement> & { permission: 'TRANSACT' | 'MANAGE' }) {
  const { can } = useSession();
  const allowed = can(permission);
  const noteId = useId();
  return (
    <>
      <button
        type="submit"
        {...rest}
        disabled={!allowed || rest.disabled}
        aria-describedby={allowed ? rest['aria-describedby'] : noteId}
        data-needs={permission}
      >
        {children}
      </button>
      {!allowed && (
        <span id={noteId} className="visually-hidden">
          Your token lacks the {permission} permission.
        </span>
      )}
    </>
  );
}

export function ErrorMessage({ error }: { error: unknown }) {
  if (!error) return null;
  if (error instanceof ApiError) {
    const fields = error.body.details?.errors ?? [];
    return (
      <div role="alert" className="error">
        <strong>{error.code ?? `HTTP ${error.status}`}</strong>: {error.message}
        {fields.length > 0 && (
          <ul>
            {fields.map((f) => (
              <li key={f.field}>
                <code>{f.field}</code>: {f.message ?? JSON.stringify(f.constraint)}
              </li>
            ))}
          </ul>
        )}
      </div>
    );
  }
  return (
    <div role="alert" className="error">
      {error instanceof Error ? error.message : String(error)}
    </div>
  );
}

export function Field({ label, children, hint }: { label: string; children: (id: string) => ReactNode; hint?: string }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children(id)}
      {hint && <small>{hint}</small>}
    </div>
  );
}

export function Status({ value }: { value: string | undefined }) {
  const tone = !value
    ? 'neutral'
    : /COMPLETED|ACTIVE|APPROVED|DELIVERED|SUCCE/.test(value)
      ? 'good'
      : /FAIL|REJECT|CANCEL|EXPIRED|CLOSED|PAUSED|DEAD/.test(value)
        ? 'bad'
        : 'wait';
  return <span className={`status status-${tone}`}>{value ?? '—'}</span>;
}

export function Loading({ what }: { what: string }) {
  return (
    <p role="status" className="muted">
      Loading {what}…
    </p>
  );
}

export function When({ at }: { at: string | null | undefined }) {
  if (!at) return <>—</>;
  const d = new Date(at);
  return <time dateTime={at}>{d.toLocaleString()}</time>;
}

/** The result of a write, said to screen readers too. */
export function Done({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="done">
      {children}
    </p>
  );
}

export function Json({ value, label }: { value: unknown; label: string }) {
  const [open, setOpen] = useState(false);
  return (
    <div>
      <button type="button" className="link" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? 'Hide' : 'Show'} {label}
      </button>
      {open && (
        <pre tabIndex={0} aria-label={label}>
          {JSON.stringify(value, null, 2)}
        </pre>
      )}
    </div>
  );
}

export function Pager({ hasMore, onNext, onFirst, atFirst }: { hasMore: boolean; onNext(): void; onFirst(): void; atFirst: boolean }) {
  return (
    <nav aria-label="Pages" className="pager">
      <button type="button" onClick={onFirst} disabled={atFirst}>
        First page
      </button>
      <button type="button" onClick={onNext} disabled={!hasMore}>
        Next page
      </button>
    </nav>
  );
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { del, get, post, type Page } from '../api';
import { PageTitle } from '../components/Layout';
import { ErrorMessage, Field, Loading, When, WriteButton } from '../components/ui';
import { POLL_MS } from '../poll';
import { useSession } from '../session';

interface Token {
  id: string;
  name: string;
  permissions: string[];
  clientId: string;
  clientSecret?: string;
  environment: string;
  createdAt: string;
}

export default function Tokens() {
  const { session } = useSession();
  const queryClient = useQueryClient();
  const tokens = useQuery({ queryKey: ['tokens'], queryFn: () => get<Page<Token>>('/tokens', { limit: 100 }), refetchInterval: POLL_MS });
  // The new secret is shown once, from this mutation's answer; it is dropped when the user dismisses it.
  const [created, setCreated] = useState<Token | null>(null);
  const create = useMutation({
    mutationFn: (body: { name: string; permissions: string[] }) => post<Token>('/tokens', body),
    onSuccess: (t) => {
      setCreated(t);
      void queryClient.invalidateQueries({ queryKey: ['tokens'] });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => del<void>(`/tokens/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['tokens'] }),
  });

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    create.mutate({ name: String(data.get('name') ?? '').trim(), permissions: data.getAll('permissions').map(String) });
  }

  return (
    <>
      <PageTitle title="API tokens">API tokens</PageTitle>
      {created && (
        <section className="card secret" aria-labelledby="h-secret">
          <h2 id="h-secret">Token {created.name} created</h2>
          <p>Copy the secret now: it is not stored and cannot be shown again.</p>
          <dl className="facts">
            <dt>Token id</dt>
            <dd>
              <code data-testid="new-token-id">{created.clientId}</code>
            </dd>
            <dt>Secret</dt>
            <dd>
              <code data-testid="new-token-secret">{created.clientSecret}</code>
            </dd>
          </dl>
          <button type="button" onClick={() => setCreated(null)}>
            I have copied it
          </button>
        </section>
      )}
      <ErrorMessage error={tokens.error} />
      {!tokens.data && !tokens.error && <Loading what="tokens" />}
      {tokens.data && (
        <table aria-label="API tokens">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Id</th>
              <th scope="col">Permissions</th>
              <th scope="col">Created</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tokens.data.data.map((t) => (
              <tr key={t.id} data-testid="token-row">
                <td>{t.name}</td>
                <td>
                  <code>{t.clientId}</code>
                </td>
                <td>{t.permissions.join(', ')}</td>
                <td>
                  <When at={t.createdAt} />
                </td>
                <td>
                  {t.id === session?.tokenId || t.clientId === session?.tokenId ? (
                    <span className="muted">this session</span>
                  ) : (
                    <form
                      onSubmit={(e) => {
                        e.preventDefault();
                        revoke.mutate(t.id);
                      }}
                    >
                      <WriteButton permission="MANAGE" disabled={revoke.isPending}>
                        Revoke<span className="visually-hidden"> {t.name}</span>
                      </WriteButton>
                    </form>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ErrorMessage error={revoke.error} />
      <section aria-labelledby="h-new-token" className="card">
        <h2 id="h-new-token">Create a token</h2>
        <form onSubmit={submit}>
          <Field label="Name">{(id) => <input id={id} name="name" required maxLength={255} />}</Field>
          <fieldset>
            <legend>Permissions</legend>
            {['VIEW', 'TRANSACT', 'MANAGE'].map((p) => (
              <label key={p} className="check">
                <input type="checkbox" name="permissions" value={p} defaultChecked={p === 'VIEW'} /> {p}
              </label>
            ))}
          </fieldset>
          <WriteButton permission="MANAGE" disabled={create.isPending}>
            Create token
          </WriteButton>
        </form>
        <ErrorMessage error={create.error} />
      </section>
    </>
  );
}

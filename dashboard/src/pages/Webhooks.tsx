import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { get, patch, post } from '../api';
import { PageTitle } from '../components/Layout';
import { Done, ErrorMessage, Field, Loading, When, WriteButton } from '../components/ui';
import { WebhookEvents, type EventFilters } from '../components/WebhookEvents';
import { useSession } from '../session';

interface PublicKey {
  environment: string;
  algorithm: string;
  signatureHeader: string;
  keys: { id: string; publicKeyPem: string; validFrom: string; validUntil: string | null }[];
}
interface TestResult {
  response_status: number;
  response_body: string;
}

export default function Webhooks() {
  const { session } = useSession();
  const queryClient = useQueryClient();
  const config = useQuery({ queryKey: ['config'], queryFn: () => get<{ webhookEndpoint?: string }>('/config') });
  const keys = useQuery({ queryKey: ['webhook-keys'], queryFn: () => get<PublicKey>('/webhooks/public-key') });
  const [filters, setFilters] = useState<EventFilters>({});

  const setEndpoint = useMutation({
    mutationFn: (url: string) => patch<{ webhookEndpoint?: string }>('/config', { webhookEndpoint: url || null }),
    onSuccess: (c) => queryClient.setQueryData(['config'], c),
  });
  const test = useMutation({ mutationFn: () => post<TestResult>(session?.environment === 'SANDBOX' ? '/sandbox/webhooks/test' : '/webhooks/test') });
  const rotate = useMutation({
    mutationFn: (overlapSeconds: number) => post<PublicKey>('/webhooks/signing-keys/rotate', { overlapSeconds }),
    onSuccess: (k) => queryClient.setQueryData(['webhook-keys'], k),
  });

  function filter(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const value = (k: string) => String(data.get(k) ?? '').trim() || undefined;
    setFilters({ type: value('type'), state: value('state'), resourceId: value('resourceId') });
  }

  return (
    <>
      <PageTitle title="Webhooks">Webhooks</PageTitle>
      <section aria-labelledby="h-endpoint" className="card">
        <h2 id="h-endpoint">Endpoint</h2>
        {config.error ? <ErrorMessage error={config.error} /> : null}
        {config.data ? (
          <form
            key={config.data.webhookEndpoint ?? ''}
            onSubmit={(e) => {
              e.preventDefault();
              setEndpoint.mutate(String(new FormData(e.currentTarget).get('url') ?? '').trim());
            }}
          >
            <Field label="Endpoint URL" hint="Setting it sends a TEST webhook; an empty value removes it.">
              {(id) => <input id={id} name="url" type="url" defaultValue={config.data.webhookEndpoint ?? ''} size={60} />}
            </Field>
            <WriteButton permission="MANAGE" disabled={setEndpoint.isPending}>
              Save endpoint
            </WriteButton>
            {setEndpoint.isSuccess && <Done>Endpoint saved.</Done>}
            {/* The destination policy's refusals, as the API gives them. */}
            <ErrorMessage error={setEndpoint.error} />
          </form>
        ) : (
          !config.error && <Loading what="the endpoint" />
        )}
        <form
          onSubmit={(e) => {
            e.preventDefault();
            test.mutate();
          }}
        >
          <WriteButton permission="MANAGE" disabled={test.isPending}>
            Send a test webhook
          </WriteButton>
        </form>
        {test.isSuccess && (
          <Done>
            The endpoint answered {test.data.response_status}
            {test.data.response_body ? `: ${test.data.response_body.slice(0, 200)}` : ''}.
          </Done>
        )}
        <ErrorMessage error={test.error} />
      </section>

      <section aria-labelledby="h-keys" className="card">
        <h2 id="h-keys">Signing keys</h2>
        <ErrorMessage error={keys.error} />
        {keys.data && (
          <>
            <p>
              {keys.data.algorithm}, header <code>{keys.data.signatureHeader}</code>
            </p>
            <table aria-label="Signing keys">
              <thead>
                <tr>
                  <th scope="col">Key</th>
                  <th scope="col">Valid from</th>
                  <th scope="col">Valid until</th>
                </tr>
              </thead>
              <tbody>
                {keys.data.keys.map((k) => (
                  <tr key={k.id} data-testid="signing-key">
                    <td>
                      <code>{k.id}</code>
                    </td>
                    <td>
                      <When at={k.validFrom} />
                    </td>
                    <td>{k.validUntil ? <When at={k.validUntil} /> : 'current'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
        <form
          onSubmit={(e) => {
            e.preventDefault();
            rotate.mutate(Number(new FormData(e.currentTarget).get('overlap') ?? 86400));
          }}
        >
          <Field label="Previous key keeps signing for (seconds)">
            {(id) => <input id={id} name="overlap" type="number" min={0} max={604800} defaultValue={86400} />}
          </Field>
          <WriteButton permission="MANAGE" disabled={rotate.isPending}>
            Rotate the signing key
          </WriteButton>
        </form>
        {rotate.isSuccess && <Done>Rotated: a new key signs from now.</Done>}
        <ErrorMessage error={rotate.error} />
      </section>

      <section aria-labelledby="h-events">
        <h2 id="h-events">Events</h2>
        <form className="filters" onSubmit={filter} aria-label="Filter webhook events">
          <Field label="Type">{(id) => <input id={id} name="type" placeholder="OUTGOING_PAYMENT.COMPLETED" />}</Field>
          <Field label="State">{(id) => <input id={id} name="state" />}</Field>
          <Field label="Resource id">{(id) => <input id={id} name="resourceId" />}</Field>
          <button type="submit">Apply filters</button>
        </form>
        <WebhookEvents filters={filters} label="Webhook events" />
      </section>
    </>
  );
}

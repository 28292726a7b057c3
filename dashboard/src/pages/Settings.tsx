import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { get, patch } from '../api';
import { PageTitle } from '../components/Layout';
import { Done, ErrorMessage, Field, Json, Loading, WriteButton } from '../components/ui';
import { decimalsOf, formatMinor } from '../money';

interface Config {
  id: string;
  name: string;
  umaDomain?: string;
  webhookEndpoint?: string;
  region: string;
  isRegulatedFinancialInstitution: boolean;
  embeddedWalletsSupported: boolean;
  counterpartyInformationRequired: boolean;
  supportedCurrencies: { currencyCode: string; minAmount: number; maxAmount: number; enabledTransactionTypes: string[] }[];
  feeConfigs: unknown[];
}

export default function Settings() {
  const queryClient = useQueryClient();
  const config = useQuery({ queryKey: ['config'], queryFn: () => get<Config>('/config') });
  const save = useMutation({
    mutationFn: (body: Partial<Config>) => patch<Config>('/config', body),
    onSuccess: (c) => queryClient.setQueryData(['config'], c),
  });
  if (config.error) return <ErrorMessage error={config.error} />;
  if (!config.data) return <Loading what="the configuration" />;
  const c = config.data;
  return (
    <>
      <PageTitle title="Settings">Settings</PageTitle>
      <dl className="facts">
        <dt>Platform</dt>
        <dd>
          {c.name} <code>{c.id}</code>
        </dd>
        <dt>Region</dt>
        <dd>{c.region}</dd>
        <dt>Regulated institution</dt>
        <dd>{c.isRegulatedFinancialInstitution ? 'yes' : 'no'}</dd>
        <dt>Embedded wallets</dt>
        <dd>{c.embeddedWalletsSupported ? 'supported' : 'not supported'}</dd>
        <dt>Counterparty information</dt>
        <dd>{c.counterpartyInformationRequired ? 'required' : 'not required'}</dd>
        <dt>Webhook endpoint</dt>
        <dd>{c.webhookEndpoint ?? 'not set'}</dd>
      </dl>
      <h2>Currencies</h2>
      <table aria-label="Supported currencies">
        <thead>
          <tr>
            <th scope="col">Currency</th>
            <th scope="col" className="num">
              Minimum
            </th>
            <th scope="col" className="num">
              Maximum
            </th>
            <th scope="col">Directions</th>
          </tr>
        </thead>
        <tbody>
          {c.supportedCurrencies.map((s) => (
            <tr key={s.currencyCode}>
              <th scope="row">{s.currencyCode}</th>
              <td className="num">{formatMinor(s.minAmount, decimalsOf(s.currencyCode))}</td>
              <td className="num">{formatMinor(s.maxAmount, decimalsOf(s.currencyCode))}</td>
              <td>{s.enabledTransactionTypes.join(', ')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Json value={c.feeConfigs} label="fee configuration" />
      <section aria-labelledby="h-uma" className="card">
        <h2 id="h-uma">UMA domain</h2>
        <form
          key={c.umaDomain ?? ''}
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate({ umaDomain: String(new FormData(e.currentTarget).get('umaDomain') ?? '').trim() });
          }}
        >
          <Field label="UMA domain">{(id) => <input id={id} name="umaDomain" defaultValue={c.umaDomain ?? ''} required />}</Field>
          <WriteButton permission="MANAGE" disabled={save.isPending}>
            Save
          </WriteButton>
        </form>
        {save.isSuccess && <Done>Saved.</Done>}
        <ErrorMessage error={save.error} />
      </section>
    </>
  );
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { newKey, post } from '../api';
import { useInternalAccounts } from '../accounts';
import { PageTitle } from '../components/Layout';
import { Done, ErrorMessage, Field, Loading, WriteButton } from '../components/ui';
import { formatMoney, parseMajor } from '../money';
import { useSession } from '../session';
import type { Customer, InternalAccount, Transaction } from '../types';

// §8: the last three digits of the destination account select what the sandbox does with a payout.
const SCENARIOS = [
  { suffix: '999', label: 'Success' },
  { suffix: '002', label: 'Quote execution fails' },
  { suffix: '004', label: 'Counterparty delivery fails' },
  { suffix: '005', label: 'Completes, then returned (PAYOUT_RETURNED)' },
  { suffix: '006', label: 'User cancellation' },
  { suffix: '007', label: 'Payout and refund fail' },
  { suffix: '008', label: 'Cancelled while processing, refunded after a minute' },
  { suffix: '003', label: 'Completes after about 6 minutes' },
];

// The sender's user name picks what happens once the platform approves an incoming UMA payment (docs/webhooks.md).
const SENDERS = [
  { address: '$sandbox.sender@sender.example.com', label: 'Credited (COMPLETED)' },
  { address: '$sandbox.sender006@sender.example.com', label: 'Not creditable: refunded to the sender (…006)' },
  { address: '$sandbox.sender007@sender.example.com', label: 'Not creditable, and the refund fails (…007)' },
];

/** A German IBAN with correct check digits (ISO 13616 mod-97) ending in the scenario's suffix. */
export function sandboxIban(suffix: string): string {
  const bban = `370400440532013${suffix}`;
  const digits = `${bban}DE00`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let remainder = 0;
  for (const d of digits) remainder = (remainder * 10 + Number(d)) % 97;
  return `DE${String(98 - remainder).padStart(2, '0')}${bban}`;
}

const accountLabel = (a: InternalAccount) => `${a.balance.currency.code} account of ${a.customerId ?? 'the platform'} (${formatMoney(a.balance)} available)`;

function AccountSelect({ id, accounts }: { id: string; accounts: InternalAccount[] }) {
  return (
    <select id={id} name="accountId" required>
      {accounts.map((a) => (
        <option key={a.id} value={a.id}>
          {accountLabel(a)}
        </option>
      ))}
    </select>
  );
}

export default function Sandbox() {
  const { session } = useSession();
  const queryClient = useQueryClient();
  const accounts = useInternalAccounts();
  const list = accounts.data?.data ?? [];
  const customerAccounts = list.filter((a) => a.customerId?.startsWith('Customer:'));
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['internal-accounts'] });

  const createCustomer = useMutation({
    mutationFn: () =>
      post<Customer>('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: `sandbox-${newKey().slice(0, 8)}`, fullName: 'Sandbox Tester' }, newKey()),
    onSuccess: refresh,
  });
  const fund = useMutation({
    mutationFn: ({ accountId, amount }: { accountId: string; amount: bigint }) =>
      post<InternalAccount>(`/sandbox/internal-accounts/${encodeURIComponent(accountId)}/fund`, { amount: Number(amount) }, newKey()),
    onSuccess: refresh,
  });
  const receive = useMutation({
    mutationFn: ({ account, amount, sender }: { account: InternalAccount; amount: bigint; sender: string }) =>
      post<Transaction>(
        '/sandbox/uma/receive',
        {
          senderUmaAddress: sender,
          customerId: account.customerId,
          receivingCurrencyCode: account.balance.currency.code,
          receivingCurrencyAmount: Number(amount),
        },
        newKey(),
      ),
    onSettled: () => {
      void refresh();
      void queryClient.invalidateQueries({ queryKey: ['transactions'] });
    },
  });
  const [payoutStep, setPayoutStep] = useState('');
  const payout = useMutation({
    mutationFn: async ({ account, amount, suffix }: { account: InternalAccount; amount: bigint; suffix: string }) => {
      setPayoutStep('adding the destination bank account');
      const bank = await post<{ id: string }>(
        '/customers/external-accounts',
        {
          customerId: account.customerId,
          currency: 'EUR',
          accountInfo: {
            accountType: 'EUR_ACCOUNT',
            iban: sandboxIban(suffix),
            beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Sandbox Payee', countryOfResidence: 'DE' },
          },
        },
        newKey(),
      );
      setPayoutStep('pricing the quote');
      const quote = await post<{ id: string; transactionId: string }>(
        '/quotes',
        {
          source: { sourceType: 'ACCOUNT', accountId: account.id },
          destination: { destinationType: 'ACCOUNT', accountId: bank.id },
          lockedCurrencySide: 'SENDING',
          lockedCurrencyAmount: Number(amount),
          description: `Sandbox payout (${suffix})`,
        },
        newKey(),
      );
      setPayoutStep('executing it');
      await post(`/quotes/${encodeURIComponent(quote.id)}/execute`, undefined, newKey());
      return quote;
    },
    onSettled: () => {
      setPayoutStep('');
      void refresh();
      void queryClient.invalidateQueries({ queryKey: ['transactions'] });
    },
  });

  if (session?.environment !== 'SANDBOX') {
    return (
      <>
        <PageTitle title="Sandbox tools">Sandbox tools</PageTitle>
        <p>Sandbox tools are for sandbox platforms only.</p>
      </>
    );
  }

  const amountOf = (form: HTMLFormElement, account?: InternalAccount) =>
    parseMajor(String(new FormData(form).get('amount') ?? ''), account?.balance.currency.decimals ?? 2);
  const accountOf = (form: HTMLFormElement) => list.find((a) => a.id === String(new FormData(form).get('accountId')));

  function submitFund(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const account = accountOf(e.currentTarget);
    const amount = amountOf(e.currentTarget, account);
    if (account && amount && amount > 0n) fund.mutate({ accountId: account.id, amount });
  }
  function submitReceive(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const account = accountOf(e.currentTarget);
    const amount = amountOf(e.currentTarget, account);
    const sender = String(new FormData(e.currentTarget).get('sender') ?? SENDERS[0]!.address);
    if (account && amount && amount > 0n) receive.mutate({ account, amount, sender });
  }
  function submitPayout(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const account = accountOf(e.currentTarget);
    const amount = amountOf(e.currentTarget, account);
    const suffix = String(new FormData(e.currentTarget).get('scenario') ?? '999');
    if (account && amount && amount > 0n) payout.mutate({ account, amount, suffix });
  }

  return (
    <>
      <PageTitle title="Sandbox tools">Sandbox tools</PageTitle>
      <p>Move play money to see the service at work: every step here is an ordinary API call of this platform's sandbox.</p>
      <section aria-labelledby="h-customer" className="card">
        <h2 id="h-customer">1. A customer</h2>
        <p>Customers get internal accounts (one per currency) when they are created.</p>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            createCustomer.mutate();
          }}
        >
          <WriteButton permission="MANAGE" disabled={createCustomer.isPending}>
            Create a test customer
          </WriteButton>
        </form>
        {createCustomer.isSuccess && (
          <Done>
            Created <Link to={`/customers/${encodeURIComponent(createCustomer.data.id)}`}>{createCustomer.data.platformCustomerId}</Link>.
          </Done>
        )}
        <ErrorMessage error={createCustomer.error} />
      </section>
      {!accounts.data && !accounts.error && <Loading what="accounts" />}
      <ErrorMessage error={accounts.error} />
      {accounts.data && list.length === 0 && <p>No internal account yet: create a test customer first.</p>}
      {list.length > 0 && (
        <>
          <section aria-labelledby="h-fund" className="card">
            <h2 id="h-fund">2. Fund an account (an incoming payment)</h2>
            <form onSubmit={submitFund}>
              <Field label="Account">{(id) => <AccountSelect id={id} accounts={list} />}</Field>
              <Field label="Amount" hint="In the account's currency, e.g. 1000.00">
                {(id) => <input id={id} name="amount" inputMode="decimal" defaultValue="1000.00" required pattern="\d+(\.\d+)?" />}
              </Field>
              <WriteButton permission="TRANSACT" disabled={fund.isPending}>
                Fund the account
              </WriteButton>
            </form>
            {fund.isSuccess && <Done>Funded: {formatMoney(fund.data.balance)} available.</Done>}
            <ErrorMessage error={fund.error} />
          </section>
          <section aria-labelledby="h-receive" className="card">
            <h2 id="h-receive">3. Receive a payment from a UMA sender</h2>
            <p>A sandbox sender pays one of your customers by UMA; your webhook endpoint is asked to approve it first (without an endpoint it is approved).</p>
            <form onSubmit={submitReceive}>
              <Field label="To account">{(id) => <AccountSelect id={id} accounts={customerAccounts} />}</Field>
              <Field label="Amount" hint="In the account's currency, e.g. 25.00">
                {(id) => <input id={id} name="amount" inputMode="decimal" defaultValue="25.00" required pattern="\d+(\.\d+)?" />}
              </Field>
              <Field label="Sender">
                {(id) => (
                  <select id={id} name="sender" defaultValue={SENDERS[0]!.address}>
                    {SENDERS.map((s) => (
                      <option key={s.address} value={s.address}>
                        {s.label}: {s.address}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              <WriteButton permission="TRANSACT" disabled={receive.isPending}>
                Receive the payment
              </WriteButton>
            </form>
            {receive.isSuccess && (
              <Done>
                Received: the payment is {receive.data.status}
                {receive.data.status === 'PENDING' ? ' (decide it in Approvals)' : ''}.{' '}
                <Link to={`/payments/${encodeURIComponent(receive.data.id)}`}>Open the incoming payment</Link>.
              </Done>
            )}
            <ErrorMessage error={receive.error} />
          </section>
          <section aria-labelledby="h-payout" className="card">
            <h2 id="h-payout">4. Send a payout</h2>
            <p>To a new EUR bank account of the same customer, whose IBAN ends in the scenario's digits.</p>
            <form onSubmit={submitPayout}>
              <Field label="From account">{(id) => <AccountSelect id={id} accounts={customerAccounts} />}</Field>
              <Field label="Amount" hint="In the source account's currency; at least 5.00">
                {(id) => <input id={id} name="amount" inputMode="decimal" defaultValue="100.00" required pattern="\d+(\.\d+)?" />}
              </Field>
              <Field label="Scenario">
                {(id) => (
                  <select id={id} name="scenario" defaultValue="999">
                    {SCENARIOS.map((s) => (
                      <option key={s.suffix} value={s.suffix}>
                        {s.label} (…{s.suffix})
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              <WriteButton permission="TRANSACT" disabled={payout.isPending}>
                Send the payout
              </WriteButton>
            </form>
            {payoutStep && <p role="status">Working: {payoutStep}…</p>}
            {payout.isSuccess && (
              <Done>
                Payout sent: <Link to={`/payments/${encodeURIComponent(payout.data.transactionId)}`}>follow the payment</Link>.
              </Done>
            )}
            <ErrorMessage error={payout.error} />
          </section>
        </>
      )}
    </>
  );
}

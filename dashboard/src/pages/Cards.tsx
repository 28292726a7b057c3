import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { patch } from '../api';
import { PageTitle } from '../components/Layout';
import { SimpleList } from '../components/SimpleList';
import { ErrorMessage } from '../components/ui';
import { useSession } from '../session';

interface Card {
  id: string;
  cardholderId?: string;
  last4?: string;
  brand?: string;
  form?: string;
  state?: string;
  createdAt?: string;
}

type CardAction = { label: string; state: 'ACTIVE' | 'FROZEN' | 'CLOSED' };

/** What PATCH /cards/{id} allows from a state: ACTIVE ⇄ FROZEN, either → CLOSED; nothing from PENDING_KYC, PROCESSING or CLOSED. */
export function cardActions(state: string | undefined): CardAction[] {
  if (state === 'ACTIVE')
    return [
      { label: 'Freeze', state: 'FROZEN' },
      { label: 'Close', state: 'CLOSED' },
    ];
  if (state === 'FROZEN')
    return [
      { label: 'Unfreeze', state: 'ACTIVE' },
      { label: 'Close', state: 'CLOSED' },
    ];
  return [];
}

const cardName = (c: Card) => `${c.brand ?? ''} ${c.last4 ? `•••• ${c.last4}` : c.id}`.trim();

/** The card's actions; closing, which cannot be undone, asks once more. Hidden from a token that may not make them. */
function CardActions({ card }: { card: Card }) {
  const queryClient = useQueryClient();
  const [closing, setClosing] = useState(false);
  const change = useMutation({
    mutationFn: (state: CardAction['state']) => patch<Card>(`/cards/${encodeURIComponent(card.id)}`, { state }),
    onSettled: () => {
      setClosing(false);
      void queryClient.invalidateQueries({ queryKey: ['/cards'] });
    },
  });
  const actions = cardActions(card.state);
  if (actions.length === 0) return <>—</>;
  return (
    <div className="row">
      {actions.map((a) =>
        a.state === 'CLOSED' && closing ? (
          <button key={a.label} type="button" autoFocus disabled={change.isPending} onClick={() => change.mutate('CLOSED')}>
            Confirm closing<span className="visually-hidden"> {cardName(card)}</span>
          </button>
        ) : (
          <button key={a.label} type="button" disabled={change.isPending} onClick={() => (a.state === 'CLOSED' ? setClosing(true) : change.mutate(a.state))}>
            {a.label}
            <span className="visually-hidden"> {cardName(card)}</span>
          </button>
        ),
      )}
      <ErrorMessage error={change.error} />
    </div>
  );
}

export default function Cards() {
  const { can } = useSession();
  return (
    <>
      <PageTitle title="Cards">Cards</PageTitle>
      <SimpleList<Card>
        path="/cards"
        label="Cards"
        status={(c) => c.state}
        columns={[
          { label: 'Card', value: cardName },
          { label: 'Form', value: (c) => c.form ?? '—' },
          {
            label: 'Cardholder',
            value: (c) => (c.cardholderId ? <Link to={`/customers/${encodeURIComponent(c.cardholderId)}`}>{c.cardholderId}</Link> : '—'),
          },
          // PATCH /cards/{id} needs MANAGE: a token without it is not offered the actions at all.
          ...(can('MANAGE') ? [{ label: 'Actions', value: (c: Card) => <CardActions card={c} /> }] : []),
        ]}
      />
    </>
  );
}

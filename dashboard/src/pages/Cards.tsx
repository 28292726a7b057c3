import { Link } from 'react-router';
import { PageTitle } from '../components/Layout';
import { SimpleList } from '../components/SimpleList';

interface Card {
  id: string;
  cardholderId?: string;
  last4?: string;
  brand?: string;
  form?: string;
  status?: string;
  createdAt?: string;
}

export default function Cards() {
  return (
    <>
      <PageTitle title="Cards">Cards</PageTitle>
      <SimpleList<Card>
        path="/cards"
        label="Cards"
        columns={[
          { label: 'Card', value: (c) => `${c.brand ?? ''} ${c.last4 ? `•••• ${c.last4}` : c.id}`.trim() },
          { label: 'Form', value: (c) => c.form ?? '—' },
          {
            label: 'Cardholder',
            value: (c) => (c.cardholderId ? <Link to={`/customers/${encodeURIComponent(c.cardholderId)}`}>{c.cardholderId}</Link> : '—'),
          },
        ]}
      />
    </>
  );
}

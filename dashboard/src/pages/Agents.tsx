import { Link } from 'react-router';
import { PageTitle } from '../components/Layout';
import { SimpleList } from '../components/SimpleList';

interface Agent {
  id: string;
  name?: string;
  customerId?: string;
  isPaused?: boolean;
  isConnected?: boolean;
  status?: string;
  createdAt?: string;
}

export default function Agents() {
  return (
    <>
      <PageTitle title="Agents">Agents</PageTitle>
      <p>
        Actions waiting for the platform's decision are on the <Link to="/approvals">Approvals</Link> page.
      </p>
      <SimpleList<Agent>
        path="/agents"
        label="Agents"
        columns={[
          { label: 'Name', value: (a) => a.name ?? a.id },
          { label: 'Customer', value: (a) => (a.customerId ? <Link to={`/customers/${encodeURIComponent(a.customerId)}`}>{a.customerId}</Link> : '—') },
          { label: 'Paused', value: (a) => (a.isPaused ? 'yes' : 'no') },
          { label: 'Connected', value: (a) => (a.isConnected ? 'yes' : 'no') },
        ]}
      />
    </>
  );
}

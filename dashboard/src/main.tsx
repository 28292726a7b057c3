import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, Suspense, lazy } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { ApiError } from './api';
import { Layout } from './components/Layout';
import { Loading } from './components/ui';
import { SignIn } from './pages/SignIn';
import { SessionProvider, useSession } from './session';
import './styles.css';

// Pages are loaded on first visit: the first load carries the shell and sign-in only.
const Home = lazy(() => import('./pages/Home'));
const Payments = lazy(() => import('./pages/Payments'));
const Payment = lazy(() => import('./pages/Payment'));
const Approvals = lazy(() => import('./pages/Approvals'));
const Webhooks = lazy(() => import('./pages/Webhooks'));
const Customers = lazy(() => import('./pages/Customers'));
const Customer = lazy(() => import('./pages/Customer'));
const Sandbox = lazy(() => import('./pages/Sandbox'));
const Tokens = lazy(() => import('./pages/Tokens'));
const Agents = lazy(() => import('./pages/Agents'));
const Cards = lazy(() => import('./pages/Cards'));
const Settings = lazy(() => import('./pages/Settings'));

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (count, err) => !(err instanceof ApiError && err.status < 500) && count < 2,
      refetchOnWindowFocus: true,
      staleTime: 2_000,
    },
  },
});

function Routed() {
  const { session, loading } = useSession();
  if (loading) return <Loading what="your session" />;
  if (!session) return <SignIn />;
  return (
    <Suspense fallback={<Loading what="the page" />}>
      <Routes>
        <Route element={<Layout />}>
          <Route index element={<Home />} />
          <Route path="payments" element={<Payments />} />
          <Route path="payments/:id" element={<Payment />} />
          <Route path="approvals" element={<Approvals />} />
          <Route path="webhooks" element={<Webhooks />} />
          <Route path="customers" element={<Customers />} />
          <Route path="customers/:id" element={<Customer />} />
          <Route path="sandbox" element={<Sandbox />} />
          <Route path="tokens" element={<Tokens />} />
          <Route path="agents" element={<Agents />} />
          <Route path="cards" element={<Cards />} />
          <Route path="settings" element={<Settings />} />
          <Route path="*" element={<Navigate to="/" replace />} />
        </Route>
      </Routes>
    </Suspense>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter basename="/dashboard">
        <SessionProvider>
          <Routed />
        </SessionProvider>
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);

import { useQuery } from '@tanstack/react-query';
import { get, type Page } from './api';
import { POLL_MS } from './poll';
import type { InternalAccount } from './types';

/** Every internal account of the platform's customers (first 100), refreshed with the lists. */
export function useInternalAccounts(customerId?: string) {
  return useQuery({
    queryKey: ['internal-accounts', customerId ?? null],
    queryFn: () => get<Page<InternalAccount>>('/customers/internal-accounts', { customerId, limit: 100 }),
    refetchInterval: POLL_MS,
  });
}

import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Toaster } from '@/components/ui/toaster';
import { ApiError } from '@/lib/api-client';
import { toastError } from '@/lib/toast';

declare module '@tanstack/react-query' {
  interface Register {
    /** `errorToast`: the spec's description for a failed load (e.g. 'Failed to fetch rides'), shown as 'Error'. */
    queryMeta: { errorToast?: string };
  }
}

export function createQueryClient() {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (_err, query) => {
        const description = query.meta?.errorToast;
        if (description) toastError('Error', description);
      },
    }),
    mutationCache: new MutationCache(),
    defaultOptions: {
      queries: {
        retry: (count, err) => !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 2,
        refetchOnWindowFocus: false,
      },
    },
  });
}

export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(createQueryClient);
  return (
    <QueryClientProvider client={client}>
      {children}
      <Toaster />
    </QueryClientProvider>
  );
}

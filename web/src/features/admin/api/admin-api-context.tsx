import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { useConfig } from '#web/lib/config-context.tsx';
import { useApiClient } from '#web/lib/use-clients.ts';
import { createQuicksightAdminApi, createUserAdminApi, type AdminApi } from './admin-api.ts';

export const AdminApiContext = createContext<AdminApi | null>(null);

/** The two management functions, called with the signed-in admin's access token. */
export function AdminApiProvider({ children }: { readonly children: ReactNode }) {
  const client = useApiClient();
  const { functions } = useConfig();
  const api = useMemo<AdminApi>(
    () => ({
      quicksight: createQuicksightAdminApi(client, functions.quicksightAdmin),
      users: createUserAdminApi(client, functions.userAdmin),
    }),
    [client, functions.quicksightAdmin, functions.userAdmin],
  );
  return <AdminApiContext.Provider value={api}>{children}</AdminApiContext.Provider>;
}

export function useAdminApi(): AdminApi {
  const api = useContext(AdminApiContext);
  if (!api) throw new Error('useAdminApi must be used within an AdminApiProvider');
  return api;
}

import { useCallback } from 'react';
import type { QuicksightAdminApi } from './api/admin-api.ts';
import { useAdminApi } from './api/admin-api-context.tsx';
import { useResource, type Resource } from '#web/lib/use-resource.ts';

export type CompanyList = Awaited<ReturnType<QuicksightAdminApi['listCompanies']>>;

/** LIST_COMPANIES, loaded on mount: the companies and the last company-access check. */
export function useCompanyList(): Resource<CompanyList> {
  const api = useAdminApi();
  const load = useCallback(() => api.quicksight.listCompanies(), [api]);
  return useResource(load);
}

/** The names a company control offers: undefined while loading, with the failure of the load. */
export interface CompanyChoices {
  readonly names: readonly string[] | undefined;
  readonly error: unknown;
}

export const companyChoicesOf = (list: Resource<CompanyList>): CompanyChoices => ({
  names: list.data?.companies.map((company) => company.name),
  error: list.error,
});

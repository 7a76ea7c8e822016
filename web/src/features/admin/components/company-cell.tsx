import { userCompaniesText } from '../companies.ts';

/** A user's company in a user list: 'Acme', 'Owner: Acme, Globex' for an owner account, or 'No company'. */
export function CompanyCell({ companies, owner }: { readonly companies: readonly string[]; readonly owner: boolean }) {
  const text = userCompaniesText({ companies, owner });
  return (
    <span className={companies.length === 0 ? 'truncate text-muted' : 'truncate'} title={text}>
      {text}
    </span>
  );
}

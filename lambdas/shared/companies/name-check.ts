import { type AccessDifference, nameSplitsInRules } from '#contracts/companies.ts';
import type { CompanyItem } from '../data/companies.ts';

/**
 * Company names the row-level-security rules read as several companies: a name with a comma or
 * a double quote, made before the portal refused them (contracts/companies.ts). Its rule grants
 * the rows of each part, so the users of such a company may see another company's rows. The
 * company-access check reports each one; only an administrator's rename mends it.
 */

export const NAME_SPLITS_NOT_MENDED =
  'Only a rename mends it: rename the company on the Companies tab to a name without a comma or a double quote';

/** The values QuickSight reads in a rule's company (commas separate them, double quotes only wrap). */
const valuesRead = (name: string): string[] =>
  name
    .split(',')
    .map((part) => part.replaceAll('"', '').trim())
    .filter((part) => part !== '');

export const nameDifferences = (companies: readonly CompanyItem[]): AccessDifference[] => {
  const names = new Set(companies.map((company) => company.name.toLowerCase()));
  return companies
    .filter((company) => nameSplitsInRules(company.name))
    .map((company) => {
      const values = valuesRead(company.name);
      const others = values.filter(
        (value) => value.toLowerCase() !== company.name.toLowerCase() && names.has(value.toLowerCase()),
      );
      return {
        kind: 'name-splits',
        company: company.name,
        subject: null,
        expected: 'a name without a comma or a double quote',
        found:
          `QuickSight reads its rule as ${values.length === 1 ? '1 company' : `${values.length} companies`}` +
          ` (${values.join('; ')})` +
          (others.length > 0 ? `, granting the rows of ${others.join(', ')}` : ''),
      };
    });
};

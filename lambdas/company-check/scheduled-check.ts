import { checkCompanyAccess } from '../shared/companies/check.ts';
import { saveLastCheck } from '../shared/data/companies.ts';

/** Runs the check without mending anything and keeps its result for the Companies tab. */
export const runScheduledCheck = async (checkedBy: string): Promise<Awaited<ReturnType<typeof checkCompanyAccess>>> => {
  const check = await checkCompanyAccess({ fix: false, checkedBy });
  await saveLastCheck(check);
  return check;
};

import { useCallback, useEffect, useState } from 'react';
import type { DashboardExperience } from 'amazon-quicksight-embedding-sdk';

/** The parameter a dashboard declares when it can be narrowed to some of the reader's companies. */
export const COMPANY_PARAMETER = 'company';

export type ToolbarAction = 'print' | 'reset' | 'undo' | 'redo';

/**
 * The values the portal sends for a company choice: the chosen company, or every company of
 * the owner (`''`). Anything that is not one of the owner's companies is never sent.
 */
export function companyValues(choice: string, companies: readonly string[]): string[] | undefined {
  if (companies.length === 0) return undefined;
  if (choice === '') return [...companies];
  return companies.includes(choice) ? [choice] : undefined;
}

const sameValues = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().every((v, i) => v === [...b].sort()[i]);

/**
 * The embedded dashboard's actions for the toolbar, and the company choice applied through the
 * SDK's setParameters where the dashboard declares a `company` parameter (row-level security
 * already limits the rows to the owner's companies; the choice narrows within them).
 */
export function useDashboardExperience(companies: readonly string[], companyChoice: string, contentLoaded: boolean) {
  const [experience, setExperience] = useState<DashboardExperience | null>(null);
  // Which experience declared the parameter: a new frame has to say so again.
  const [declaredBy, setDeclaredBy] = useState<DashboardExperience | null>(null);

  useEffect(() => {
    if (!experience || !contentLoaded) return;
    let active = true;
    void (async () => {
      let parameters;
      try {
        parameters = await experience.getParameters();
      } catch {
        return;
      }
      const company = parameters.find((parameter) => parameter.Name === COMPANY_PARAMETER);
      if (!active) return;
      setDeclaredBy(company !== undefined ? experience : null);
      const values = companyValues(companyChoice, companies);
      // Applied only when the frame shows something else: setting it reloads the frame's content.
      if (!company || !values || sameValues(company.Values.map(String), values)) return;
      if (companyChoice === '' && company.Values.length === 0) return;
      await experience.setParameters([{ Name: COMPANY_PARAMETER, Values: values }]).catch(() => undefined);
    })();
    return () => {
      active = false;
    };
  }, [experience, contentLoaded, companies, companyChoice]);

  const run = useCallback(
    (action: ToolbarAction) => {
      if (!experience) return;
      const calls: Record<ToolbarAction, () => Promise<unknown>> = {
        print: () => experience.initiatePrint(),
        reset: () => experience.reset(),
        undo: () => experience.undo(),
        redo: () => experience.redo(),
      };
      // An action the frame cannot take (nothing to undo) changes nothing.
      void calls[action]().catch(() => undefined);
    },
    [experience],
  );

  const ready = experience !== null && contentLoaded;
  return { ready, hasCompanyParameter: ready && declaredBy === experience, setExperience, run };
}

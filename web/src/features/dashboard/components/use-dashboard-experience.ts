import { useCallback, useEffect, useRef, useState } from 'react';
import type { DashboardExperience } from 'amazon-quicksight-embedding-sdk';

/** The parameter a dashboard declares when it can be narrowed to some of the reader's companies. */
const COMPANY_PARAMETER = 'company';

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

/** An SDK answer that says the frame did not do it (`{ success: false }`). */
const isRefusal = (answer: unknown) =>
  typeof answer === 'object' && answer !== null && (answer as { success?: unknown }).success === false;

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
  // The SDK does not say whether the frame can undo or redo: the portal counts the changes the
  // frame reports, and the frame's answer to Undo or Redo corrects the count ('nothing to undo').
  const [history, setHistory] = useState({ undo: 0, redo: 0 });
  // The frame reports the change an Undo, Redo or Reset makes: that report is not a new change.
  const ownChange = useRef(false);

  const attach = useCallback((next: DashboardExperience | null) => {
    setExperience(next);
    setHistory({ undo: 0, redo: 0 });
    ownChange.current = false;
  }, []);

  const changed = useCallback(() => {
    if (ownChange.current) {
      ownChange.current = false;
      return;
    }
    setHistory((current) => ({ undo: current.undo + 1, redo: 0 }));
  }, []);

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

  /** The frame had nothing to undo (or redo): the button goes off. */
  const refused = useCallback((action: ToolbarAction) => {
    ownChange.current = false;
    if (action === 'undo') setHistory((current) => ({ undo: 0, redo: Math.max(current.redo - 1, 0) }));
    if (action === 'redo') setHistory((current) => ({ undo: Math.max(current.undo - 1, 0), redo: 0 }));
  }, []);

  const run = useCallback(
    (action: ToolbarAction) => {
      if (!experience) return;
      const calls: Record<ToolbarAction, () => Promise<unknown>> = {
        print: () => experience.initiatePrint(),
        reset: () => experience.reset(),
        undo: () => experience.undo(),
        redo: () => experience.redo(),
      };
      if (action === 'print') {
        void calls.print().catch(() => undefined);
        return;
      }
      ownChange.current = true;
      if (action === 'reset') setHistory({ undo: 0, redo: 0 });
      const step = action === 'undo' ? { undo: -1, redo: 1 } : action === 'redo' ? { undo: 1, redo: -1 } : null;
      if (step) setHistory((current) => ({ undo: current.undo + step.undo, redo: current.redo + step.redo }));
      void calls[action]().then(
        (answer) => {
          if (isRefusal(answer)) refused(action);
        },
        () => refused(action),
      );
    },
    [experience, refused],
  );

  const ready = experience !== null && contentLoaded;
  return {
    ready,
    canUndo: ready && history.undo > 0,
    canRedo: ready && history.redo > 0,
    hasCompanyParameter: ready && declaredBy === experience,
    setExperience: attach,
    changed,
    run,
  };
}

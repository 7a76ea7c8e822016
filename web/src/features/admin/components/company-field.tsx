import { useId } from 'react';
import { Checkbox } from '#web/components/checkbox.tsx';
import { Select } from '#web/components/select.tsx';
import type { UserCompanies } from '../api/admin-api.ts';
import { COMPANY_TEXTS } from '../companies.ts';
import { failureText } from '../errors.ts';
import type { CompanyChoices } from '../use-companies.ts';
import './company-field.css';

export interface CompanyFieldProps {
  readonly value: UserCompanies;
  readonly onChange: (value: UserCompanies) => void;
  readonly choices: CompanyChoices;
  /** Offers the owner checkbox, which lets the account hold several companies. */
  readonly allowOwner: boolean;
  /** Why the choice cannot be saved, shown under the control. */
  readonly error?: string | null | undefined;
}

/** The names on offer: the companies, and the account's own even when the list has not (yet) got them. */
function offeredNames(choices: CompanyChoices, chosen: readonly string[]): string[] {
  const names = [...(choices.names ?? [])];
  const known = new Set(names.map((name) => name.toLowerCase()));
  for (const name of chosen) if (!known.has(name.toLowerCase())) names.push(name);
  return names;
}

const loadHint = (choices: CompanyChoices) =>
  choices.error !== null && choices.error !== undefined
    ? `${COMPANY_TEXTS.loadChoicesFailed}: ${failureText(choices.error, 'please try again')}`
    : choices.names === undefined
      ? 'Loading companies...'
      : undefined;

/**
 * A user's company: a select of the companies; for an owner account (the checkbox) one
 * checkbox per company, as it may hold several. The list of checkboxes also stays while a
 * non-owner has several chosen, with the error, so that nothing is dropped unseen.
 */
export function CompanyField({ value, onChange, choices, allowOwner, error }: CompanyFieldProps) {
  const groupId = useId();
  const errorId = `${groupId}-error`;
  const names = offeredNames(choices, value.companies);
  const unavailable = choices.names === undefined;
  const hint = loadHint(choices);
  const several = value.owner || value.companies.length > 1;
  const chosen = new Set(value.companies.map((name) => name.toLowerCase()));

  const toggle = (name: string, on: boolean) =>
    onChange({
      ...value,
      companies: on
        ? [...value.companies, name]
        : value.companies.filter((other) => other.toLowerCase() !== name.toLowerCase()),
    });

  return (
    <div className="company-field stack-tight">
      {several ? (
        <fieldset
          className="company-choices"
          aria-describedby={error ? errorId : undefined}
          aria-invalid={error ? true : undefined}
        >
          <legend className="field-label">Companies</legend>
          <ul className="company-options">
            {names.map((name) => (
              <li key={name}>
                <Checkbox
                  label={name}
                  checked={chosen.has(name.toLowerCase())}
                  disabled={unavailable}
                  onChange={(event) => toggle(name, event.target.checked)}
                />
              </li>
            ))}
          </ul>
          <span className="field-hint">{hint ?? `${value.companies.length.toLocaleString()} selected`}</span>
          {error && (
            <p id={errorId} className="field-error" role="alert">
              {error}
            </p>
          )}
        </fieldset>
      ) : (
        <>
          <Select
            label="Company"
            value={value.companies[0] ?? ''}
            disabled={unavailable}
            options={[
              { value: '', label: COMPANY_TEXTS.noCompany },
              ...names.map((name) => ({ value: name, label: name })),
            ]}
            onChange={(event) => onChange({ ...value, companies: event.target.value ? [event.target.value] : [] })}
            error={error ?? undefined}
          />
          {hint && <span className="field-hint">{hint}</span>}
        </>
      )}
      {allowOwner && (
        <Checkbox
          label={COMPANY_TEXTS.ownerCheckbox}
          checked={value.owner}
          onChange={(event) => onChange({ ...value, owner: event.target.checked })}
          hint="A private-equity owner sees the rows of each company of its portfolio."
        />
      )}
    </div>
  );
}

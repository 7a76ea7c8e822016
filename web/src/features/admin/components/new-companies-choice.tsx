import { COMPANY_KINDS, type CompanyKind } from '#contracts/companies.ts';
import { Checkbox } from '#web/components/checkbox.tsx';
import { Select } from '#web/components/select.tsx';
import { KIND_OPTIONS } from '../companies.ts';
import './new-companies-choice.css';

export interface NewCompaniesDecision {
  readonly create: boolean;
  readonly kind: CompanyKind;
}

export const createCompaniesLabel = (count: number) => `Create ${count} new ${count === 1 ? 'company' : 'companies'}`;

export interface NewCompaniesChoiceProps {
  /** The names of the file that no company has yet. */
  readonly names: readonly string[];
  readonly value: NewCompaniesDecision;
  readonly onChange: (value: NewCompaniesDecision) => void;
  readonly disabled: boolean;
}

const isKind = (value: string): value is CompanyKind => (COMPANY_KINDS as readonly string[]).includes(value);

/**
 * The companies an import would create, listed by name, with their kind and the admin's
 * confirmation; without it the rows naming them are skipped.
 */
export function NewCompaniesChoice({ names, value, onChange, disabled }: NewCompaniesChoiceProps) {
  return (
    <fieldset className="new-companies">
      <legend className="field-label">New companies</legend>
      <p className="text-muted">
        These companies do not exist yet. Create them to import their rows; otherwise those rows are skipped.
      </p>
      <ul className="new-companies-list">
        {names.map((name) => (
          <li key={name}>{name}</li>
        ))}
      </ul>
      <Select
        label="Kind of the new companies"
        options={KIND_OPTIONS}
        value={value.kind}
        disabled={disabled}
        onChange={(event) => isKind(event.target.value) && onChange({ ...value, kind: event.target.value })}
      />
      <Checkbox
        label={createCompaniesLabel(names.length)}
        checked={value.create}
        disabled={disabled}
        onChange={(event) => onChange({ ...value, create: event.target.checked })}
      />
    </fieldset>
  );
}

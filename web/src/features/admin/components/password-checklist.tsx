import { PASSWORD_REQUIREMENTS } from '#contracts/fields.ts';
import { cx } from '#web/components/class-names.ts';
import './password-checklist.css';

/** The password requirements, each marked as met or not while the password is typed. */
export function PasswordChecklist({ id, password }: { readonly id: string; readonly password: string }) {
  return (
    <ul id={id} className="password-checklist" aria-label="Password requirements">
      {PASSWORD_REQUIREMENTS.map((requirement) => {
        const met = requirement.test(password);
        return (
          <li key={requirement.label} className={cx('password-requirement', met && 'is-met')} data-met={met}>
            <span aria-hidden="true" className="password-requirement-mark">
              {met ? '✓' : '○'}
            </span>
            {requirement.label}
            <span className="visually-hidden">{met ? ' (met)' : ' (not met)'}</span>
          </li>
        );
      })}
    </ul>
  );
}

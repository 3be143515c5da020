import { useId } from 'react';
import { useTranslation } from 'react-i18next';

/** A new-password input whose hint describes it (outside its label, so the label stays short). */
export function NewPasswordField({ label, name = 'password', autoFocus }: { label: string; name?: string; autoFocus?: boolean }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className="input"
        name={name}
        type="password"
        autoComplete="new-password"
        minLength={8}
        required
        autoFocus={autoFocus}
        aria-describedby={`${id}-hint`}
      />
      <span id={`${id}-hint`} className="hint">
        {t('auth.passwordHint')}
      </span>
    </div>
  );
}

import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiKeysSection } from './ApiKeysSection';
import { CalendarFeedsSection } from './CalendarFeedsSection';
import { PasswordSection } from './PasswordSection';
import { ProfileSection } from './ProfileSection';
import './settings.css';

/** The account's own settings: profile, password and API keys, each saved on its own. */
export function SettingsPage() {
  const { t } = useTranslation();
  return (
    <div className="settings">
      <div className="settings-inner">
        <h1 className="settings-title">{t('settings.title')}</h1>
        <ProfileSection />
        <PasswordSection />
        <ApiKeysSection />
        <CalendarFeedsSection />
      </div>
    </div>
  );
}

/** One settings block: its heading and a line about it beside (or above, when narrow) its form. */
export function SettingsSection({
  id,
  title,
  intro,
  children,
}: {
  id: string;
  title: string;
  intro: string;
  children: ReactNode;
}) {
  return (
    <section className="settings-section" aria-labelledby={id}>
      <div className="settings-aside">
        <h2 id={id}>{title}</h2>
        <p className="hint">{intro}</p>
      </div>
      <div className="settings-card">{children}</div>
    </section>
  );
}

/** The outcome of a form: a note when it worked, the error when it did not. */
export function Feedback({ note, error }: { note: string | null; error: string | null }) {
  return (
    <>
      <div role="status" aria-live="polite">
        {note && !error && <div className="form-note">{note}</div>}
      </div>
      {error && (
        <div className="form-error" role="alert">
          {error}
        </div>
      )}
    </>
  );
}

import { useTranslation } from 'react-i18next';
import type { Card, RepeatEvery } from '../../api/types';
import type { CardPatch } from './api';

const REMINDERS = [0, 15, 60, 1440, 2880, 10080] as const;
const REPEATS: RepeatEvery[] = ['day', 'week', 'twoWeeks', 'month', 'year'];

/** `datetime-local` works in local time without a zone; the API speaks UTC ISO strings. */
function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

interface Props {
  card: Card;
  writeAccess: boolean;
  onChange: (patch: CardPatch) => void;
}

/** The due date, the reminders before it and the rhythm it repeats in. */
export function DatesField({ card, writeAccess, onChange }: Props) {
  const { t } = useTranslation();
  const reminders = card.reminders ?? [];
  return (
    <div className="dates-field">
      <label className="field field-tight">
        <span>{t('card.dueDate')}</span>
        <div className="row">
          <input
            type="datetime-local"
            className="input input-sm due-input"
            value={toLocalInput(card.dueDate)}
            disabled={!writeAccess}
            onChange={(e) => {
              if (!e.target.value) return;
              onChange({ dueDate: new Date(e.target.value).toISOString() });
            }}
          />
          {card.dueDate && writeAccess && (
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              onClick={() => onChange({ dueDate: null, repeatEvery: null })}
              aria-label={t('card.clearDue')}
            >
              {t('card.clear')}
            </button>
          )}
        </div>
      </label>

      <label className="field field-tight">
        <span>{t('card.repeatLabel')}</span>
        <select
          className="select input-sm"
          value={card.repeatEvery ?? ''}
          disabled={!writeAccess || !card.dueDate}
          onChange={(e) => onChange({ repeatEvery: (e.target.value || null) as RepeatEvery | null })}
        >
          <option value="">{t('card.repeat.none')}</option>
          {REPEATS.map((r) => (
            <option key={r} value={r}>
              {t(`card.repeat.${r}`)}
            </option>
          ))}
        </select>
        {!card.dueDate && <span className="hint">{t('card.repeatNeedsDue')}</span>}
      </label>

      <fieldset className="field field-tight reminder-set" disabled={!writeAccess || !card.dueDate}>
        <legend className="field-label">{t('card.reminders')}</legend>
        <div className="reminder-options">
          {REMINDERS.map((minutes) => {
            const on = reminders.includes(minutes);
            return (
              <label key={minutes} className={`reminder-option${on ? ' on' : ''}`}>
                <input
                  type="checkbox"
                  checked={on}
                  onChange={() =>
                    onChange({
                      reminders: on ? reminders.filter((m) => m !== minutes) : [...reminders, minutes].sort((a, b) => a - b),
                    })
                  }
                />
                {t(`card.reminder.m${minutes}`)}
              </label>
            );
          })}
        </div>
      </fieldset>
    </div>
  );
}

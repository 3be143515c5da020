import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CardListItem } from '../../api/types';
import { Dialog } from '../../components/Dialog';
import { dayKey } from './calendarDates';

interface Props {
  card: CardListItem;
  /** `YYYY-MM-DD` */
  onSave: (day: string) => void;
  onClose: () => void;
}

/** The keyboard's way to do what dropping a card on a day does. */
export function DueDateDialog({ card, onSave, onClose }: Props) {
  const { t } = useTranslation();
  const [day, setDay] = useState(() => dayKey(card.dueDate ? new Date(card.dueDate) : new Date()));
  return (
    <Dialog
      title={t('calendar.dateTitle', { name: card.name })}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" form="due-date-form" className="btn btn-primary" disabled={!day}>
            {t('calendar.dateSubmit')}
          </button>
        </>
      }
    >
      <form
        id="due-date-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (day) onSave(day);
        }}
      >
        <label className="field">
          <span>{t('calendar.date')}</span>
          <input className="input" type="date" required value={day} data-autofocus onChange={(e) => setDay(e.target.value)} />
        </label>
        <p className="hint">{t(card.dueDate ? 'calendar.dateKeepsTime' : 'calendar.dateDefaultTime')}</p>
      </form>
    </Dialog>
  );
}

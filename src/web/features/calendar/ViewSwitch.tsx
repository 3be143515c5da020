import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Icon } from '../../components/Icon';

/** Board or calendar: kept in the address (`?view=calendar`), like the filter, so a reload or a link keeps it. */
export function ViewSwitch() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const calendar = params.get('view') === 'calendar';
  const show = (next: 'board' | 'calendar') => {
    const updated = new URLSearchParams(params);
    if (next === 'calendar') updated.set('view', 'calendar');
    else updated.delete('view');
    setParams(updated);
  };
  return (
    <div className="view-switch" role="group" aria-label={t('calendar.view')}>
      <button type="button" aria-pressed={!calendar} aria-label={t('calendar.board')} onClick={() => show('board')}>
        <Icon name="columns" size={14} />
        <span>{t('calendar.board')}</span>
      </button>
      <button type="button" aria-pressed={calendar} aria-label={t('calendar.calendar')} onClick={() => show('calendar')}>
        <Icon name="calendar" size={14} />
        <span>{t('calendar.calendar')}</span>
      </button>
    </div>
  );
}

import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { activityQuery } from '../../api/queries';
import type { ActivityEntry, RepeatEvery } from '../../api/types';

const REPEATS = new Set<unknown>(['day', 'week', 'twoWeeks', 'month', 'year']);
const isRepeat = (value: unknown): value is RepeatEvery => REPEATS.has(value);
import { Avatar } from '../../components/Avatar';
import { dateTime, relativeTime, shortDate } from '../board/dates';

/** Someone whose entry came with an imported board: their name only, no account here. */
function formerActor(entry: ActivityEntry): { id: string; name: string; image: null } | null {
  const name = entry.data?.actorName;
  return typeof name === 'string' && name !== '' ? { id: `imported:${name}`, name, image: null } : null;
}

/** A card's history, newest first. */
export function Activity({ cardId }: { cardId: number }) {
  const { t } = useTranslation();
  const activity = useQuery(activityQuery(cardId));
  if (activity.isPending) return <div className="spinner" />;
  const entries = [...(activity.data ?? [])].reverse();
  return (
    <ol className="activity-list">
      {entries.map((entry, index) => {
        const actor = entry.actor ?? formerActor(entry) ?? { id: 'system', name: t('activity.system'), image: null };
        return (
          <li key={`${entry.createdAt}-${index}`} className="activity-item">
            <Avatar person={actor} />
            <span className="activity-text">
              <strong>{actor.name}</strong> <Describe entry={entry} />{' '}
              <time className="hint" dateTime={entry.createdAt} title={dateTime(entry.createdAt)}>
                {relativeTime(entry.createdAt)}
              </time>
            </span>
          </li>
        );
      })}
    </ol>
  );
}

function Describe({ entry }: { entry: ActivityEntry }) {
  const { t } = useTranslation();
  const data = entry.data ?? {};
  const text = (key: string) => (typeof data[key] === 'string' ? data[key] : '');
  switch (entry.type) {
    case 'created':
      return (
        <>
          {data.duplicatedFrom
            ? t('activity.duplicated')
            : data.repeatedFrom
              ? t('activity.repeatedFrom')
              : t('activity.created')}
        </>
      );
    case 'moved':
      return <>{t('activity.moved', { from: text('from'), to: text('to') })}</>;
    case 'status':
      return <>{data.done ? t('activity.done') : t('activity.reopened')}</>;
    case 'assigned':
      return (
        <>
          {data.removed
            ? t('activity.unassigned', { name: text('assigneeName') || '?' })
            : t('activity.assigned', { name: text('assigneeName') || '?' })}
        </>
      );
    case 'due':
      return (
        <>{typeof data.dueDate === 'string' ? t('activity.due', { date: shortDate(data.dueDate) }) : t('activity.dueCleared')}</>
      );
    case 'labels': {
      const added = Array.isArray(data.added) ? data.added.join(', ') : '';
      const removed = Array.isArray(data.removed) ? data.removed.join(', ') : '';
      return (
        <>
          {added && t('activity.labelsAdded', { names: added })}
          {added && removed && '; '}
          {removed && t('activity.labelsRemoved', { names: removed })}
        </>
      );
    }
    case 'archived':
      return <>{t('activity.archived')}</>;
    case 'restored':
      return <>{t('activity.restored')}</>;
    case 'repeat':
      return (
        <>{isRepeat(data.every) ? t('activity.repeat', { every: t(`card.repeat.${data.every}`) }) : t('activity.repeatOff')}</>
      );
    case 'repeated':
      return <>{t('activity.repeated')}</>;
    case 'comment':
      return <>{t('activity.comment')}</>;
    case 'attachment':
      return (
        <>
          {data.removed
            ? t('activity.fileRemoved', { name: text('filename') })
            : t('activity.fileAdded', { name: text('filename') })}
        </>
      );
    case 'field': {
      const name = text('name');
      if (data.value === null || data.value === undefined) return <>{t('activity.fieldCleared', { name })}</>;
      if (typeof data.value === 'boolean')
        return <>{data.value ? t('activity.fieldTicked', { name }) : t('activity.fieldUnticked', { name })}</>;
      // A calendar day is shown as it was given; a date-time in the reader's own time.
      const raw = data.value;
      const value =
        typeof raw !== 'string' && typeof raw !== 'number'
          ? '?'
          : data.fieldType === 'date' && typeof raw === 'string' && raw.length > 10
            ? shortDate(raw)
            : String(raw);
      return <>{t('activity.fieldSet', { name, value })}</>;
    }
    default:
      return <>{t('activity.other')}</>;
  }
}

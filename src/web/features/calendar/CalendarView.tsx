import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { findCard } from '../../api/cache';
import { updateCard } from '../card/api';
import { cardsQuery } from '../../api/queries';
import type { Area, CardListItem } from '../../api/types';
import { Icon } from '../../components/Icon';
import type { CardMatcher } from '../search/BoardFilter';
import { addDays, dayKey, fromDayKey, monthGrid, moveToDay, occurrences, weekOf, weekStartFor } from './calendarDates';
import { useCalendarCardDrag, useCalendarDropMonitor, useDayTarget } from './calendarDnd';
import { DueDateDialog } from './DueDateDialog';
import './calendar.css';

interface Props {
  boardId: number;
  areas: Area[];
  writeAccess: boolean;
  /** The board filter, applied here too. */
  matches: CardMatcher | null;
  onOpen: (cardId: number) => void;
}

interface Entry {
  card: CardListItem;
  at: Date;
  /** A coming date of a repeating card, not a card of its own. */
  ghost: boolean;
}

/** Below this width the month grid gives way to a week list. */
const NARROW = '(max-width: 640px)';

function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(() => window.matchMedia(NARROW).matches);
  useEffect(() => {
    const media = window.matchMedia(NARROW);
    const update = () => setNarrow(media.matches);
    media.addEventListener('change', update);
    return () => media.removeEventListener('change', update);
  }, []);
  return narrow;
}

const startOfToday = () => fromDayKey(dayKey(new Date()));

/**
 * The board's cards by due date: a month grid, or a week list on a phone.
 * It reads the same card lists as the board (one request per area), so
 * realtime changes show here as they do there. A card dropped on a day, or
 * given a date with `D`, keeps its time of day.
 */
export function CalendarView({ boardId, areas, writeAccess, matches, onOpen }: Props) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const qc = useQueryClient();
  const narrow = useNarrow();
  const firstDay = useMemo(() => weekStartFor(language, navigator.languages), [language]);
  const [cursor, setCursor] = useState(startOfToday);
  const [dating, setDating] = useState<CardListItem | null>(null);

  const { cards, pending } = useQueries({
    queries: areas.map((area) => cardsQuery(area.id)),
    combine: (results) => ({ cards: results.flatMap((r) => r.data ?? []), pending: results.some((r) => r.isPending) }),
  });
  const shown = useMemo(() => (matches ? cards.filter(matches) : cards), [cards, matches]);

  const days = useMemo(
    () => (narrow ? weekOf(cursor, firstDay) : monthGrid(cursor.getFullYear(), cursor.getMonth(), firstDay).flat()),
    [narrow, cursor, firstDay],
  );
  const from = days[0]!;
  const to = useMemo(() => addDays(days[days.length - 1]!, 1), [days]);

  const { byDay, undated } = useMemo(() => {
    const map = new Map<string, Entry[]>();
    const add = (entry: Entry) => {
      const key = dayKey(entry.at);
      map.set(key, [...(map.get(key) ?? []), entry]);
    };
    const now = new Date();
    for (const card of shown) {
      if (!card.dueDate) continue;
      const at = new Date(card.dueDate);
      if (at >= from && at < to) add({ card, at, ghost: false });
      if (card.repeatEvery && card.status === 0) {
        for (const next of occurrences(card.dueDate, card.repeatEvery, from, to, now, card.repeatAnchor))
          add({ card, at: next, ghost: true });
      }
    }
    for (const list of map.values()) list.sort((a, b) => a.at.getTime() - b.at.getTime() || a.card.id - b.card.id);
    return { byDay: map, undated: shown.filter((c) => !c.dueDate) };
  }, [shown, from, to]);

  const setDate = useCallback(
    (cardId: number, day: string) => {
      const card = findCard(qc, boardId, cardId);
      if (!card) return;
      const dueDate = moveToDay(card.dueDate, fromDayKey(day));
      if (card.dueDate && Date.parse(card.dueDate) === Date.parse(dueDate)) return;
      void updateCard(qc, boardId, card, { dueDate });
      requestAnimationFrame(() =>
        document.querySelector<HTMLElement>(`[data-cal-card="${cardId}"]`)?.focus({ preventScroll: false }),
      );
    },
    [qc, boardId],
  );
  useCalendarDropMonitor(setDate);

  const format = useCallback(
    (date: Date, options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(language, options).format(date),
    [language],
  );
  const title = narrow
    ? new Intl.DateTimeFormat(language, { day: 'numeric', month: 'short', year: 'numeric' }).formatRange(from, addDays(to, -1))
    : format(cursor, { month: 'long', year: 'numeric' });
  const step = (direction: 1 | -1) =>
    setCursor((current) =>
      narrow ? addDays(current, 7 * direction) : new Date(current.getFullYear(), current.getMonth() + direction, 1),
    );
  const today = dayKey(new Date());
  const month = cursor.getMonth();
  const itemProps = { writeAccess, onOpen, onDate: setDating, language };

  return (
    <div className={`calendar${narrow ? ' calendar-week' : ''}`} data-testid="calendar">
      <p id="cal-keys-edit" hidden>
        {t('calendar.keysEdit')}
      </p>
      <div className="cal-bar">
        <button
          type="button"
          className="icon-btn"
          aria-label={t(narrow ? 'calendar.previousWeek' : 'calendar.previousMonth')}
          onClick={() => step(-1)}
        >
          <Icon name="arrowLeft" />
        </button>
        <button type="button" className="btn btn-sm" onClick={() => setCursor(startOfToday())}>
          {t('calendar.today')}
        </button>
        <button
          type="button"
          className="icon-btn"
          aria-label={t(narrow ? 'calendar.nextWeek' : 'calendar.nextMonth')}
          onClick={() => step(1)}
        >
          <Icon name="arrowRight" />
        </button>
        <h2 className="cal-title" aria-live="polite">
          {title}
        </h2>
        {pending && <span className="spinner spinner-sm" aria-label={t('common.loading')} />}
      </div>
      <div className="cal-body">
        <div className="cal-main">
          {!narrow && (
            <div className="cal-weekdays" aria-hidden="true">
              {days.slice(0, 7).map((day) => (
                <div key={day.getDay()}>{format(day, { weekday: 'short' })}</div>
              ))}
            </div>
          )}
          <div className={narrow ? 'cal-list' : 'cal-grid'}>
            {days.map((day) => {
              const key = dayKey(day);
              return (
                <DayCell
                  key={key}
                  day={key}
                  label={format(day, { weekday: 'long', day: 'numeric', month: 'long' })}
                  number={day.getDate()}
                  agenda={narrow}
                  outside={!narrow && day.getMonth() !== month}
                  today={key === today}
                  entries={byDay.get(key)}
                  {...itemProps}
                />
              );
            })}
          </div>
        </div>
        <section className="cal-undated" aria-labelledby="cal-undated-title">
          <h2 id="cal-undated-title" className="cal-undated-title">
            {t('calendar.noDate')}
          </h2>
          {undated.length > 0 ? (
            <ul className="cal-entries">
              {undated.map((card) => (
                <CalendarItem key={card.id} card={card} at={null} {...itemProps} />
              ))}
            </ul>
          ) : (
            <p className="hint">{t('calendar.allDated')}</p>
          )}
        </section>
      </div>
      {dating && (
        <DueDateDialog
          card={dating}
          onClose={() => setDating(null)}
          onSave={(day) => {
            setDating(null);
            setDate(dating.id, day);
          }}
        />
      )}
    </div>
  );
}

interface ItemProps {
  writeAccess: boolean;
  onOpen: (cardId: number) => void;
  onDate: (card: CardListItem) => void;
  language: string;
}

const DayCell = memo(function DayCell({
  day,
  label,
  number,
  agenda,
  outside,
  today,
  entries,
  ...itemProps
}: ItemProps & {
  day: string;
  label: string;
  number: number;
  agenda: boolean;
  outside: boolean;
  today: boolean;
  entries: Entry[] | undefined;
}) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const over = useDayTarget(ref, day, itemProps.writeAccess);
  return (
    <div
      ref={ref}
      className={`cal-day${outside ? ' outside' : ''}${today ? ' today' : ''}${over ? ' over' : ''}`}
      data-day={day}
      aria-current={today ? 'date' : undefined}
    >
      <div className="cal-day-head" aria-hidden={agenda ? undefined : true}>
        {agenda ? label : number}
      </div>
      {entries ? (
        <ul className="cal-entries" aria-label={label}>
          {entries.map((entry) => (
            <CalendarItem
              key={`${entry.card.id}${entry.ghost ? `@${entry.at.getTime()}` : ''}`}
              card={entry.card}
              at={entry.at}
              ghost={entry.ghost}
              {...itemProps}
            />
          ))}
        </ul>
      ) : (
        agenda && <p className="cal-none">{t('calendar.nothingDue')}</p>
      )}
    </div>
  );
});

function CalendarItem({
  card,
  at,
  ghost = false,
  writeAccess,
  onOpen,
  onDate,
  language,
}: ItemProps & { card: CardListItem; at: Date | null; ghost?: boolean }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLButtonElement>(null);
  const dragging = useCalendarCardDrag(ref, card.id, writeAccess && !ghost);
  const done = card.status === 1;
  const time =
    at && (at.getHours() !== 0 || at.getMinutes() !== 0)
      ? new Intl.DateTimeFormat(language, { hour: 'numeric', minute: '2-digit' }).format(at)
      : null;
  if (ghost) {
    return (
      <li className="cal-entry ghost" data-cal-ghost={card.id} title={card.name}>
        <Icon name="repeat" size={12} />
        <span className="cal-entry-name">{card.name}</span>
        <span className="visually-hidden">{t('calendar.repeats')}</span>
      </li>
    );
  }
  return (
    <li>
      <button
        ref={ref}
        type="button"
        className={`cal-entry${done ? ' done' : ''}${dragging ? ' dragging' : ''}${card.id < 0 ? ' pending' : ''}`}
        data-cal-card={card.id}
        title={card.name}
        disabled={card.id < 0}
        aria-describedby={writeAccess ? 'cal-keys-edit' : undefined}
        aria-keyshortcuts={writeAccess ? 'D' : undefined}
        onClick={() => onOpen(card.id)}
        onKeyDown={(event) => {
          if ((event.key === 'd' || event.key === 'D') && writeAccess && !event.metaKey && !event.ctrlKey && !event.altKey) {
            event.preventDefault();
            onDate(card);
          }
        }}
      >
        {time && <span className="cal-entry-time">{time}</span>}
        {card.repeatEvery && <Icon name="repeat" size={12} />}
        <span className="cal-entry-name">{card.name}</span>
        {done && <span className="visually-hidden">, {t('card.done')}</span>}
      </button>
    </li>
  );
}

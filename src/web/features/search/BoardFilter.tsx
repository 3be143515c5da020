import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { api } from '../../api/client';
import { fieldsQuery, labelsQuery } from '../../api/queries';
import type { CardListItem } from '../../api/types';
import { Avatar } from '../../components/Avatar';
import { Icon } from '../../components/Icon';
import {
  EMPTY,
  filterFromParams,
  filterKey,
  isActive,
  matcherFor,
  writeFilter,
  type DueFilter,
  type Filter,
  type StatusFilter,
} from './filter';
import { FieldValueSelect } from '../fields/FieldValueSelect';
import './search.css';

export type CardMatcher = (card: CardListItem) => boolean;

interface Props {
  boardId: number;
  /** The matcher for the current filter, or null when nothing is filtered. */
  onChange: (matches: CardMatcher | null) => void;
}

interface BoardPerson {
  id: string;
  name: string;
  image: string | null;
  permission: string;
}

/** Everyone on the board (owner first); anyone who can read the board may ask. */
const boardPeopleQuery = (boardId: number) =>
  queryOptions({
    queryKey: ['search', 'people', boardId] as const,
    queryFn: async () => (await api<{ members: BoardPerson[] }>('/api/data/members', { query: { boardId } })).members,
    staleTime: 60_000,
  });

/** The board filter: text, labels, assignees, due, done. */
export function BoardFilter({ boardId, onChange }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const panelId = `${id}-panel`;
  const [params, setParams] = useSearchParams();
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const [position, setPosition] = useState<{ top: number; left: number } | null>(null);

  // The filter lives in the address (so it survives a reload). It is also kept here, so that a
  // tick shows at once; a change of the address from elsewhere (back, a link) is taken over.
  const [filter, setFilter] = useState(() => filterFromParams(params));
  const urlKey = filterKey(filterFromParams(params));
  const written = useRef(urlKey);
  useEffect(() => {
    if (urlKey === written.current) return;
    written.current = urlKey;
    setFilter(filterFromParams(new URLSearchParams(urlKey)));
  }, [urlKey]);
  const matcher = useMemo(() => (isActive(filter) ? matcherFor(filter) : null), [filter]);
  useEffect(() => onChange(matcher), [matcher, onChange]);

  const count =
    (filter.text.trim() ? 1 : 0) +
    filter.labels.length +
    filter.assignees.length +
    (filter.due ? 1 : 0) +
    (filter.status ? 1 : 0) +
    (filter.field !== null ? 1 : 0);

  const apply = (next: Filter) => {
    setFilter(next);
    written.current = filterKey(next);
    setParams((current) => writeFilter(current, next), { replace: true });
  };
  const update = (change: Partial<Filter>) => apply({ ...filter, ...change });
  const clear = () => apply(EMPTY);

  const close = (focusButton: boolean) => {
    setOpen(false);
    if (focusButton) buttonRef.current?.focus();
  };

  // Placed under its button, kept inside the window.
  useLayoutEffect(() => {
    if (!open || !buttonRef.current || !panelRef.current) return;
    const place = () => {
      if (!buttonRef.current || !panelRef.current) return;
      const rect = buttonRef.current.getBoundingClientRect();
      const width = panelRef.current.offsetWidth;
      const left = Math.max(8, Math.min(rect.left, window.innerWidth - width - 8));
      setPosition({ top: rect.bottom + 6, left });
    };
    place();
    panelRef.current.querySelector<HTMLElement>('input, select, button')?.focus();
    window.addEventListener('resize', place);
    return () => window.removeEventListener('resize', place);
  }, [open]);

  // A press outside closes it (focus stays where the press put it).
  useEffect(() => {
    if (!open) return;
    const onDown = (event: MouseEvent) => {
      const target = event.target as Node;
      if (panelRef.current?.contains(target) || buttonRef.current?.contains(target)) return;
      setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  return (
    <div className="bfilter">
      <button
        ref={buttonRef}
        type="button"
        className={`btn btn-sm bfilter-button${count > 0 ? ' active' : ''}`}
        aria-label={count > 0 ? t('search.filter.buttonActive', { count }) : t('search.filter.button')}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((o) => !o)}
      >
        <Icon name="filter" size={15} />
        <span>{t('search.filter.button')}</span>
        {count > 0 && (
          <span className="bfilter-count" aria-hidden="true">
            {count}
          </span>
        )}
      </button>
      {count > 0 && (
        <button
          type="button"
          className="btn btn-sm btn-ghost bfilter-clear"
          aria-label={t('search.filter.clearLabel')}
          onClick={clear}
        >
          <Icon name="close" size={14} />
          <span>{t('search.filter.clear')}</span>
        </button>
      )}
      {open && (
        <div
          ref={panelRef}
          id={panelId}
          role="dialog"
          aria-label={t('search.filter.panel')}
          className="bfilter-panel"
          style={position ?? { visibility: 'hidden', top: 0, left: 0 }}
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.preventDefault();
              event.stopPropagation();
              close(true);
            }
          }}
        >
          <FilterFields boardId={boardId} filter={filter} update={update} />
          <div className="bfilter-footer">
            {count > 0 && (
              <button type="button" className="btn btn-sm btn-ghost" onClick={clear}>
                {t('search.filter.clearAll')}
              </button>
            )}
            <div className="spacer" />
            <button type="button" className="btn btn-sm btn-primary" onClick={() => close(true)}>
              {t('search.filter.done')}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}

function FilterFields({
  boardId,
  filter,
  update,
}: {
  boardId: number;
  filter: Filter;
  update: (change: Partial<Filter>) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const labelsResult = useQuery(labelsQuery(boardId));
  const peopleResult = useQuery(boardPeopleQuery(boardId));
  const toggle = <T,>(list: T[], value: T) => (list.includes(value) ? list.filter((v) => v !== value) : [...list, value]);

  return (
    <div className="bfilter-body">
      <label className="bfilter-field">
        <span className="bfilter-legend">{t('search.filter.text')}</span>
        <input
          type="search"
          className="input"
          placeholder={t('search.filter.textPlaceholder')}
          value={filter.text}
          maxLength={200}
          onChange={(event) => update({ text: event.target.value })}
        />
      </label>

      <fieldset className="bfilter-group">
        <legend className="bfilter-legend">{t('search.filter.labels')}</legend>
        {labelsResult.isPending ? (
          <span className="spinner bfilter-spinner" aria-label={t('common.loading')} />
        ) : (labelsResult.data ?? []).length === 0 ? (
          <p className="hint">{t('search.filter.noLabels')}</p>
        ) : (
          <div className="bfilter-chips">
            {labelsResult.data!.map((label) => (
              <label key={label.id} className="bfilter-chip">
                <input
                  type="checkbox"
                  checked={filter.labels.includes(label.id)}
                  onChange={() => update({ labels: toggle(filter.labels, label.id) })}
                />
                <span>{label.name}</span>
              </label>
            ))}
          </div>
        )}
      </fieldset>

      <fieldset className="bfilter-group">
        <legend className="bfilter-legend">{t('search.filter.assignees')}</legend>
        <div className="bfilter-people">
          <label className="bfilter-person">
            <input
              type="checkbox"
              checked={filter.assignees.includes('none')}
              onChange={() => update({ assignees: toggle(filter.assignees, 'none') })}
            />
            <span className="bfilter-nobody" aria-hidden="true">
              <Icon name="user" size={14} />
            </span>
            <span>{t('search.filter.unassigned')}</span>
          </label>
          {peopleResult.isPending && <span className="spinner bfilter-spinner" aria-label={t('common.loading')} />}
          {(peopleResult.data ?? []).map((person) => (
            <label key={person.id} className="bfilter-person">
              <input
                type="checkbox"
                checked={filter.assignees.includes(person.id)}
                onChange={() => update({ assignees: toggle(filter.assignees, person.id) })}
              />
              <span className="bfilter-avatar" aria-hidden="true">
                <Avatar person={person} />
              </span>
              <span className="bfilter-person-name">{person.name}</span>
            </label>
          ))}
        </div>
      </fieldset>

      <div className="bfilter-selects">
        <label className="bfilter-field" htmlFor={`${id}-due`}>
          <span className="bfilter-legend">{t('search.filter.due')}</span>
          <select
            id={`${id}-due`}
            className="select"
            value={filter.due ?? ''}
            onChange={(event) => update({ due: (event.target.value || null) as DueFilter | null })}
          >
            <option value="">{t('search.filter.dueAny')}</option>
            <option value="overdue">{t('search.filter.dueOverdue')}</option>
            <option value="week">{t('search.filter.dueWeek')}</option>
            <option value="none">{t('search.filter.dueNone')}</option>
          </select>
        </label>
        <label className="bfilter-field" htmlFor={`${id}-status`}>
          <span className="bfilter-legend">{t('search.filter.status')}</span>
          <select
            id={`${id}-status`}
            className="select"
            value={filter.status ?? ''}
            onChange={(event) => update({ status: (event.target.value || null) as StatusFilter | null })}
          >
            <option value="">{t('search.filter.statusAny')}</option>
            <option value="open">{t('search.filter.statusOpen')}</option>
            <option value="done">{t('search.filter.statusDone')}</option>
          </select>
        </label>
      </div>
      <FieldFilter boardId={boardId} filter={filter} update={update} />
    </div>
  );
}

/** A custom field and the value its cards must have: a choice for select and checkbox fields, typed text otherwise. */
function FieldFilter({
  boardId,
  filter,
  update,
}: {
  boardId: number;
  filter: Filter;
  update: (change: Partial<Filter>) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const fields = useQuery(fieldsQuery(boardId)).data ?? [];
  if (fields.length === 0) return null;
  const field = fields.find((f) => f.id === filter.field);
  return (
    <div className="bfilter-selects">
      <label className="bfilter-field" htmlFor={`${id}-field`}>
        <span className="bfilter-legend">{t('fields.filterField')}</span>
        <select
          id={`${id}-field`}
          className="select"
          value={filter.field ?? ''}
          onChange={(event) => update({ field: event.target.value ? Number(event.target.value) : null, fieldValue: '' })}
        >
          <option value="">{t('fields.filterNone')}</option>
          {fields.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name}
            </option>
          ))}
        </select>
      </label>
      {field && (
        <label className="bfilter-field" htmlFor={`${id}-value`}>
          <span className="bfilter-legend">{t('fields.filterValue')}</span>
          {field.type === 'select' || field.type === 'checkbox' ? (
            <FieldValueSelect
              id={`${id}-value`}
              className="select"
              value={filter.fieldValue}
              blank={t('fields.filterAny')}
              {...(field.type === 'checkbox'
                ? {
                    options: ['true', 'false'],
                    label: (o: string) => t(o === 'true' ? 'fields.filterTicked' : 'fields.filterUnticked'),
                  }
                : { options: field.options })}
              onChange={(fieldValue) => update({ fieldValue })}
            />
          ) : (
            <input
              id={`${id}-value`}
              className="input"
              type={field.type === 'date' ? 'date' : 'text'}
              value={filter.fieldValue}
              placeholder={t('fields.filterAny')}
              onChange={(event) => update({ fieldValue: event.target.value })}
            />
          )}
        </label>
      )}
    </div>
  );
}

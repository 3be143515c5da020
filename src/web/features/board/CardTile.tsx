import { memo, useRef } from 'react';
import type { Viewer } from '../../../shared/events.js';
import type { CardListItem, Field } from '../../api/types';
import { shownValue } from '../fields/CardFieldsEditor';
import i18n from '../../app/i18n';
import { Avatar } from '../../components/Avatar';
import { Icon } from '../../components/Icon';
import { dueState, shortDate, tileDate } from './dates';
import { useCardDnd } from './dnd';

/** What a tile can ask of the board; one stable object, so tiles re-render only when their card changes. */
export interface CardActions {
  open(cardId: number): void;
  move(card: CardListItem): void;
  toggleDone(card: CardListItem): void;
}

interface Props {
  card: CardListItem;
  writeAccess: boolean;
  todo: boolean;
  /** Others who have this card open right now. */
  viewers: Viewer[] | undefined;
  actions: CardActions;
  /** The interface language: tiles use `i18n.t` directly (a hook per tile costs on boards with thousands), so a change of language must reach them as a prop. */
  language: string;
  /** False while the board is filtered. */
  draggable: boolean;
  /** Has an unread notification. */
  unread: boolean;
  /** The board's fields that tiles show (`showOnCard`), in order; one stable array for every tile. */
  shownFields: readonly Field[];
}

const MAX_AVATARS = 3;
const t = i18n.t.bind(i18n);

export const CardTile = memo(function CardTile({
  card,
  writeAccess,
  todo,
  viewers,
  actions,
  draggable,
  unread,
  shownFields,
}: Props) {
  const ref = useRef<HTMLDivElement>(null);
  const pending = card.id < 0;
  const { dragging, edge } = useCardDnd(ref, card.id, card.area, writeAccess && draggable);
  const done = card.status === 1;
  const due = card.dueDate ? dueState(card.dueDate, done) : null;
  const { done: checked, total } = card.checklist;

  const onKeyDown = (event: React.KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget || pending) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      actions.open(card.id);
    } else if ((event.key === 'm' || event.key === 'M') && writeAccess && !event.metaKey && !event.ctrlKey) {
      event.preventDefault();
      actions.move(card);
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      focusSibling(event.currentTarget, event.key === 'ArrowDown' ? 1 : -1);
    } else if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
      event.preventDefault();
      focusNeighbourArea(event.currentTarget, event.key === 'ArrowRight' ? 1 : -1);
    }
  };

  const labelParts = [card.name];
  if (unread) labelParts.push(t('card.unread'));
  if (done) labelParts.push(t('card.done'));
  if (card.dueDate) labelParts.push(t('card.dueOn', { date: shortDate(card.dueDate) }));
  for (const field of shownFields) {
    const value = card.fields[field.id];
    if (value !== undefined && value !== false) labelParts.push(`${field.name}: ${shownValue(field, value)}`);
  }

  return (
    <div
      ref={ref}
      className={`card-tile${dragging ? ' dragging' : ''}${pending ? ' pending' : ''}${done ? ' done' : ''}${edge ? ` drop-${edge}` : ''}`}
      data-card-id={card.id}
      tabIndex={pending ? -1 : 0}
      role="listitem"
      aria-roledescription={t('card.roleDescription')}
      aria-label={labelParts.join(', ')}
      aria-describedby={writeAccess ? 'card-keys-edit' : 'card-keys-read'}
      aria-keyshortcuts={writeAccess ? 'Enter M' : 'Enter'}
      onClick={() => !pending && actions.open(card.id)}
      onKeyDown={onKeyDown}
    >
      {unread && <span className="unread-dot card-unread" aria-hidden="true" />}
      {card.labels.length > 0 && (
        <div className="card-labels">
          {card.labels.map((label) => (
            <span key={label.id} className="label-chip">
              {label.name}
            </span>
          ))}
        </div>
      )}
      <div className="card-title-row">
        {todo && (
          <button
            type="button"
            className={`todo-check${done ? ' checked' : ''}`}
            aria-label={done ? t('card.reopen') : t('card.markDone')}
            aria-pressed={done}
            disabled={!writeAccess || pending}
            onClick={(event) => {
              event.stopPropagation();
              actions.toggleDone(card);
            }}
            onKeyDown={(event) => event.stopPropagation()}
          >
            {done && <Icon name="check" size={12} />}
          </button>
        )}
        {done && !todo && (
          <span className="done-mark" title={t('card.done')}>
            <Icon name="checkCircle" size={15} />
          </span>
        )}
        <span className="card-name">{card.name}</span>
      </div>
      {shownFields.some((f) => card.fields[f.id] !== undefined && card.fields[f.id] !== false) && (
        <div className="card-meta card-field-values">
          {shownFields.map((field) => {
            const value = card.fields[field.id];
            if (value === undefined || value === false) return null;
            const text = shownValue(field, value);
            return (
              <span key={field.id} className="card-badge card-field-badge" title={`${field.name}: ${text}`}>
                {field.type === 'checkbox' ? (
                  `${field.name} ✓`
                ) : (
                  <>
                    <span className="visually-hidden">{field.name}: </span>
                    {text}
                  </>
                )}
              </span>
            );
          })}
        </div>
      )}
      {(card.dueDate || total > 0 || card.repeatEvery || card.assignees.length > 0 || viewers) && (
        <div className="card-meta">
          {card.dueDate && due && (
            <span className={`card-badge due-${due}`} title={t(`card.dueState.${due}`)}>
              <Icon name="clock" size={13} />
              {tileDate(card.dueDate)}
            </span>
          )}
          {card.repeatEvery && (
            <span className="card-badge" title={t(`card.repeat.${card.repeatEvery}`)}>
              <Icon name="repeat" size={13} />
              <span className="visually-hidden">{t(`card.repeat.${card.repeatEvery}`)}</span>
            </span>
          )}
          {total > 0 && (
            <span
              className={`card-badge${checked === total ? ' complete' : ''}`}
              title={t('card.checklistCount', { done: checked, total })}
            >
              <Icon name="checklist" size={13} />
              {checked}/{total}
            </span>
          )}
          <span className="spacer meta-spacer" />
          {viewers && (
            <span className="card-viewers" title={t('card.openBy', { names: viewers.map((v) => v.name).join(', ') })}>
              <Icon name="eye" size={13} />
            </span>
          )}
          {card.assignees.length > 0 && (
            <span className="avatar-stack">
              {card.assignees.slice(0, MAX_AVATARS).map((person) => (
                <Avatar key={person.id} person={person} />
              ))}
              {card.assignees.length > MAX_AVATARS && (
                <span className="avatar avatar-more">+{card.assignees.length - MAX_AVATARS}</span>
              )}
            </span>
          )}
        </div>
      )}
    </div>
  );
});

function focusSibling(tile: HTMLElement, step: 1 | -1): void {
  const tiles = [...(tile.parentElement?.querySelectorAll<HTMLElement>(':scope > [data-card-id]') ?? [])];
  tiles[tiles.indexOf(tile) + step]?.focus();
}

function focusNeighbourArea(tile: HTMLElement, step: 1 | -1): void {
  const area = tile.closest<HTMLElement>('[data-area-id]');
  const areas = [...document.querySelectorAll<HTMLElement>('[data-area-id]')];
  const next = areas[areas.indexOf(area!) + step];
  const index = [...(tile.parentElement?.children ?? [])].indexOf(tile);
  const targets = next ? [...next.querySelectorAll<HTMLElement>('[data-card-id]')] : [];
  (targets[Math.min(index, targets.length - 1)] ?? next?.querySelector<HTMLElement>('button'))?.focus();
}

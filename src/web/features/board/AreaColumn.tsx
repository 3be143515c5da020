import { memo, startTransition, useEffect, useMemo, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Viewer } from '../../../shared/events.js';
import { archiveArea, createCard, renameArea } from './api';
import { cardsQuery, fieldsQuery } from '../../api/queries';
import type { Area, CardListItem } from '../../api/types';
import { Icon } from '../../components/Icon';
import { MenuButton, MenuItem, MenuSeparator } from '../../components/Menu';
import { CardTile, type CardActions } from './CardTile';
import { useAreaDnd } from './dnd';
import { WipBadge, WipLimitDialog } from './WipLimit';

export interface AreaActions extends CardActions {
  /** Moves an area one place back (-1) or forward (+1). */
  shiftArea(areaId: number, step: -1 | 1): void;
}

interface Props {
  area: Area;
  index: number;
  count: number;
  todo: boolean;
  writeAccess: boolean;
  openBy: Map<number, Viewer[]>;
  actions: AreaActions;
  /** The board filter: only matching cards are shown (and dragging is off, positions would be ambiguous). */
  matches: ((card: CardListItem) => boolean) | null;
  /** Cards with an unread notification. */
  unread: ReadonlySet<number>;
}

/** Tiles drawn at once; the rest of a long area follows in chunks, so the first cards paint without waiting for the last. */
const FIRST_TILES = 30;
const MORE_TILES = 120;

export const AreaColumn = memo(function AreaColumn({
  area,
  index,
  count,
  todo,
  writeAccess,
  openBy,
  actions,
  matches,
  unread,
}: Props) {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const { data: allCards, isPending, isError } = useQuery(cardsQuery(area.id));
  const boardFields = useQuery(fieldsQuery(area.board)).data;
  const shownFields = useMemo(() => (boardFields ?? []).filter((f) => f.showOnCard), [boardFields]);
  const cards = useMemo(() => (matches && allCards ? allCards.filter(matches) : allCards), [allCards, matches]);
  const ref = useRef<HTMLElement>(null);
  const handleRef = useRef<HTMLDivElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const { dragging, areaEdge, cardOver } = useAreaDnd(
    ref,
    handleRef,
    listRef,
    area.id,
    todo ? 'vertical' : 'horizontal',
    writeAccess && !matches,
  );
  const [renaming, setRenaming] = useState(false);
  const [adding, setAdding] = useState(false);
  const [limiting, setLimiting] = useState(false);
  const [shown, setShown] = useState(FIRST_TILES);
  const total = cards?.length ?? 0;
  useEffect(() => {
    if (shown === Infinity || !cards) return;
    // Once all are in, every card added later shows at once.
    const next = setTimeout(() => startTransition(() => setShown((n) => (n >= total ? Infinity : n + MORE_TILES))), 0);
    return () => clearTimeout(next);
  }, [shown, total, cards]);
  const visible = cards && shown < total ? cards.slice(0, shown) : cards;

  const headingId = `area-${area.id}-name`;
  return (
    <section
      ref={ref}
      className={`area${dragging ? ' dragging' : ''}${cardOver ? ' card-over' : ''}`}
      data-area-id={area.id}
      aria-labelledby={headingId}
    >
      {areaEdge && <div className={`drop-line drop-line-${areaEdge}`} aria-hidden="true" />}
      <div ref={handleRef} className={`area-header${writeAccess ? ' draggable' : ''}`}>
        {renaming ? (
          <InlineName
            initial={area.name}
            label={t('board.areaName')}
            onDone={(name) => {
              setRenaming(false);
              if (name && name !== area.name) void renameArea(qc, area, name);
            }}
          />
        ) : (
          <h2 id={headingId} className="area-name" onDoubleClick={() => writeAccess && setRenaming(true)}>
            {area.name}
          </h2>
        )}
        {/* The limit counts every card of the area, whatever the board filter shows. */}
        <WipBadge area={area} count={allCards?.length} />
        <div className="spacer" />
        {writeAccess && (
          <MenuButton label={t('board.areaMenu', { name: area.name })}>
            {(close) => (
              <>
                <MenuItem
                  icon="plus"
                  onSelect={() => {
                    close();
                    setAdding(true);
                  }}
                >
                  {t('board.addCard')}
                </MenuItem>
                <MenuItem
                  icon="edit"
                  onSelect={() => {
                    close();
                    setRenaming(true);
                  }}
                >
                  {t('board.renameArea')}
                </MenuItem>
                <MenuItem
                  icon="edit"
                  onSelect={() => {
                    close();
                    setLimiting(true);
                  }}
                >
                  {t('teams.wipMenu')}
                </MenuItem>
                <MenuItem
                  icon={todo ? 'arrowUp' : 'arrowLeft'}
                  disabled={index === 0}
                  onSelect={() => {
                    close();
                    actions.shiftArea(area.id, -1);
                  }}
                >
                  {todo ? t('board.moveAreaUp') : t('board.moveAreaLeft')}
                </MenuItem>
                <MenuItem
                  icon={todo ? 'arrowDown' : 'arrowRight'}
                  disabled={index === count - 1}
                  onSelect={() => {
                    close();
                    actions.shiftArea(area.id, 1);
                  }}
                >
                  {todo ? t('board.moveAreaDown') : t('board.moveAreaRight')}
                </MenuItem>
                <MenuSeparator />
                <MenuItem
                  icon="archive"
                  danger
                  onSelect={() => {
                    close();
                    void archiveArea(qc, area);
                  }}
                >
                  {t('board.archiveArea')}
                </MenuItem>
              </>
            )}
          </MenuButton>
        )}
      </div>

      {/* A list needs items: an empty area is a plain region with its message. */}
      <div
        ref={listRef}
        className="area-cards"
        data-autoscroll
        role={cards?.length ? 'list' : undefined}
        aria-labelledby={cards?.length ? headingId : undefined}
      >
        {isPending && <div className="area-loading" aria-label={t('common.loading')} />}
        {isError && <p className="hint area-error">{t('errors.loadFailed')}</p>}
        {visible?.map((card) => (
          <CardTile
            key={card.id}
            card={card}
            writeAccess={writeAccess}
            todo={todo}
            viewers={openBy.get(card.id)}
            actions={actions}
            language={i18n.language}
            draggable={!matches}
            unread={unread.has(card.id)}
            shownFields={shownFields}
          />
        ))}
        {cardOver && <div className="drop-line drop-line-end" aria-hidden="true" />}
        {cards?.length === 0 && !adding && <p className="area-empty">{t(matches ? 'board.noMatches' : 'board.noCards')}</p>}
      </div>

      {writeAccess &&
        (adding ? (
          <CardComposer areaId={area.id} onClose={() => setAdding(false)} />
        ) : (
          <button type="button" className="area-add" onClick={() => setAdding(true)}>
            <Icon name="plus" size={16} />
            {t('board.addCard')}
          </button>
        ))}
      {limiting && <WipLimitDialog area={area} onClose={() => setLimiting(false)} />}
    </section>
  );
});

/** A card name typed at the bottom of an area: Enter adds it and keeps the box open for the next. */
function CardComposer({ areaId, onClose }: { areaId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [name, setName] = useState('');
  const ref = useRef<HTMLTextAreaElement>(null);
  const submit = () => {
    const value = name.trim();
    if (!value) return;
    setName('');
    void createCard(qc, areaId, value);
    ref.current?.focus();
    requestAnimationFrame(() => ref.current?.scrollIntoView({ block: 'nearest' }));
  };
  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <textarea
        ref={ref}
        className="textarea composer-input"
        aria-label={t('board.cardName')}
        placeholder={t('board.cardNamePlaceholder')}
        value={name}
        maxLength={255}
        autoFocus
        rows={2}
        onChange={(e) => setName(e.target.value.replace(/\n/g, ''))}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            submit();
          } else if (e.key === 'Escape') {
            e.preventDefault();
            onClose();
          }
        }}
      />
      <div className="row">
        <button type="submit" className="btn btn-primary btn-sm" disabled={!name.trim()}>
          {t('board.addCard')}
        </button>
        <button type="button" className="icon-btn" aria-label={t('common.cancel')} onClick={onClose}>
          <Icon name="close" />
        </button>
      </div>
    </form>
  );
}

/** An in-place name editor: Enter or leaving saves, Escape cancels. */
export function InlineName({
  initial,
  label,
  onDone,
}: {
  initial: string;
  label: string;
  onDone: (name: string | null) => void;
}) {
  const [value, setValue] = useState(initial);
  const finished = useRef(false);
  const finish = (name: string | null) => {
    if (finished.current) return;
    finished.current = true;
    onDone(name);
  };
  return (
    <input
      className="input inline-name"
      aria-label={label}
      value={value}
      maxLength={255}
      autoFocus
      onFocus={(e) => e.currentTarget.select()}
      onChange={(e) => setValue(e.target.value)}
      onBlur={() => finish(value.trim() || null)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          finish(value.trim() || null);
        } else if (e.key === 'Escape') {
          e.preventDefault();
          e.stopPropagation();
          finish(null);
        }
      }}
    />
  );
}

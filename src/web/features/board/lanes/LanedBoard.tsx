import { memo, startTransition, useEffect, useMemo, useRef, useState, type MutableRefObject, type RefObject } from 'react';
import { useQueries, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { dropTargetForElements } from '@atlaskit/pragmatic-drag-and-drop/element/adapter';
import type { Viewer } from '../../../../shared/events.js';
import { cardsQuery, fieldsQuery, labelsQuery, membersQuery } from '../../../api/queries';
import type { Area, CardListItem, Field, Person } from '../../../api/types';
import { useUser } from '../../../app/session';
import { Avatar } from '../../../components/Avatar';
import { Icon } from '../../../components/Icon';
import type { AreaActions } from '../AreaColumn';
import { CardTile } from '../CardTile';
import { isCardDrag, type AreaTargetData, type CardTargetData } from '../dnd';
import { WipBadge } from '../WipLimit';
import type { LaneContext } from './api';
import { areaGrouper, laneList, type Lane, type LaneBy } from './lanes';
import './lanes.css';

interface Props {
  boardId: number;
  owner: boolean;
  areas: Area[];
  by: LaneBy;
  todo: boolean;
  writeAccess: boolean;
  openBy: Map<number, Viewer[]>;
  actions: AreaActions;
  matches: ((card: CardListItem) => boolean) | null;
  unread: ReadonlySet<number>;
  /** Where the board's drop handler and keyboard move read the lanes shown. */
  contextRef: MutableRefObject<LaneContext | null>;
}

const allData = (results: UseQueryResult<CardListItem[]>[]) => results.map((r) => r.data);
const EMPTY: CardListItem[] = [];

/** Collapsed lanes, per board, in this browser. */
function useCollapsed(boardId: number) {
  const storageKey = `tavla:lanes-collapsed:${boardId}`;
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(() => {
    try {
      return new Set(JSON.parse(localStorage.getItem(storageKey) ?? '[]') as string[]);
    } catch {
      return new Set();
    }
  });
  const toggle = (key: string) =>
    setCollapsed((current) => {
      const next = new Set(current);
      if (!next.delete(key)) next.add(key);
      try {
        localStorage.setItem(storageKey, JSON.stringify([...next]));
      } catch {
        // Private mode: collapsed for this visit only.
      }
      return next;
    });
  return { collapsed, toggle };
}

/**
 * The board with swimlanes: areas stay columns (their names in a row on top),
 * each lane is a row of the areas' cells holding its cards; on a phone the
 * lanes stack, and each cell names its area. Grouping is memoised per area's
 * list, so a change in one area regroups that area alone.
 */
export function LanedBoard({
  boardId,
  owner,
  areas,
  by,
  todo,
  writeAccess,
  openBy,
  actions,
  matches,
  unread,
  contextRef,
}: Props) {
  const { t, i18n } = useTranslation();
  const me = useUser();
  const lists = useQueries({ queries: areas.map((area) => cardsQuery(area.id)), combine: allData });
  const members = useQuery({ ...membersQuery(boardId), enabled: owner && by.by === 'assignee' }).data;
  const labels = useQuery({ ...labelsQuery(boardId), enabled: by.by === 'label' }).data;
  const boardFields = useQuery(fieldsQuery(boardId)).data;
  const shownFields = useMemo<Field[]>(() => (boardFields ?? []).filter((f) => f.showOnCard), [boardFields]);

  const people = useMemo<Person[]>(() => {
    const list: Person[] = [{ id: me.id, name: me.name, image: me.image ?? null, type: 'human' }];
    for (const m of members?.members ?? [])
      if (m.id !== me.id) list.push({ id: m.id, name: m.name, image: m.image, type: 'human' });
    return list;
  }, [me.id, me.name, me.image, members]);
  const lanes = useMemo(
    () =>
      laneList(
        by,
        {
          people,
          labels: labels ?? [],
          language: i18n.language,
          noneName: by.by === 'assignee' ? t('lanes.noAssignee') : by.by === 'label' ? t('lanes.noLabel') : t('lanes.noValue'),
        },
        lists,
      ),
    [by, people, labels, i18n.language, t, lists],
  );
  useEffect(() => {
    contextRef.current = { by, lanes };
    return () => {
      contextRef.current = null;
    };
  }, [by, lanes, contextRef]);

  // Each area's list, filtered and grouped, computed again only when that list (or the grouping, or the filter) changes.
  const grouper = useMemo(() => areaGrouper(by, matches), [by, matches]);
  const grouped = useMemo(() => lists.map((cards) => (cards ? grouper(cards) : undefined)), [lists, grouper]);

  const { collapsed, toggle } = useCollapsed(boardId);
  const draggable = writeAccess && !matches;

  return (
    <div className="swimlanes" style={{ '--lane-areas': areas.length } as React.CSSProperties} data-testid="swimlanes">
      <div className="swimlane-areas">
        {areas.map((area, i) => (
          <div key={area.id} className="swimlane-area">
            <span className="swimlane-area-name">{area.name}</span>
            <WipBadge area={area} count={lists[i]?.length} />
          </div>
        ))}
      </div>
      {lanes.map((lane) => {
        let count = 0;
        for (const groups of grouped) count += groups?.get(lane.key)?.length ?? 0;
        return (
          <Swimlane
            key={lane.key}
            lane={lane}
            count={count}
            areas={areas}
            grouped={grouped}
            collapsed={collapsed.has(lane.key)}
            onToggle={toggle}
            todo={todo}
            writeAccess={writeAccess}
            draggable={draggable}
            openBy={openBy}
            actions={actions}
            unread={unread}
            shownFields={shownFields}
            language={i18n.language}
            filtered={matches !== null}
          />
        );
      })}
    </div>
  );
}

interface LaneProps {
  lane: Lane;
  count: number;
  areas: Area[];
  grouped: Array<Map<string, CardListItem[]> | undefined>;
  collapsed: boolean;
  onToggle: (key: string) => void;
  todo: boolean;
  writeAccess: boolean;
  draggable: boolean;
  openBy: Map<number, Viewer[]>;
  actions: AreaActions;
  unread: ReadonlySet<number>;
  shownFields: readonly Field[];
  language: string;
  filtered: boolean;
}

function Swimlane({ lane, count, areas, grouped, collapsed, onToggle, ...cell }: LaneProps) {
  const { t } = useTranslation();
  const id = `lane-${laneDomId(lane.key)}`;
  return (
    <section className={`swimlane${collapsed ? ' collapsed' : ''}`} data-lane-key={lane.key} aria-labelledby={`${id}-name`}>
      <h2 className="swimlane-head">
        <button
          type="button"
          className="swimlane-toggle"
          aria-expanded={!collapsed}
          aria-controls={`${id}-cells`}
          onClick={() => onToggle(lane.key)}
        >
          <Icon name={collapsed ? 'arrowRight' : 'arrowDown'} size={14} />
          {lane.person && <Avatar person={lane.person} />}
          <span id={`${id}-name`} className="swimlane-name">
            {lane.name}
          </span>
          <span className="swimlane-count" aria-label={t('lanes.count', { count })}>
            {count}
          </span>
        </button>
      </h2>
      <div id={`${id}-cells`} className="swimlane-cells" hidden={collapsed}>
        {!collapsed &&
          areas.map((area, i) => (
            <LaneCell
              key={area.id}
              area={area}
              laneId={id}
              cards={grouped[i]?.get(lane.key) ?? EMPTY}
              loading={grouped[i] === undefined}
              {...cell}
            />
          ))}
      </div>
    </section>
  );
}

/** Lane keys hold user ids and option names: safe for an element id. */
function laneDomId(key: string): string {
  return [...key].map((c) => (/[A-Za-z0-9_-]/.test(c) ? c : `.${c.codePointAt(0)!.toString(36)}`)).join('');
}

const FIRST_TILES = 30;
const MORE_TILES = 120;

interface CellProps extends Omit<LaneProps, 'lane' | 'count' | 'areas' | 'grouped' | 'collapsed' | 'onToggle'> {
  area: Area;
  laneId: string;
  cards: CardListItem[];
  loading: boolean;
}

/** One area's cards in one lane: a drop target (before its first card, or after its last) whose tiles are the board's own. */
const LaneCell = memo(function LaneCell({
  area,
  laneId,
  cards,
  loading,
  todo,
  writeAccess,
  draggable,
  openBy,
  actions,
  unread,
  shownFields,
  language,
  filtered,
}: CellProps) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const over = useCellDrop(ref, listRef, area.id, draggable);
  // Long cells draw their first tiles at once and the rest in chunks, as areas do.
  const [shown, setShown] = useState(FIRST_TILES);
  const total = cards.length;
  useEffect(() => {
    if (shown === Infinity) return;
    const next = setTimeout(() => startTransition(() => setShown((n) => (n >= total ? Infinity : n + MORE_TILES))), 0);
    return () => clearTimeout(next);
  }, [shown, total]);
  const visible = shown < total ? cards.slice(0, shown) : cards;
  const headingId = `${laneId}-area-${area.id}`;
  return (
    <div ref={ref} className={`swimlane-cell${over ? ' card-over' : ''}`} data-area-id={area.id}>
      <h3 id={headingId} className="swimlane-cell-name">
        {area.name}
      </h3>
      <div
        ref={listRef}
        className="swimlane-cards"
        role={total ? 'list' : undefined}
        aria-labelledby={total ? `${headingId} ${laneId}-name` : undefined}
      >
        {loading && <div className="area-loading" aria-label={t('common.loading')} />}
        {visible.map((card) => (
          <CardTile
            key={card.id}
            card={card}
            writeAccess={writeAccess}
            todo={todo}
            viewers={openBy.get(card.id)}
            actions={actions}
            language={language}
            draggable={draggable}
            unread={unread.has(card.id)}
            shownFields={shownFields}
          />
        ))}
        {!loading && total === 0 && filtered && <p className="swimlane-empty">{t('board.noMatches')}</p>}
      </div>
    </div>
  );
});

/**
 * A cell as a drop target for cards dropped beside its tiles: above them it
 * reads as "before the first", else "after the last" (a card target of the
 * board's own kind); an empty cell is the area's end.
 */
function useCellDrop(
  ref: RefObject<HTMLElement | null>,
  listRef: RefObject<HTMLElement | null>,
  areaId: number,
  enabled: boolean,
) {
  const [over, setOver] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || !enabled) return;
    return dropTargetForElements({
      element,
      canDrop: ({ source }) => isCardDrag(source.data),
      getData: ({ input }): CardTargetData | AreaTargetData => {
        const tiles = listRef.current?.querySelectorAll<HTMLElement>(':scope > [data-card-id]');
        const first = tiles?.[0];
        const last = tiles?.[tiles.length - 1];
        if (!first || !last) return { type: 'area-target', areaId, edge: 'bottom', aboveCards: false };
        const above = input.clientY < first.getBoundingClientRect().top;
        const tile = above ? first : last;
        return { type: 'card-target', cardId: Number(tile.dataset.cardId), areaId, edge: above ? 'top' : 'bottom' };
      },
      onDrag: ({ location }) => {
        const innermost = location.current.dropTargets[0]?.element === element;
        setOver((current) => (current === innermost ? current : innermost));
      },
      onDragLeave: () => setOver(false),
      onDrop: () => setOver(false),
    });
  }, [ref, listRef, areaId, enabled]);
  return over;
}

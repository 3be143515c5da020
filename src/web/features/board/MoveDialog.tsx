import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { cardsQuery } from '../../api/queries';
import type { Area, CardListItem } from '../../api/types';
import { Dialog } from '../../components/Dialog';

interface Props {
  card: CardListItem;
  areas: Area[];
  onMove: (toAreaId: number, newIndex: number, laneKey?: string) => void;
  onClose: () => void;
  /** When the board shows swimlanes: the lanes to choose from and the one the card is in. */
  lanes?: { options: ReadonlyArray<{ key: string; name: string }>; current: string };
}

/** The keyboard's way to do what a drag does: choose the area and the position. */
export function MoveDialog({ card, areas, onMove, onClose, lanes }: Props) {
  const { t } = useTranslation();
  const [areaId, setAreaId] = useState(card.area);
  const target = useQuery(cardsQuery(areaId));
  const others = (target.data ?? []).filter((c) => c.id !== card.id);
  const currentIndex = target.data?.findIndex((c) => c.id === card.id) ?? -1;
  const [position, setPosition] = useState<number | null>(null);
  const [laneKey, setLaneKey] = useState(lanes?.current);
  const chosen = position ?? (areaId === card.area && currentIndex >= 0 ? currentIndex : others.length);

  return (
    <Dialog
      title={t('move.title', { name: card.name })}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" form="move-form" className="btn btn-primary" disabled={target.isPending}>
            {t('move.submit')}
          </button>
        </>
      }
    >
      <form
        id="move-form"
        onSubmit={(e) => {
          e.preventDefault();
          onMove(areaId, chosen, laneKey);
        }}
      >
        <label className="field">
          <span>{t('move.area')}</span>
          <select
            className="select"
            value={areaId}
            data-autofocus
            onChange={(e) => {
              setAreaId(Number(e.target.value));
              setPosition(null);
            }}
          >
            {areas.map((area) => (
              <option key={area.id} value={area.id}>
                {area.name}
              </option>
            ))}
          </select>
        </label>
        {lanes && (
          <label className="field">
            <span>{t('lanes.lane')}</span>
            <select className="select" value={laneKey} onChange={(e) => setLaneKey(e.target.value)}>
              {lanes.options.map((lane) => (
                <option key={lane.key} value={lane.key}>
                  {lane.name}
                </option>
              ))}
            </select>
          </label>
        )}
        <label className="field">
          <span>{t('move.position')}</span>
          <select
            className="select"
            value={chosen}
            onChange={(e) => setPosition(Number(e.target.value))}
            disabled={target.isPending}
          >
            {Array.from({ length: others.length + 1 }, (_, i) => (
              <option key={i} value={i}>
                {i === 0 ? t('move.first') : i === others.length ? t('move.last', { n: i + 1 }) : t('move.nth', { n: i + 1 })}
              </option>
            ))}
          </select>
        </label>
      </form>
    </Dialog>
  );
}

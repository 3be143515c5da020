import { useState } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { setAreas, upsertArea } from '../../api/cache';
import { api } from '../../api/client';
import { optimistic, snapshot } from '../../api/optimistic';
import { keys } from '../../api/queries';
import type { Area } from '../../api/types';
import { Dialog } from '../../components/Dialog';

/** Sets (or with null removes) an area's work-in-progress limit, shown at once and put back if refused. */
export async function setWipLimit(qc: QueryClient, area: Area, wipLimit: number | null): Promise<void> {
  const undo = snapshot(qc, keys.areas(area.board));
  const result = await optimistic(
    () => {
      setAreas(qc, area.board, (areas) => areas.map((a) => (a.id === area.id ? { ...a, wipLimit } : a)));
      return undo;
    },
    () => api<{ area: Area }>('/api/data/area', { method: 'PATCH', body: { id: area.id, wipLimit } }),
  );
  if (result) upsertArea(qc, result.area);
}

/**
 * An area's card count, against its limit when it has one: red when over,
 * and said by a live region when it goes over (and back), for screen readers.
 */
export function WipBadge({ area, count }: { area: Pick<Area, 'name' | 'wipLimit'>; count: number | undefined }) {
  const { t } = useTranslation();
  const limit = area.wipLimit ?? null;
  const over = limit !== null && count !== undefined && count > limit;
  if (limit === null) {
    return (
      <span className="area-count" aria-label={t('board.cardCount', { count: count ?? 0 })}>
        {count ?? ''}
      </span>
    );
  }
  return (
    <>
      <span
        className={`area-count wip-count${over ? ' over' : ''}`}
        aria-label={t('teams.wipCount', { count: count ?? 0, limit })}
        data-testid="wip-count"
      >
        {count ?? ''}/{limit}
      </span>
      <span className="visually-hidden" role="status" aria-live="polite" data-testid="wip-live">
        {over ? t('teams.wipOver', { name: area.name, count: count ?? 0, limit }) : ''}
      </span>
    </>
  );
}

/** The area menu's "Work-in-progress limit…": a number from 1 to 999, or empty for none. */
export function WipLimitDialog({ area, onClose }: { area: Area; onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [value, setValue] = useState(area.wipLimit === null ? '' : String(area.wipLimit));
  const trimmed = value.trim();
  const parsed = trimmed === '' ? null : Number(trimmed);
  const valid = parsed === null || (Number.isInteger(parsed) && parsed >= 1 && parsed <= 999);
  const formId = `wip-form-${area.id}`;
  return (
    <Dialog
      title={t('teams.wipTitle', { name: area.name })}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" form={formId} className="btn btn-primary" disabled={!valid}>
            {t('common.save')}
          </button>
        </>
      }
    >
      <form
        id={formId}
        onSubmit={(e) => {
          e.preventDefault();
          if (!valid) return;
          onClose();
          if (parsed !== area.wipLimit) void setWipLimit(qc, area, parsed);
        }}
      >
        <label className="field">
          <span>{t('teams.wipLabel')}</span>
          <input
            className="input"
            type="number"
            inputMode="numeric"
            min={1}
            max={999}
            step={1}
            value={value}
            data-autofocus
            aria-invalid={!valid}
            aria-describedby={`${formId}-hint`}
            onChange={(e) => setValue(e.target.value)}
          />
        </label>
        <p className="hint" id={`${formId}-hint`}>
          {valid ? t('teams.wipHint') : t('teams.wipInvalid')}
        </p>
      </form>
    </Dialog>
  );
}

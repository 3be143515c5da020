import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { fieldsQuery } from '../../../api/queries';
import type { LanesChoice } from './useLanes';

/** The board bar's choice of swimlanes: none, by assignee, by label, or by one of the board's select fields. */
export function LanesSwitch({ boardId, choice }: { boardId: number; choice: LanesChoice }) {
  const { t } = useTranslation();
  const fields = useQuery(fieldsQuery(boardId)).data ?? [];
  const selects = fields.filter((f) => f.type === 'select');
  return (
    <label className="lanes-switch">
      <span className="hide-narrow">{t('lanes.label')}</span>
      <select
        className="select"
        aria-label={t('lanes.label')}
        value={choice.value ?? ''}
        onChange={(e) => choice.choose(e.target.value || null)}
      >
        <option value="">{t('lanes.off')}</option>
        <option value="assignee">{t('lanes.byAssignee')}</option>
        <option value="label">{t('lanes.byLabel')}</option>
        {selects.map((field) => (
          <option key={field.id} value={`field:${field.id}`}>
            {t('lanes.byField', { name: field.name })}
          </option>
        ))}
      </select>
    </label>
  );
}

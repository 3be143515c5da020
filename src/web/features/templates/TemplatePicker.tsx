import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toast } from '../../app/toast';
import { Icon } from '../../components/Icon';
import { deleteTemplate, templatesQuery, type TemplateSummary } from './api';
import './templates.css';

interface Props {
  /** The chosen template; null for a blank board. */
  value: TemplateSummary | null;
  onChange: (template: TemplateSummary | null) => void;
}

/**
 * "Blank board or a template" in the new-board form: the built-in templates
 * and the account's own, one radio group (arrow keys move through it), each
 * own one with a button to delete it.
 */
export function TemplatePicker({ value, onChange }: Props) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [fromTemplate, setFromTemplate] = useState(value !== null);
  const templates = useQuery({ ...templatesQuery, enabled: fromTemplate });
  const builtIn = templates.data?.filter((template) => template.builtIn) ?? [];
  const mine = templates.data?.filter((template) => !template.builtIn) ?? [];

  const choose = (template: TemplateSummary | null) => onChange(template);
  const remove = async (template: TemplateSummary) => {
    if (typeof template.id !== 'number') return;
    if (await deleteTemplate(qc, template.id)) {
      toast.info(t('templates.deleted', { name: template.name }));
      if (value?.id === template.id) choose(null);
    }
  };

  const option = (template: TemplateSummary) => (
    <li key={template.id} className={value?.id === template.id ? 'template-option active' : 'template-option'}>
      <label>
        <input type="radio" name="template" checked={value?.id === template.id} onChange={() => choose(template)} />
        <span className="template-name">{template.name}</span>
        <small>
          {template.style === 'todo' ? t('board.styleTodo') : t('board.styleKanban')} ·{' '}
          {t('templates.counts', { areas: template.areas, cards: template.cards })}
        </small>
      </label>
      {!template.builtIn && (
        <button
          type="button"
          className="icon-btn"
          aria-label={t('templates.delete', { name: template.name })}
          title={t('templates.delete', { name: template.name })}
          onClick={() => void remove(template)}
        >
          <Icon name="trash" size={15} />
        </button>
      )}
    </li>
  );

  return (
    <>
      <fieldset className="field fieldset">
        <legend className="field-label">{t('templates.startFrom')}</legend>
        <div className="segmented">
          {([false, true] as const).map((templated) => (
            <label key={String(templated)} className={fromTemplate === templated ? 'active' : undefined}>
              <input
                type="radio"
                name="start"
                checked={fromTemplate === templated}
                onChange={() => {
                  setFromTemplate(templated);
                  if (!templated) choose(null);
                }}
              />
              <span>{templated ? t('templates.fromTemplate') : t('templates.blank')}</span>
            </label>
          ))}
        </div>
      </fieldset>
      {fromTemplate && (
        <fieldset className="field fieldset template-picker">
          <legend className="field-label">{t('templates.choose')}</legend>
          {templates.isPending ? (
            <span className="spinner" aria-label={t('common.loading')} />
          ) : (
            <>
              <p className="template-group">{t('templates.builtIn')}</p>
              <ul className="template-options">{builtIn.map(option)}</ul>
              <p className="template-group">{t('templates.mine')}</p>
              {mine.length > 0 ? (
                <ul className="template-options">{mine.map(option)}</ul>
              ) : (
                <p className="hint">{t('templates.none')}</p>
              )}
            </>
          )}
        </fieldset>
      )}
    </>
  );
}

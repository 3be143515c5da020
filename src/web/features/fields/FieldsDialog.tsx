import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FIELD_TYPES, MAX_FIELDS } from '../../../shared/api/fields.js';
import { fieldsQuery } from '../../api/queries';
import type { Field, FieldType } from '../../api/types';
import { Dialog } from '../../components/Dialog';
import { Icon } from '../../components/Icon';
import { addField, changeField, removeField } from './api';
import './fields.css';

const optionList = (text: string) =>
  text
    .split('\n')
    .map((o) => o.trim())
    .filter((o) => o !== '');

/**
 * The board menu's "Fields": add, rename, reorder (drag, or the up and down
 * buttons from the keyboard), options of a select field, and whether tiles
 * show the value.
 */
export function FieldsDialog({ boardId, onClose }: { boardId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const fields = useQuery(fieldsQuery(boardId)).data ?? [];
  const [announce, setAnnounce] = useState('');
  const [dragged, setDragged] = useState<number | null>(null);

  const move = async (field: Field, sort: number) => {
    if (sort < 0 || sort >= fields.length) return;
    const moved = await changeField(qc, field, { sort });
    if (moved) {
      setAnnounce(t('fields.moved', { name: field.name, position: sort + 1, count: fields.length }));
      requestAnimationFrame(() =>
        document.querySelector<HTMLElement>(`[data-field-row="${field.id}"] .field-name-input`)?.focus(),
      );
    }
  };

  return (
    <Dialog title={t('fields.title')} onClose={onClose} wide>
      <p className="visually-hidden" role="status" aria-live="polite">
        {announce}
      </p>
      {fields.length === 0 && <p className="hint">{t('fields.none')}</p>}
      <ul className="field-list" aria-label={t('fields.title')}>
        {fields.map((field, index) => (
          <li
            key={field.id}
            className={`field-row${dragged === field.id ? ' dragging' : ''}`}
            data-field-row={field.id}
            draggable
            onDragStart={(e) => {
              setDragged(field.id);
              e.dataTransfer.effectAllowed = 'move';
            }}
            onDragEnd={() => setDragged(null)}
            onDragOver={(e) => {
              if (dragged !== null) e.preventDefault();
            }}
            onDrop={(e) => {
              e.preventDefault();
              const from = fields.find((f) => f.id === dragged);
              setDragged(null);
              if (from && from.id !== field.id) void move(from, index);
            }}
          >
            <span className="field-grip" aria-hidden="true" title={t('fields.drag')}>
              <Icon name="grip" size={14} />
            </span>
            <FieldRow field={field} />
            <div className="field-row-actions">
              <button
                type="button"
                className="icon-btn"
                aria-label={t('fields.moveUp', { name: field.name })}
                disabled={index === 0}
                onClick={() => void move(field, index - 1)}
              >
                <Icon name="arrowUp" size={15} />
              </button>
              <button
                type="button"
                className="icon-btn"
                aria-label={t('fields.moveDown', { name: field.name })}
                disabled={index === fields.length - 1}
                onClick={() => void move(field, index + 1)}
              >
                <Icon name="arrowDown" size={15} />
              </button>
              <button
                type="button"
                className="icon-btn"
                aria-label={t('fields.remove', { name: field.name })}
                onClick={() => {
                  if (window.confirm(t('fields.removeConfirm', { name: field.name }))) void removeField(qc, field);
                }}
              >
                <Icon name="trash" size={15} />
              </button>
            </div>
          </li>
        ))}
      </ul>
      {fields.length < MAX_FIELDS ? (
        <AddField boardId={boardId} />
      ) : (
        <p className="hint">{t('fields.full', { max: MAX_FIELDS })}</p>
      )}
    </Dialog>
  );
}

function FieldRow({ field }: { field: Field }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [name, setName] = useState(field.name);
  const [options, setOptions] = useState(field.options.join('\n'));
  const rename = () => {
    const trimmed = name.trim();
    if (trimmed === field.name) return;
    if (trimmed === '') setName(field.name);
    else void changeField(qc, field, { name: trimmed }).then((f) => !f && setName(field.name));
  };
  const saveOptions = () => {
    const list = optionList(options);
    if (list.join('\n') === field.options.join('\n')) return;
    if (list.length === 0) setOptions(field.options.join('\n'));
    else void changeField(qc, field, { options: list }).then((f) => !f && setOptions(field.options.join('\n')));
  };
  return (
    <div className="field-row-body">
      <label className="field field-inline">
        <span className="visually-hidden">{t('fields.name')}</span>
        <input
          className="input field-name-input"
          value={name}
          maxLength={64}
          onChange={(e) => setName(e.target.value)}
          onBlur={rename}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              rename();
            }
          }}
        />
      </label>
      <span className="field-type">{t(`fields.types.${field.type}`)}</span>
      <label className="check">
        <input
          type="checkbox"
          checked={field.showOnCard}
          onChange={(e) => void changeField(qc, field, { showOnCard: e.target.checked })}
        />
        <span>{t('fields.showOnCard')}</span>
      </label>
      {field.type === 'select' && (
        <label className="field field-options">
          <span>{t('fields.options')}</span>
          <textarea
            className="input"
            rows={3}
            value={options}
            onChange={(e) => setOptions(e.target.value)}
            onBlur={saveOptions}
          />
        </label>
      )}
    </div>
  );
}

function AddField({ boardId }: { boardId: number }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [name, setName] = useState('');
  const [type, setType] = useState<FieldType>('text');
  const [options, setOptions] = useState('');
  const [showOnCard, setShowOnCard] = useState(false);
  const ready = name.trim() !== '' && (type !== 'select' || optionList(options).length > 0);
  return (
    <form
      className="field-add"
      aria-label={t('fields.add')}
      onSubmit={(e) => {
        e.preventDefault();
        if (!ready) return;
        void addField(qc, boardId, {
          name: name.trim(),
          type,
          showOnCard,
          ...(type === 'select' ? { options: optionList(options) } : {}),
        }).then((field) => {
          if (!field) return;
          setName('');
          setOptions('');
          setShowOnCard(false);
        });
      }}
    >
      <h3 className="section-title">{t('fields.add')}</h3>
      <div className="field-add-row">
        <label className="field">
          <span>{t('fields.name')}</span>
          <input className="input" value={name} maxLength={64} onChange={(e) => setName(e.target.value)} data-autofocus />
        </label>
        <label className="field">
          <span>{t('fields.type')}</span>
          <select className="input" value={type} onChange={(e) => setType(e.target.value as FieldType)}>
            {FIELD_TYPES.map((ft) => (
              <option key={ft} value={ft}>
                {t(`fields.types.${ft}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
      {type === 'select' && (
        <label className="field">
          <span>{t('fields.options')}</span>
          <textarea className="input" rows={3} value={options} onChange={(e) => setOptions(e.target.value)} />
        </label>
      )}
      <label className="check">
        <input type="checkbox" checked={showOnCard} onChange={(e) => setShowOnCard(e.target.checked)} />
        <span>{t('fields.showOnCard')}</span>
      </label>
      <button type="submit" className="btn btn-primary" disabled={!ready}>
        {t('fields.addButton')}
      </button>
    </form>
  );
}

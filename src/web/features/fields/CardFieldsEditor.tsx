import { useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { fieldsQuery } from '../../api/queries';
import type { CardFields, Field, FieldValue } from '../../api/types';
import { FieldValueSelect } from './FieldValueSelect';
import './fields.css';

/** `YYYY-MM-DD` of a stored date (a day as it is, a date-time by its UTC day), for a date input. */
const dayOf = (value: FieldValue | undefined) => (typeof value === 'string' ? value.slice(0, 10) : '');

/**
 * The card dialog's custom fields, each edited by its type; a change is
 * saved when the control is left (or at once, for a checkbox or a choice).
 */
export function CardFieldsEditor({
  boardId,
  values,
  writeAccess,
  onChange,
}: {
  boardId: number;
  values: CardFields;
  writeAccess: boolean;
  onChange: (fields: Record<string, FieldValue | null>) => void;
}) {
  const fields = useQuery(fieldsQuery(boardId)).data ?? [];
  if (fields.length === 0) return null;
  return (
    <div className="card-fields">
      {fields.map((field) => (
        <FieldInput
          key={`${field.id}:${String(values[field.id])}`}
          field={field}
          value={values[field.id]}
          disabled={!writeAccess}
          onChange={(value) => onChange({ [field.id]: value })}
        />
      ))}
    </div>
  );
}

function FieldInput({
  field,
  value,
  disabled,
  onChange,
}: {
  field: Field;
  value: FieldValue | undefined;
  disabled: boolean;
  onChange: (value: FieldValue | null) => void;
}) {
  const { t } = useTranslation();
  const initial = field.type === 'date' ? dayOf(value) : value === undefined ? '' : String(value);
  const [text, setText] = useState(initial);
  const [invalid, setInvalid] = useState(false);
  // Enter then leaving the field must not send the same value twice.
  const sent = useRef(initial);

  if (field.type === 'checkbox') {
    return (
      <label className="check">
        <input
          type="checkbox"
          checked={value === true}
          disabled={disabled}
          onChange={(e) => onChange(e.target.checked || null)}
        />
        <span>{field.name}</span>
      </label>
    );
  }
  if (field.type === 'select') {
    return (
      <label className="field">
        <span>{field.name}</span>
        <FieldValueSelect
          className="input"
          value={typeof value === 'string' ? value : ''}
          blank={t('fields.notSet')}
          options={field.options}
          disabled={disabled}
          onChange={(chosen) => onChange(chosen === '' ? null : chosen)}
        />
      </label>
    );
  }

  const commit = () => {
    if (text === sent.current) return;
    const trimmed = text.trim();
    sent.current = text;
    if (trimmed === '') return onChange(null);
    if (field.type === 'number') {
      const n = Number(trimmed);
      if (!Number.isFinite(n)) {
        sent.current = initial;
        return setInvalid(true);
      }
      return onChange(n);
    }
    if (field.type === 'url' && !/^https?:\/\/\S+$/i.test(trimmed)) {
      sent.current = initial;
      return setInvalid(true);
    }
    onChange(field.type === 'text' ? text : trimmed);
  };
  const type = { text: 'text', number: 'number', date: 'date', url: 'url' }[field.type];
  const hintId = `field-hint-${field.id}`;
  return (
    <label className="field">
      <span>{field.name}</span>
      <input
        className="input"
        type={type}
        value={text}
        disabled={disabled}
        maxLength={field.type === 'text' ? 1000 : undefined}
        step={field.type === 'number' ? 'any' : undefined}
        aria-invalid={invalid}
        aria-describedby={invalid ? hintId : undefined}
        onChange={(e) => {
          setText(e.target.value);
          setInvalid(false);
        }}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            commit();
          }
        }}
      />
      {invalid && (
        <span className="hint error" id={hintId}>
          {t(field.type === 'url' ? 'fields.invalidUrl' : 'fields.invalidNumber')}
        </span>
      )}
    </label>
  );
}

/** A value as a tile shows it: a ticked checkbox as ✓, a date as the day. */
export function shownValue(field: Pick<Field, 'type'>, value: FieldValue): string {
  if (field.type === 'checkbox') return value === true ? '✓' : '';
  if (field.type === 'date' && typeof value === 'string') return value.slice(0, 10);
  return String(value);
}

import { MAX_FIELDS, type Field, type FieldType, type FieldValue } from '../../../shared/api/fields.js';
import { badRequest } from '../../http/errors.js';
import { fieldOptions } from './fields.service.js';
import { checkedValue } from './values.js';

/** A custom field as a board file (or a template) brings it, under the file's own id. */
export interface FileField {
  id: number;
  name: string;
  type: FieldType;
  options: string[];
  showOnCard: boolean;
}

/** The fields of a board to be made, checked as the API would check them, in order. */
export interface ImportedFields {
  rows: Array<{ name: string; nameKey: string; type: FieldType; options: string | null; showOnCard: number; sort: number }>;
  /** A card's values as rows to store (`index` into `rows`), each checked against its field's type; values of unknown fields are dropped. */
  valuesOf: (values: Record<string, FieldValue> | undefined) => Array<{ index: number; value: string }>;
}

/**
 * Checks a file's fields and reads its values, refusing (400) what the API
 * would refuse: more than 20 fields, a name twice, options that do not fit
 * the type, a value that does not fit its field.
 */
export function importedFields(fields: readonly FileField[] | undefined): ImportedFields {
  const list = fields ?? [];
  if (list.length > MAX_FIELDS) throw badRequest(`The board file has more than ${MAX_FIELDS} custom fields`);
  const keys = new Set<string>();
  const checked: Array<Pick<Field, 'id' | 'name' | 'type' | 'options'> & { showOnCard: boolean }> = [];
  for (const field of list) {
    const name = field.name.trim();
    if (name === '' || keys.has(name.toLowerCase())) throw badRequest(`The board file has two custom fields named "${name}"`);
    keys.add(name.toLowerCase());
    checked.push({
      id: field.id,
      name,
      type: field.type,
      options: fieldOptions(field.type, field.options),
      showOnCard: field.showOnCard,
    });
  }
  const byId = new Map(checked.map((f, index) => [String(f.id), { field: f, index }]));
  return {
    rows: checked.map((f, sort) => ({
      name: f.name,
      nameKey: f.name.toLowerCase(),
      type: f.type,
      options: f.type === 'select' ? JSON.stringify(f.options) : null,
      showOnCard: f.showOnCard ? 1 : 0,
      sort,
    })),
    valuesOf: (values) =>
      Object.entries(values ?? {}).flatMap(([id, raw]) => {
        const known = byId.get(id);
        if (!known) return [];
        return [{ index: known.index, value: JSON.stringify(checkedValue(known.field, raw)) }];
      }),
  };
}

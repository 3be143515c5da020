import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { TSchema } from 'typebox';
import { pacer } from './pacing.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/**
 * A check of untrusted JSON against a schema: null when it fits, else the
 * first problem ("/path message"). Compiled on first use, not when the
 * process starts: a compile takes tens of milliseconds, which a process that
 * never imports a board need not spend.
 */
export function jsonChecker(schema: TSchema): (value: unknown) => string | null {
  let validator: ValidateFunction | undefined;
  return (value) => {
    validator ??= compile(schema);
    if (validator(value)) return null;
    const first = validator.errors?.[0];
    return first ? `${first.instancePath || '/'} ${first.message ?? 'is invalid'}` : 'is invalid';
  };
}

function compile(schema: TSchema): ValidateFunction {
  const ajv = new Ajv({ allErrors: false, strict: false });
  addFormats(ajv);
  return ajv.compile(schema);
}

/**
 * The same check as `jsonChecker(schema)`, made a piece at a time for a value
 * whose bulk is in the arrays named by `bulk` (at the top, or one level down
 * as `areas/cards`): the value with those arrays empty, then their items one
 * by one, with the event loop's turn between runs of items. Answers the first
 * problem as `jsonChecker` words it (its path from the top), or null.
 */
export function steppedChecker(schema: TSchema, bulk: string[]): (value: unknown) => Promise<string | null> {
  const whole = jsonChecker(schema);
  const items = new Map(bulk.map((key) => [key, jsonChecker(itemSchema(schema, key))]));
  return async (value) => {
    if (!isRecord(value)) return whole(value);
    const head: Record<string, unknown> = { ...value };
    for (const key of items.keys()) if (Array.isArray(value[key])) head[key] = [];
    const problem = whole(head);
    if (problem) return problem;
    const pace = pacer();
    for (const [key, check] of items) {
      const list = value[key];
      if (!Array.isArray(list)) continue;
      for (const [i, item] of list.entries()) {
        const found = check(item);
        if (found) return `/${key}/${i}${found.startsWith('/ ') ? found.slice(1) : found}`;
        await pace.pause();
      }
    }
    return null;
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function itemSchema(schema: TSchema, key: string): TSchema {
  const property = (schema as { properties?: Record<string, { items?: TSchema }> }).properties?.[key];
  if (!property?.items) throw new Error(`the schema has no array ${key}`);
  return property.items;
}

import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { TSchema } from 'typebox';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** A check of untrusted JSON against a schema: null when it fits, else the first problem ("/path message"). Compiled on first use. */
export function jsonChecker(schema: TSchema): (value: unknown) => string | null {
  let validator: ValidateFunction | undefined;
  return (value) => {
    if (!validator) {
      const ajv = new Ajv({ allErrors: false, strict: false });
      addFormats(ajv);
      validator = ajv.compile(schema);
    }
    if (validator(value)) return null;
    const first = validator.errors?.[0];
    return first ? `${first.instancePath || '/'} ${first.message ?? 'is invalid'}` : 'is invalid';
  };
}

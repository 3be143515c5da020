import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import sjson from 'secure-json-parse';
import { badRequest } from './errors.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(coerceTypes: boolean): Ajv {
  // strictNumbers: NaN and Infinity (JSON's `1e400`) are no numbers, so they never slip past a bound.
  const ajv = new Ajv({
    coerceTypes,
    useDefaults: true,
    removeAdditional: true,
    allErrors: false,
    strict: false,
    strictNumbers: true,
  });
  addFormats(ajv);
  return ajv;
}

/**
 * Ajv reads `Infinity` or `1e400` in a query as a number and then lets it pass every bound
 * (with strictNumbers it skips the range check of a value it takes for already refused).
 * Everything in a query or path starts as text, so any number in it afterwards was read
 * by the schema: one that is not finite is refused here as the schema should have.
 */
function finiteOnly(validate: ValidateFunction): (data: unknown) => boolean {
  const checked = (data: unknown): boolean => {
    if (!validate(data)) {
      checked.errors = validate.errors;
      return false;
    }
    if (typeof data !== 'object' || data === null) return true;
    const entry = Object.entries(data).find(([, value]) => typeof value === 'number' && !Number.isFinite(value));
    if (!entry) return true;
    checked.errors = [
      { instancePath: `/${entry[0]}`, schemaPath: '', keyword: 'type', params: {}, message: 'must be a finite number' },
    ];
    return false;
  };
  checked.errors = null as ValidateFunction['errors'];
  return checked;
}

/**
 * JSON bodies are checked strictly (`"12"` is not an integer, `123` is not a name);
 * query strings are text by nature, so there numbers and booleans are read from it.
 */
export function registerValidation(app: FastifyInstance): void {
  const body = makeAjv(false);
  const query = makeAjv(true);
  app.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === 'body' ? body.compile(schema) : finiteOnly(query.compile(schema)),
  );

  // PostgreSQL text cannot hold U+0000 (it throws), and no field has a use for it: refused on both databases alike,
  // here, once for every route (and for the auth routes that have no schema of ours), before any schema is checked.
  app.addHook('preValidation', (request, _reply, done) => {
    const field = withNul('query', request.query) ?? withNul('params', request.params) ?? withNul('body', request.body);
    done(field ? badRequest(`${field} must not contain the NUL character`) : undefined);
  });

  // Fastify reads text/plain bodies by default; every body here is JSON or multipart, so any other
  // type is the client's mistake (415). It also shuts out the one body type a cross-site form can
  // post without a CORS preflight.
  app.removeContentTypeParser('text/plain');

  // An empty JSON body counts as no body, so optional bodies may be left out.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, text, done) => {
    const source = typeof text === 'string' ? text : text.toString('utf8');
    if (source.trim() === '') return done(null, undefined);
    let value: unknown;
    try {
      value = sjson.parse(source, undefined, { protoAction: 'remove', constructorAction: 'remove' });
    } catch {
      const error = new Error('Malformed JSON body') as Error & { statusCode: number };
      error.statusCode = 400;
      return done(error, undefined);
    }
    // JSON.parse takes any depth, but what walks a body recursively later (JSON.stringify on the way to
    // the auth library, for one) overflows the stack: no body of this API nests anywhere near this deep.
    if (nestedDeeperThan(value, MAX_BODY_DEPTH)) {
      return done(badRequest(`body: nested deeper than ${MAX_BODY_DEPTH} levels`), undefined);
    }
    done(null, value);
  });
}

const MAX_BODY_DEPTH = 32;

/** Whether objects and arrays in `value` sit inside more than `limit` others; iterative, for the same reason. */
function nestedDeeperThan(value: unknown, limit: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 0]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth > limit) return true;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
}

interface Place {
  key: string;
  parent: Place | undefined;
}

const nameOf = (place: Place | undefined): string => {
  const keys: string[] = [];
  for (let p = place; p; p = p.parent) keys.push(p.key.replaceAll('\0', '\\0'));
  return keys.reverse().join('.');
};

/** Plain data as a parser makes it (the query parser's objects have a bare prototype); never a Buffer or a stream. */
const isPlain = (value: object): boolean => {
  const proto = Object.getPrototypeOf(value) as object | null;
  return Array.isArray(value) || proto === null || proto === Object.prototype || Object.getPrototypeOf(proto) === null;
};

/**
 * The first string (or property name) holding U+0000 in a parsed request part, named
 * like a validation error (`body: areas.0.name`); undefined when there is none.
 * Iterative, and the names are only spelt out at the end: a body may be nested deeper than the call stack.
 */
export function withNul(part: string, value: unknown): string | undefined {
  const pending: Array<[unknown, Place | undefined]> = [[value, undefined]];
  while (pending.length > 0) {
    const [item, place] = pending.pop()!;
    if (typeof item === 'string') {
      if (item.includes('\0')) return place ? `${part}: ${nameOf(place)}` : part;
    } else if (typeof item === 'object' && item !== null && isPlain(item)) {
      for (const [key, child] of Object.entries(item)) {
        const childPlace = { key, parent: place };
        if (key.includes('\0')) return `${part}: ${nameOf(childPlace)}`;
        pending.push([child, childPlace]);
      }
    }
  }
  return undefined;
}

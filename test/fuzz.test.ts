import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { projectRoot } from '../src/server/version.js';
import { createArea, createCard } from './factories.js';
import { BASE_URL, eachDialect, type TestUser } from './harness.js';
import { multipart } from './multipart.js';

/**
 * Every operation of the OpenAPI document gets hostile input, one value at a
 * time with the rest valid: each query parameter, path parameter and body
 * property (nested ones too), then broken and oddly typed bodies, signed in
 * and signed out. Nothing may answer 5xx or show a stack trace or a path of
 * the server, and the service must still be healthy afterwards. The values
 * and their order are fixed, so a run is the same every time.
 */

interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  anyOf?: Schema[];
  minimum?: number;
  minLength?: number;
  format?: string;
}

interface Operation {
  method: string;
  /** The OpenAPI path, `{name}` for path parameters. */
  path: string;
  query: Array<{ name: string; schema: Schema; required: boolean }>;
  pathParams: string[];
  body?: Schema;
  multipart: boolean;
  /** Slow routes (password hashing) get the few values that reach past their own checks. */
  few?: boolean;
}

type Json = Record<string, unknown>;
type Key = string | number;

const LONG = 'x'.repeat(70_000);
const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};

/** Values for a JSON property. */
const hostileJson: Array<[string, unknown]> = [
  ['null', null],
  ['true', true],
  ['an empty array', []],
  ['an array', [1, 'a']],
  ['an empty object', {}],
  ['an object', { a: 1 }],
  ['a __proto__ key', JSON.parse('{"__proto__":{"polluted":true}}')],
  ['a constructor key', { constructor: { prototype: { polluted: true } } }],
  ['0', 0],
  ['-1', -1],
  ['1.5', 1.5],
  ['2^31', 2_147_483_648],
  ['-2^31 - 1', -2_147_483_649],
  ['2^53', 2 ** 53],
  ['1e308', 1e308],
  ['-1e308', -1e308],
  ['"1"', '1'],
  ['"2147483648"', '2147483648'],
  ['""', ''],
  ['blanks', '   '],
  ['70,000 characters', LONG],
  ['NUL', 'a\u0000b'],
  ['bidi controls', '\u202Eexe.txt\u202C'],
  ['a lone surrogate', '\ud800'],
  ['"__proto__"', '__proto__'],
  ['nesting 1,000 deep', nested(1000)],
];

const fewLabels = ['null', 'an object', '70,000 characters', 'NUL', 'a lone surrogate', 'nesting 1,000 deep'];

/** Values for a query parameter: text, a repeated parameter, or raw (already encoded) text. */
const hostileQuery: Array<[string, string | string[] | { raw: string }]> = [
  ['empty', ''],
  ['null', 'null'],
  ['repeated', ['1', '2']],
  ['0', '0'],
  ['-1', '-1'],
  ['1.5', '1.5'],
  ['2^31', '2147483648'],
  ['-2^31 - 1', '-2147483649'],
  ['2^53 + 1', '9007199254740993'],
  ['1e400', '1e400'],
  ['0x10', '0x10'],
  ['NaN', 'NaN'],
  ['Infinity', 'Infinity'],
  ['padded', ' 1 '],
  ['true', 'true'],
  ['70,000 characters', LONG],
  ['NUL', 'a\u0000b'],
  ['bidi controls', '\u202Eexe.txt\u202C'],
  ['__proto__', '__proto__'],
  ['broken percent-encoding', { raw: '%E0%A4%A' }],
  ['a lone surrogate', { raw: '%ED%A0%80' }],
];

/** Values for a path parameter, already encoded. */
const hostilePath: Array<[string, string]> = [
  ['dot-dot', '..'],
  ['a path', encodeURIComponent('../../package.json')],
  ['NUL', '%00'],
  ['bidi controls', encodeURIComponent('\u202Eexe.txt\u202C')],
  ['broken percent-encoding', '%E0%A4%A'],
  ['70,000 characters', LONG],
  ['__proto__', '__proto__'],
];

/** Whole bodies that are not what a JSON route expects. */
const hostileBodies: Array<[string, { payload: string | Buffer; contentType?: string }]> = [
  ['truncated JSON', { payload: '{"a":' }],
  ['single-quoted JSON', { payload: "{'a':1}" }],
  ['null', { payload: 'null' }],
  ['an array', { payload: '[]' }],
  ['a number', { payload: '1' }],
  ['a string', { payload: '"text"' }],
  ['a __proto__ key', { payload: '{"__proto__":{"polluted":true},"a":1}' }],
  ['a constructor key', { payload: '{"constructor":{"prototype":{"polluted":true}}}' }],
  ['arrays 100,000 deep', { payload: '['.repeat(100_000) + ']'.repeat(100_000) }],
  ['objects 20,000 deep', { payload: '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000) }],
  ['invalid UTF-8', { payload: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]) }],
  ['a byte order mark', { payload: '\ufeff{}' }],
  ['more than 1 MB', { payload: JSON.stringify({ a: 'x'.repeat(1_100_000) }) }],
  ['text/plain', { payload: '{}', contentType: 'text/plain' }],
  ['a form', { payload: 'a=1', contentType: 'application/x-www-form-urlencoded' }],
  ['multipart without a boundary', { payload: '--x\r\n', contentType: 'multipart/form-data' }],
  ['broken multipart', { payload: '--x\r\ngarbage', contentType: 'multipart/form-data; boundary=x' }],
  ['JSON declared UTF-16', { payload: '{}', contentType: 'application/json; charset=utf-16' }],
  ['no content type', { payload: '{}', contentType: '' }],
];

const text: Schema = { type: 'string' };
/** better-auth's routes are not in the document, but take the same hostile input. */
const accountOps: Operation[] = [
  {
    method: 'POST',
    path: '/api/auth/sign-in/email',
    query: [],
    pathParams: [],
    body: { type: 'object', required: ['email', 'password'], properties: { email: text, password: text } },
    multipart: false,
    few: true,
  },
  {
    method: 'POST',
    path: '/api/auth/sign-up/email',
    query: [],
    pathParams: [],
    body: { type: 'object', required: ['name', 'email', 'password'], properties: { name: text, email: text, password: text } },
    multipart: false,
    few: true,
  },
];

let signUps = 0;

/** Fields the base body of an operation carries beyond the required ones, so that it gets past the first check. */
const extraFields = (op: Operation, w: World): Json =>
  (
    ({
      'POST /api/data/board': { userId: w.owner.id, name: 'Fuzz', style: 'kanban', status: 'private' },
      'POST /api/data/invite': { mail: 'someone@example.test' },
      'POST /api/invitations/{token}/accept': { name: 'Fuzz', password: 'long enough password' },
      'POST /api/auth/sign-in/email': { email: w.owner.email, password: 'wrong password' },
      'POST /api/auth/sign-up/email': { email: `fuzz${++signUps}@example.test`, password: 'long enough password' },
    }) as Record<string, Json>
  )[`${op.method} ${op.path}`] ?? {};

interface World {
  owner: TestUser;
  boardId: number;
  areaId: number;
  cardId: number;
  commentId: number;
}

/** The valid value of a named field in an operation: the ids of the world where there is one. */
function fixture(op: Operation, name: string, w: World): unknown {
  switch (name) {
    case 'boardId':
      return w.boardId;
    case 'areaId':
    case 'fromAreaId':
    case 'toAreaId':
      return w.areaId;
    case 'cardId':
    case 'cardID':
      return w.cardId;
    case 'userId':
      return w.owner.id;
    case 'token':
      return '0'.repeat(64);
    case 'name':
      return op.pathParams.includes('name') ? 'missing.png' : 'Fuzz';
    case 'id': {
      const last = op.path.split('/').at(-1);
      if (last === 'board') return w.boardId;
      if (last === 'area') return w.areaId;
      if (last === 'comment') return w.commentId;
      if (last === 'archive') return w.cardId;
      return 1;
    }
    default:
      return undefined;
  }
}

/** Some valid value of a schema. */
function sample(schema: Schema): unknown {
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf) return sample(schema.anyOf[0]!);
  switch (schema.type) {
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'string':
      return schema.format === 'date-time' ? '2030-01-01T00:00:00.000Z' : 'a'.repeat(Math.max(1, schema.minLength ?? 1));
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return Object.fromEntries((schema.required ?? []).map((k) => [k, sample(schema.properties![k]!)]));
    default:
      return null;
  }
}

/** The object or array branch of a schema (through `anyOf`), if it has one. */
function container(schema: Schema | undefined): Schema | undefined {
  if (!schema) return undefined;
  if (schema.type === 'object' || schema.type === 'array') return schema;
  return schema.anyOf?.map(container).find(Boolean);
}

/** Every place in a body schema a value can go: each property, and the first item of each array, recursively. */
function placesIn(schema: Schema, prefix: Key[] = []): Key[][] {
  const places: Key[][] = [];
  const inner = container(schema);
  if (inner?.type === 'object') {
    for (const [name, property] of Object.entries(inner.properties ?? {})) {
      places.push([...prefix, name], ...placesIn(property, [...prefix, name]));
    }
  } else if (inner?.type === 'array' && inner.items) {
    places.push([...prefix, 0], ...placesIn(inner.items, [...prefix, 0]));
  }
  return places;
}

/** A copy of `base` with `value` at `place`, building the valid containers on the way. */
function withValue(base: Json, schema: Schema, place: Key[], value: unknown): Json {
  const root = structuredClone(base);
  let node = root as Record<Key, unknown>;
  let nodeSchema = container(schema)!;
  for (const key of place.slice(0, -1)) {
    const childSchema = container(typeof key === 'number' ? nodeSchema.items : nodeSchema.properties?.[key])!;
    const child = node[key];
    if (child === undefined || child === null || (Array.isArray(child) && child.length === 0)) {
      node[key] = childSchema.type === 'array' ? [sample(childSchema.items!)] : sample(childSchema);
    }
    node = node[key] as Record<Key, unknown>;
    nodeSchema = childSchema;
  }
  node[place.at(-1)!] = value;
  return root;
}

function operationsOf(doc: {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: Array<{ in: string; name: string; schema: Schema; required?: boolean }>;
        requestBody?: { content: Record<string, { schema: Schema }> };
      }
    >
  >;
}): Operation[] {
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const parameters = op.parameters ?? [];
      const content = op.requestBody?.content ?? {};
      ops.push({
        method: method.toUpperCase(),
        path,
        query: parameters
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: p.name, schema: p.schema, required: p.required === true })),
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        body: content['application/json']?.schema,
        // The upload routes read multipart themselves, so the document has no body for them.
        multipart: method === 'post' && !op.requestBody,
      });
    }
  }
  return ops;
}

function encodeQuery(entries: Array<[string, string | string[] | { raw: string }]>): string {
  const parts: string[] = [];
  for (const [name, value] of entries) {
    if (typeof value === 'object' && !Array.isArray(value)) parts.push(`${encodeURIComponent(name)}=${value.raw}`);
    else for (const v of [value].flat()) parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(v)}`);
  }
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}

function errorOf(res: LightMyRequestResponse): unknown {
  try {
    const { error, jsonrpc } = res.json<{ error?: unknown; jsonrpc?: unknown }>();
    // The MCP endpoint speaks JSON-RPC: its refusals are `{jsonrpc, error: {code, message}}`, as MCP clients expect.
    if (jsonrpc === '2.0' && typeof error === 'object' && error !== null) return (error as { message?: unknown }).message;
    return error;
  } catch {
    return undefined;
  }
}

/** What must never be in an answer: a stack frame, a source location, a path of the server. */
function leak(body: string): string | undefined {
  if (body.includes(projectRoot)) return 'the project path';
  if (/node_modules/.test(body)) return 'node_modules';
  if (/\bat [\w$.<>]+ \(|\.[jt]s:\d+:\d+/.test(body)) return 'a stack frame';
  if (/SQLITE_|violates|duplicate key|syntax error at|out of range for type|invalid byte sequence/i.test(body)) {
    return 'a database message';
  }
  return undefined;
}

eachDialect('fuzz', (t) => {
  let ops: Operation[] = [];
  let owner: TestUser;
  let world: World;

  const build = async (): Promise<World> => {
    const board = await t.createBoard(owner, { name: 'Fuzz' });
    const area = await createArea(t, owner, board.id);
    const card = await createCard(t, owner, area.id as number);
    const comment = await t.inject(owner, {
      method: 'POST',
      url: '/api/data/comment',
      payload: { cardId: card.id, content: 'hello' },
    });
    return {
      owner,
      boardId: board.id,
      areaId: area.id as number,
      cardId: card.id as number,
      commentId: comment.json<{ comment: { id: number } }>().comment.id,
    };
  };

  beforeAll(async () => {
    owner = await t.signUp('Fuzz Owner');
    world = await build();
    const doc = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    ops = [...operationsOf(doc.json()), ...accountOps];
  });

  /** Sends one request and notes what is wrong with the answer; a successful delete gets a fresh world. */
  const send = async (
    failures: string[],
    label: string,
    op: Operation,
    options: InjectOptions & { url: string },
    as: 'user' | 'nobody' = 'user',
  ): Promise<LightMyRequestResponse> => {
    const headers: Record<string, string> = { ...(options.headers as Record<string, string>) };
    if (as === 'user') {
      // Keys are managed from a signed-in session only; everything else is asked with the key.
      if (op.path.startsWith('/api/auth/')) Object.assign(headers, { cookie: owner.cookie, origin: BASE_URL });
      else headers['x-api-key'] = owner.key;
    }
    let payload = options.payload;
    if (payload !== undefined && typeof payload !== 'string' && !Buffer.isBuffer(payload)) {
      // Serialised here: light-my-request walks an object payload recursively, and deep ones are part of the test.
      payload = JSON.stringify(payload);
      headers['content-type'] ??= 'application/json';
    }
    const res = await t.app.inject({ ...options, payload, method: op.method as InjectOptions['method'], headers });
    const what = `${op.method} ${options.url.slice(0, 120)} (${label}, ${as})`;
    if (res.statusCode >= 500) failures.push(`${what}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    const leaked = leak(res.body);
    if (leaked) failures.push(`${what}: shows ${leaked}`);
    if (res.statusCode >= 400 && typeof errorOf(res) !== 'string') failures.push(`${what}: ${res.statusCode} without {error}`);
    if (op.method === 'DELETE' && res.statusCode < 300) world = await build();
    return res;
  };

  const pathOf = (op: Operation, override: Record<string, string> = {}) =>
    op.path.replace(/\{(\w+)\}/g, (_m, name: string) => override[name] ?? String(fixture(op, name, world)));

  const validQuery = (op: Operation): Array<[string, string]> =>
    op.query.flatMap((p) => {
      if (!p.required) return [];
      const value = fixture(op, p.name, world) ?? sample(p.schema);
      return [[p.name, String(value)] as [string, string]];
    });

  const validBody = (op: Operation): Json => {
    const body = sample(op.body ?? { type: 'object' }) as Json;
    for (const name of Object.keys(body)) {
      const value = fixture(op, name, world);
      if (value !== undefined) body[name] = value;
    }
    if (op.method === 'PATCH' && op.path === '/api/data/board') body.areas = [{ id: world.areaId }];
    return { ...body, ...extraFields(op, world) };
  };

  it('finds the operations of the OpenAPI document', () => {
    expect(ops.length).toBeGreaterThan(40);
    expect(ops.filter((op) => op.body).length).toBeGreaterThan(15);
  });

  it('answers hostile query and path parameters without a 5xx or a leak', async () => {
    const failures: string[] = [];
    for (const op of ops) {
      for (const param of op.query) {
        for (const [label, value] of hostileQuery) {
          const entries: Array<[string, string | string[] | { raw: string }]> = [
            ...validQuery(op).filter(([name]) => name !== param.name),
            [param.name, value],
          ];
          const payload = op.body ? validBody(op) : undefined;
          await send(failures, `${param.name} ${label}`, op, { url: pathOf(op) + encodeQuery(entries), payload });
        }
      }
      // Names that only a careless merge into a plain object would notice.
      await send(failures, 'prototype keys', op, {
        url: pathOf(op) + encodeQuery([...validQuery(op), ['__proto__', 'x'], ['constructor', 'x'], ['toString', 'x']]),
        payload: op.body ? validBody(op) : undefined,
      });
      for (const name of op.pathParams) {
        for (const [label, value] of hostilePath) {
          await send(failures, `${name} ${label}`, op, { url: pathOf(op, { [name]: value }) + encodeQuery(validQuery(op)) });
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers hostile body properties without a 5xx or a leak', async () => {
    const failures: string[] = [];
    for (const op of ops.filter((o) => o.body)) {
      const values = op.few ? hostileJson.filter(([label]) => fewLabels.includes(label)) : hostileJson;
      for (const place of placesIn(op.body!)) {
        for (const [label, value] of values) {
          const payload = withValue(validBody(op), op.body!, place, value);
          await send(failures, `${place.join('.')} ${label}`, op, { url: pathOf(op) + encodeQuery(validQuery(op)), payload });
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers broken bodies and wrong content types without a 5xx or a leak', async () => {
    const failures: string[] = [];
    for (const op of ops.filter((o) => o.method !== 'GET')) {
      for (const [label, { payload, contentType = 'application/json' }] of hostileBodies) {
        await send(failures, label, op, {
          url: pathOf(op) + encodeQuery(validQuery(op)),
          payload,
          headers: contentType ? { 'content-type': contentType } : {},
        });
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers hostile multipart fields without a 5xx or a leak', async () => {
    const failures: string[] = [];
    const file = { name: 'file', filename: 'a.png', type: 'image/png', data: Buffer.from('not really a picture') };
    for (const op of ops.filter((o) => o.multipart)) {
      const fieldName = op.path.endsWith('/attachment') ? 'cardId' : 'boardId';
      const values: Array<[string, string]> = [
        ...hostileQuery.flatMap(([label, v]) => (typeof v === 'string' ? [[label, v] as [string, string]] : [])),
        ['valid', String(fieldName === 'cardId' ? world.cardId : world.boardId)],
      ];
      for (const [label, value] of values) {
        const body = multipart([{ name: fieldName, value }, file]);
        await send(failures, `${fieldName} ${label}`, op, { url: pathOf(op), payload: body.payload, headers: body.headers });
      }
      const filenames = ['', '..', '../../x', 'a\u0000b', '\u202Eexe.txt', 'x'.repeat(5000)];
      for (const filename of filenames) {
        const body = multipart([
          { name: fieldName, value: String(fieldName === 'cardId' ? world.cardId : world.boardId) },
          { ...file, filename },
        ]);
        await send(failures, `filename ${JSON.stringify(filename.slice(0, 20))}`, op, {
          url: pathOf(op),
          payload: body.payload,
          headers: body.headers,
        });
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers hostile requests from nobody with a refusal, never a 5xx or a leak', async () => {
    const failures: string[] = [];
    const some = hostileQuery.filter(([label]) => ['2^31', 'NUL', '70,000 characters', 'repeated'].includes(label));
    for (const op of ops) {
      for (const param of op.query) {
        for (const [label, value] of some) {
          const entries: Array<[string, string | string[] | { raw: string }]> = [
            ...validQuery(op).filter(([name]) => name !== param.name),
            [param.name, value],
          ];
          await send(failures, `${param.name} ${label}`, op, { url: pathOf(op) + encodeQuery(entries) }, 'nobody');
        }
      }
      if (op.method === 'GET') continue;
      for (const [label, { payload, contentType = 'application/json' }] of hostileBodies.slice(0, 10)) {
        await send(
          failures,
          label,
          op,
          { url: pathOf(op), payload, headers: contentType ? { 'content-type': contentType } : {} },
          'nobody',
        );
      }
    }
    expect(failures).toEqual([]);
  });

  it('is healthy afterwards and still answers ordinary requests', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok', database: 'ok' });
    const board = await t.inject(owner, { method: 'GET', url: `/api/data/board?id=${world.boardId}&userId=${owner.id}` });
    expect(board.statusCode).toBe(200);
    const card = await t.inject(owner, {
      method: 'POST',
      url: '/api/data/card',
      payload: { areaId: world.areaId, name: 'After' },
    });
    expect(card.statusCode).toBe(200);
    const cards = await t.inject(owner, { method: 'GET', url: `/api/data/cards?areaId=${world.areaId}` });
    expect(cards.json<{ cards: Array<{ name: string }> }>().cards.map((c) => c.name)).toContain('After');
  });
});

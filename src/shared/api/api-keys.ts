import { Type, type Static } from 'typebox';

/** An API key as listed: never its secret. */
export const ApiKey = Type.Object({
  id: Type.String(),
  name: Type.String(),
  start: Type.String(),
  readOnly: Type.Boolean(),
  createdAt: Type.String(),
  lastUsedAt: Type.Union([Type.String(), Type.Null()]),
});
export type ApiKey = Static<typeof ApiKey>;

/** The answer that made a key: the only one that carries the secret. */
export const ApiKeyCreated = Type.Intersect([ApiKey, Type.Object({ key: Type.String() })]);
export type ApiKeyCreated = Static<typeof ApiKeyCreated>;

import { Type } from 'typebox';

/** The largest id, and the largest integer a column holds: PostgreSQL's `integer` is 32-bit signed. */
export const MAX_ID = 2_147_483_647;
/** A row id: anything outside 1..MAX_ID is refused by the schema (400) instead of failing in the database. */
export const Id = Type.Integer({ minimum: 1, maximum: MAX_ID });
/** A position in a list, counted from 0; beyond the end means the end. */
export const Position = Type.Integer({ minimum: 0, maximum: MAX_ID });
/** The same bound for ids that arrive without a schema (a WebSocket frame, a multipart field). */
export const isId = (value: unknown): value is number =>
  Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_ID;
export const ErrorBody = Type.Object({ error: Type.String() }, { description: 'What went wrong' });
export const Message = Type.Object({ message: Type.String() });
export const Success = Type.Object({ success: Type.Boolean() });
export const NullableString = Type.Union([Type.String(), Type.Null()]);

/** The refusals every data route can answer with. */
export const errorResponses = {
  400: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
};

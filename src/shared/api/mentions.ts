import { Type, type Static } from 'typebox';
import { NullableString } from './common.js';

/** Someone a mention can name: an account that can read the board. */
export const MentionablePerson = Type.Object({
  id: Type.String(),
  name: Type.String(),
  image: NullableString,
});
export type MentionablePerson = Static<typeof MentionablePerson>;

/** At most this many people answer one `GET /mentionable`. */
export const MENTIONABLE_MAX = 10;

import { Type, type Static } from 'typebox';
import { Id, NullableString } from './common.js';

/** Most feeds one account may hold, and most boards one feed may add. */
export const MAX_ICAL_FEEDS = 20;
export const MAX_ICAL_FEED_BOARDS = 50;

/** A calendar feed as listed: never its secret. */
export const IcalFeed = Type.Object({
  id: Type.String(),
  name: Type.String(),
  start: Type.String({ description: 'The first characters of the secret address, to tell feeds apart' }),
  boardIds: Type.Array(Type.Integer(), { description: 'Boards whose every open dated card the feed also holds' }),
  createdAt: Type.String(),
  lastUsedAt: NullableString,
});
export type IcalFeed = Static<typeof IcalFeed>;

export const IcalFeedCreate = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  boardIds: Type.Optional(
    Type.Array(Id, {
      maxItems: MAX_ICAL_FEED_BOARDS,
      description: 'Also every open card with a due date on these boards (while I can read them), not only mine',
    }),
  ),
});
export type IcalFeedCreate = Static<typeof IcalFeedCreate>;

export const IcalFeedCreated = Type.Object({
  feed: IcalFeed,
  url: Type.String({ description: 'The secret feed address; shown only now' }),
});
export type IcalFeedCreated = Static<typeof IcalFeedCreated>;

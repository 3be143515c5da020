import { Type, type Static } from 'typebox';
import { NullableString } from './common.js';
import { CardFields, Field } from './fields.js';

/** A board's public link as its owner sees it: the address only in the answer that made it. */
export const PublicLinkState = Type.Object({
  link: Type.Union([
    Type.Object({
      url: Type.Optional(Type.String({ description: 'the whole address; only in the answer that created the link' })),
      createdAt: Type.String(),
    }),
    Type.Null(),
  ]),
});
export type PublicLinkState = Static<typeof PublicLinkState>;

export const PublicCard = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  html: Type.String({ description: 'the card text rendered: raw HTML off, only http(s), mailto and relative links' }),
  status: Type.Integer({ description: '0 open, 1 done' }),
  dueDate: NullableString,
  labels: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() })),
  checklist: Type.Object({ done: Type.Integer(), total: Type.Integer() }),
  fields: CardFields,
});
export type PublicCard = Static<typeof PublicCard>;

/** What anyone holding a public link sees: the board and its visible cards, nobody's name or address. */
export const PublicBoard = Type.Object({
  board: Type.Object({
    name: Type.String(),
    style: Type.String(),
    color: NullableString,
    image: Type.Union([Type.String({ description: 'an outside http(s) cover image' }), Type.Null()]),
  }),
  version: Type.Integer({ description: 'rises with every change to the board' }),
  areas: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), cards: Type.Array(PublicCard) })),
  fields: Type.Array(Field, { description: 'the custom fields the cards’ `fields` values belong to, in order' }),
});
export type PublicBoard = Static<typeof PublicBoard>;

/** Where a pasted picture of the board is served to a holder of its public link. */
export const publicImagePath = (token: string, storedName: string) => `/api/public/${token}/image/${storedName}`;

/**
 * A change to a public board, reshaped for viewers without an account: the
 * same fields as the first load (`PublicBoard`), never a person or an actor.
 */
export type PublicChange =
  /** A card appeared or changed: replace it where it is, or put it at `index` of `areaId`. */
  | { name: 'card.changed'; areaId: number; index: number; card: PublicCard }
  | { name: 'card.moved'; cardId: number; toAreaId: number; newIndex: number }
  /** Archived or deleted. */
  | { name: 'card.removed'; cardId: number }
  | { name: 'area.renamed'; areaId: number; areaName: string }
  /** Archived or deleted, with its cards. */
  | { name: 'area.removed'; areaId: number }
  | { name: 'areas.reordered'; areaIds: number[] }
  | { name: 'board.changed'; board: PublicBoard['board'] };

/** What `GET /api/public/<token>/realtime` sends; the viewer sends nothing. */
export type PublicServerMessage =
  /** Connected at this version of the board: a page that has an older one reads it again. */
  | { type: 'ready'; version: number }
  | { type: 'change'; version: number; change: PublicChange }
  /** Something changed that the page cannot apply by itself: read the board again. */
  | { type: 'reload'; version: number };

/** The close code of a public socket whose link stopped working (revoked, replaced, board archived or removed). */
export const CLOSE_LINK_GONE = 4404;

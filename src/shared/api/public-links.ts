import { Type, type Static } from 'typebox';
import { NullableString } from './common.js';

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
});
export type PublicBoard = Static<typeof PublicBoard>;

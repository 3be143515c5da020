import { Type, type Static } from 'typebox';
import { COMMENT_MAX_LENGTH } from '../limits.js';
import { Id, NullableString } from './common.js';

export const CommentAuthor = Type.Object({ id: Type.String(), name: Type.String(), image: NullableString });

/** A comment on a card as every comment route (and the realtime events) answer with it. */
export const Comment = Type.Object({
  id: Type.Integer(),
  author: Type.Union([CommentAuthor, Type.Null()], { description: 'null when the account is gone or the comment was imported' }),
  authorName: Type.Union([Type.String(), Type.Null()], {
    description: "the author's name; kept for comments whose account is gone",
  }),
  content: Type.String({ description: 'Markdown as written' }),
  html: Type.String({ description: '`content` rendered: raw HTML off, only http(s), mailto and relative links' }),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export type Comment = Static<typeof Comment>;

const Content = Type.String({ description: `Markdown, 1–${COMMENT_MAX_LENGTH} characters after trimming` });

export const CommentCreate = Type.Object({ cardId: Id, content: Content });
export type CommentCreate = Static<typeof CommentCreate>;

export const CommentUpdate = Type.Object({ id: Id, content: Content });
export type CommentUpdate = Static<typeof CommentUpdate>;

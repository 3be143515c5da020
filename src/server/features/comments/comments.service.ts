import type { Comment, CommentCreate, CommentUpdate } from '../../../shared/api/comments.js';
import { COMMENT_MAX_LENGTH, COMMENT_PAGE_MAX } from '../../../shared/limits.js';
import { redactEvents } from '../../realtime/event-log.js';
import { mentionsAsText } from '../../../shared/mentions.js';
import type { Actor } from '../../auth/actor.js';
import { boardIdOf, requireBoard, missing } from '../../access/index.js';
import type { Db } from '../../db/database.js';
import { nowIso } from '../../db/dialect.js';
import type { Deps, ServiceDeps } from '../../deps.js';
import { writeBoard } from '../../events/board-write.js';
import { badRequest, forbidden } from '../../http/errors.js';
import { recordActivity } from '../activity/activity.service.js';
import { writableCard } from '../cards/guards.js';
import { presentComment } from './comments.presenter.js';
import * as repo from './comments.repository.js';

/** The trimmed Markdown, or 400 when it is blank or longer than the limit (counted in characters, as JSON Schema does). */
function validContent(raw: string): string {
  const content = raw.trim();
  if (content === '') throw badRequest('body: content must not be blank');
  if (content.length > COMMENT_MAX_LENGTH) {
    let characters = 0;
    for (const _ of content)
      if (++characters > COMMENT_MAX_LENGTH) throw badRequest(`body: content must be at most ${COMMENT_MAX_LENGTH} characters`);
  }
  return content;
}

/**
 * A page of a card's comments: the newest `limit` (older than the comment
 * `before`, when given), oldest first. Archived cards too: reads still work
 * for those with access.
 */
export async function listComments(
  deps: Pick<Deps, 'database'>,
  actor: Actor,
  cardId: number,
  page: { limit?: number; before?: number } = {},
): Promise<Comment[]> {
  const { db } = deps.database;
  const boardId = await boardIdOf(db, 'cards', cardId);
  await requireBoard(db, actor, boardId, 'read', { subject: 'Card' });
  const rows = await repo.commentsOfCard(db, cardId, { limit: page.limit ?? COMMENT_PAGE_MAX, before: page.before });
  return rows.map(presentComment);
}

async function loadComment(db: Db, id: number): Promise<Comment> {
  const row = await repo.findComment(db, id);
  if (!row) throw missing('Comment');
  return presentComment(row);
}

export async function createComment(deps: ServiceDeps, actor: Actor, input: CommentCreate): Promise<Comment> {
  const content = validContent(input.content);
  const boardId = await boardIdOf(deps.database.db, 'cards', input.cardId);
  return writeBoard(deps, actor, { boardId, subject: 'Card' }, 'edit', async (scope) => {
    const { trx, board, actor, emit } = scope;
    const card = await writableCard(trx, board.id, input.cardId);
    const now = nowIso();
    const id = await repo.insertComment(trx, {
      cardId: card.id,
      userId: actor.id,
      authorName: actor.name,
      content,
      createdAt: now,
      updatedAt: now,
    });
    await recordActivity(trx, card.id, actor.id, 'comment', { commentId: id });
    const comment = await loadComment(trx, id);
    emit('comment.created', { cardId: card.id, comment });
    // Told first: whom the comment mentions hear of it once, as a mention, not as a comment.
    scope.tell('text.mentioned', { cardId: card.id, card: card.name, commentId: id, before: '', after: content });
    scope.tell('comment.written', { cardId: card.id, card: card.name, excerpt: excerpt(content) });
    return comment;
  });
}

/** The start of a comment as one line of plain-ish text, for a notification. */
function excerpt(markdown: string): string {
  const flat = mentionsAsText(markdown).replace(/\s+/g, ' ').trim();
  return flat.length > 140 ? `${flat.slice(0, 139)}…` : flat;
}

/** The board a comment is on, or 404: the access check then runs on that board. */
async function boardOfComment(db: Db, id: number): Promise<number> {
  const row = await repo.findComment(db, id);
  if (!row) throw missing('Comment');
  return row.boardId;
}

/** The caller's own comment on a card that can take changes: 404 when gone, 403 for anyone but the author, 409 when archived. */
async function ownComment(trx: Db, boardId: number, actor: Actor, id: number): Promise<repo.CommentRecord> {
  const comment = await repo.findComment(trx, id);
  if (!comment || comment.boardId !== boardId) throw missing('Comment');
  if (comment.userId === null || comment.userId !== actor.id) throw forbidden('Only the author can change a comment');
  await writableCard(trx, boardId, comment.cardId);
  return comment;
}

export async function updateComment(deps: ServiceDeps, actor: Actor, input: CommentUpdate): Promise<Comment> {
  const content = validContent(input.content);
  const boardId = await boardOfComment(deps.database.db, input.id);
  return writeBoard(deps, actor, { boardId, subject: 'Comment' }, 'edit', async (scope) => {
    const { trx, board, actor, emit } = scope;
    const own = await ownComment(trx, board.id, actor, input.id);
    await repo.updateCommentContent(trx, own.id, content, nowIso());
    const comment = await loadComment(trx, own.id);
    emit('comment.updated', { cardId: own.cardId, comment });
    if (content !== own.content) {
      const card = await writableCard(trx, board.id, own.cardId);
      scope.tell('text.mentioned', { cardId: card.id, card: card.name, commentId: own.id, before: own.content, after: content });
    }
    return comment;
  });
}

export async function deleteComment(deps: ServiceDeps, actor: Actor, id: number): Promise<void> {
  const boardId = await boardOfComment(deps.database.db, id);
  await writeBoard(deps, actor, { boardId, subject: 'Comment' }, 'edit', async ({ trx, board, actor, emit }) => {
    const own = await ownComment(trx, board.id, actor, id);
    await repo.deleteCommentRow(trx, own.id);
    await redactEvents(trx, board.id, { commentIds: [own.id] });
    emit('comment.deleted', { cardId: own.cardId, commentId: own.id });
  });
}

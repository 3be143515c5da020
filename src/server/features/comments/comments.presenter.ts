import type { Comment } from '../../../shared/api/comments.js';
import { toIso } from '../../db/dialect.js';
import { renderedHtml } from '../../markdown/rendered-html.js';
import type { CommentRecord } from './comments.repository.js';

/** Row → API shape; `html` is the Markdown rendered, `authorName` the live name while the account exists. */
export function presentComment(row: CommentRecord): Comment {
  const author =
    row.userId !== null && row.userName !== null ? { id: row.userId, name: row.userName, image: row.userImage } : null;
  return {
    id: row.id,
    author,
    authorName: author?.name ?? row.authorName,
    content: row.content,
    html: renderedHtml({ kind: 'comment', id: row.id, updatedAt: row.updatedAt }, row.content),
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
  };
}

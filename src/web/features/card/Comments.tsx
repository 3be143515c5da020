import { MentionTextarea } from './MentionTextarea';
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { COMMENT_MAX_LENGTH, COMMENT_PAGE_MAX } from '../../../shared/limits.js';
import { addComment, deleteComment, editComment, loadOlderComments } from './api';
import { commentsQuery } from '../../api/queries';
import type { Comment } from '../../api/types';
import { useUser } from '../../app/session';
import { Avatar } from '../../components/Avatar';
import { ConfirmDialog } from '../../components/Dialog';
import { dateTime, relativeTime } from '../board/dates';
import { MarkdownView } from './Description';
import { LengthHint } from './LengthHint';

/**
 * A card's comments, newest on top; Markdown; the author may edit or delete
 * their own. The newest page comes first, older pages on request.
 */
export function Comments({ cardId, boardId, writeAccess }: { cardId: number; boardId: number; writeAccess: boolean }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const comments = useQuery(commentsQuery(cardId));
  const [draft, setDraft] = useState('');
  const [busy, setBusy] = useState(false);
  // The id of the card's first comment, once a page has come back short: nothing is older.
  const [firstId, setFirstId] = useState<number | null>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const shown = comments.data ?? [];
  const oldest = shown[0];
  const hasOlder = oldest !== undefined && oldest.id !== firstId && shown.length >= COMMENT_PAGE_MAX;

  const showOlder = async () => {
    if (!oldest || loadingOlder) return;
    setLoadingOlder(true);
    const older = await loadOlderComments(qc, cardId, oldest.id);
    if (older && older.length < COMMENT_PAGE_MAX) setFirstId((older[0] ?? oldest).id);
    setLoadingOlder(false);
  };

  const submit = async () => {
    const content = draft.trim();
    if (!content || busy) return;
    setBusy(true);
    if (await addComment(qc, cardId, content)) setDraft('');
    setBusy(false);
  };

  return (
    <div className="comments">
      {writeAccess && (
        <form
          className="comment-form"
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <MentionTextarea
            boardId={boardId}
            className="textarea comment-input"
            aria-label={t('card.writeComment')}
            placeholder={t('card.writeComment')}
            value={draft}
            maxLength={COMMENT_MAX_LENGTH}
            onValueChange={setDraft}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) {
                e.preventDefault();
                void submit();
              }
            }}
          />
          {draft.trim() && (
            <div className="row">
              <button type="submit" className="btn btn-primary btn-sm" disabled={busy}>
                {t('card.comment')}
              </button>
              <span className="hint">{t('card.markdownHint')}</span>
              <LengthHint used={draft.length} max={COMMENT_MAX_LENGTH} />
            </div>
          )}
        </form>
      )}
      {comments.isPending && <div className="spinner" />}
      {comments.data?.length === 0 && !writeAccess && <p className="hint">{t('card.noComments')}</p>}
      <ol className="comment-list">
        {[...(comments.data ?? [])].reverse().map((comment) => (
          <CommentItem key={comment.id} cardId={cardId} boardId={boardId} comment={comment} />
        ))}
      </ol>
      {hasOlder && (
        <button type="button" className="btn btn-ghost btn-sm" onClick={() => void showOlder()} disabled={loadingOlder}>
          {t('card.olderComments')}
        </button>
      )}
    </div>
  );
}

function CommentItem({ cardId, boardId, comment }: { cardId: number; boardId: number; comment: Comment }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const me = useUser();
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(comment.content);
  const [confirming, setConfirming] = useState(false);
  const mine = comment.author?.id === me.id;
  const name = comment.author?.name ?? comment.authorName ?? t('card.formerUser');
  const edited = comment.updatedAt !== comment.createdAt;

  return (
    <li className="comment">
      <Avatar person={comment.author ?? { id: name, name, image: null }} size="lg" />
      <div className="comment-body">
        <div className="comment-head">
          <strong>{name}</strong>
          <time dateTime={comment.createdAt} title={dateTime(comment.createdAt)}>
            {relativeTime(comment.createdAt)}
          </time>
          {edited && <span className="hint">{t('card.edited')}</span>}
        </div>
        {editing ? (
          <form
            className="comment-form"
            onSubmit={(e) => {
              e.preventDefault();
              const content = text.trim();
              if (!content) return;
              setEditing(false);
              void editComment(qc, cardId, comment, content);
            }}
          >
            <MentionTextarea
              boardId={boardId}
              className="textarea comment-input"
              aria-label={t('card.editComment')}
              value={text}
              autoFocus
              maxLength={COMMENT_MAX_LENGTH}
              onValueChange={setText}
              onKeyDown={(e) => {
                if (e.key === 'Escape') {
                  e.preventDefault();
                  e.stopPropagation();
                  setEditing(false);
                }
              }}
            />
            <div className="row">
              <button type="submit" className="btn btn-primary btn-sm">
                {t('common.save')}
              </button>
              <button type="button" className="btn btn-ghost btn-sm" onClick={() => setEditing(false)}>
                {t('common.cancel')}
              </button>
              <LengthHint used={text.length} max={COMMENT_MAX_LENGTH} />
            </div>
          </form>
        ) : (
          <div className="comment-content">
            <MarkdownView content={comment.content} interactive={false} />
          </div>
        )}
        {mine && !editing && (
          <div className="comment-actions">
            <button
              type="button"
              className="link-btn"
              onClick={() => {
                setText(comment.content);
                setEditing(true);
              }}
            >
              {t('common.edit')}
            </button>
            <button type="button" className="link-btn" onClick={() => setConfirming(true)}>
              {t('common.delete')}
            </button>
          </div>
        )}
      </div>
      {confirming && (
        <ConfirmDialog
          title={t('card.deleteCommentTitle')}
          message={t('card.deleteCommentText')}
          confirmLabel={t('common.delete')}
          danger
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            void deleteComment(qc, cardId, comment.id);
          }}
        />
      )}
    </li>
  );
}

import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Viewer } from '../../../shared/events.js';
import { api, ApiError } from '../../api/client';
import { attempt } from '../../api/optimistic';
import { archiveCard, deleteCard, duplicateCard, updateCard, type CardPatch } from './api';
import { areasQuery, cardQuery, fieldsQuery, keys } from '../../api/queries';
import type { Board, Card, CardListItem } from '../../api/types';
import { toast } from '../../app/toast';
import { Avatar } from '../../components/Avatar';
import { ConfirmDialog, Dialog } from '../../components/Dialog';
import { Icon } from '../../components/Icon';
import { MenuButton, MenuItem, MenuSeparator } from '../../components/Menu';
import { useRealtime } from '../../realtime/RealtimeProvider';
import { InlineName } from '../board/AreaColumn';
import { Activity } from './Activity';
import { AssigneesField } from './AssigneesField';
import { Attachments, useUploads } from './Attachments';
import { Comments } from './Comments';
import { DatesField } from './DatesField';
import { Description } from './Description';
import { LabelsField } from './LabelsField';
import { CardFieldsEditor } from '../fields/CardFieldsEditor';
import './card.css';

interface Props {
  cardId: number;
  board: Board;
  writeAccess: boolean;
  /** Others who have this card open. */
  viewers: Viewer[] | undefined;
  onMove: (card: CardListItem) => void;
  onClose: () => void;
}

/** Everything about one card (`/board/:id?card=:cardId`). */
export default function CardDialog({ cardId, board, writeAccess, viewers, onMove, onClose }: Props) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const connection = useRealtime();
  const result = useQuery(cardQuery(cardId));
  const areas = useQuery(areasQuery(board.id));
  const card = result.data;
  const { uploads, start } = useUploads(cardId);
  const [renaming, setRenaming] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [dropping, setDropping] = useState(false);

  // Tell the others which card I have open; mark its notifications read.
  useEffect(() => {
    connection?.setOpenCard(board.id, cardId);
    return () => connection?.setOpenCard(board.id, null);
  }, [connection, board.id, cardId]);
  useEffect(() => {
    void api('/api/data/notifications', { method: 'PATCH', query: { cardId } }).catch(() => undefined);
  }, [cardId]);

  const patch = (change: CardPatch) => card && void updateCard(qc, board.id, card, change);
  const editable = writeAccess && !!card && !card.archivedAt;
  const fields = useQuery(fieldsQuery(board.id));
  const gone = result.isError && result.error instanceof ApiError && result.error.status === 404;

  if (!card) {
    return (
      <Dialog title={gone ? t('card.goneTitle') : t('common.loading')} onClose={onClose}>
        {gone ? <p>{t('card.goneText')}</p> : result.isError ? <p>{t('errors.loadFailed')}</p> : <div className="spinner" />}
      </Dialog>
    );
  }

  const areaName = areas.data?.find((a) => a.id === card.area)?.name;
  const done = card.status === 1;

  return (
    <Dialog
      wide
      className="card-dialog"
      onClose={onClose}
      title={
        renaming ? (
          <InlineName
            initial={card.name}
            label={t('card.name')}
            onDone={(name) => {
              setRenaming(false);
              if (name && name !== card.name) patch({ name });
            }}
          />
        ) : (
          <span
            className={`card-dialog-title${editable ? ' editable' : ''}`}
            onClick={() => editable && setRenaming(true)}
            data-testid="card-title"
          >
            {card.name}
          </span>
        )
      }
      actions={
        <>
          {viewers && viewers.length > 0 && (
            <span className="avatar-stack" title={t('card.openBy', { names: viewers.map((v) => v.name).join(', ') })}>
              {viewers.map((v) => (
                <Avatar key={v.id} person={v} />
              ))}
            </span>
          )}
          {editable && (
            <button type="button" className="icon-btn" aria-label={t('card.rename')} onClick={() => setRenaming(true)}>
              <Icon name="edit" />
            </button>
          )}
          {writeAccess && (
            <MenuButton label={t('card.actions')}>
              {(close) => (
                <>
                  {!card.archivedAt && (
                    <>
                      <MenuItem
                        icon="move"
                        onSelect={() => {
                          close();
                          onMove(card);
                        }}
                      >
                        {t('card.move')}
                      </MenuItem>
                      <MenuItem
                        icon="copy"
                        onSelect={() => {
                          close();
                          void duplicateCard(qc, board.id, card.id).then((copy) => {
                            if (copy) toast.info(t('card.duplicated'));
                          });
                        }}
                      >
                        {t('card.duplicate')}
                      </MenuItem>
                      <MenuItem
                        icon="archive"
                        onSelect={() => {
                          close();
                          void archiveCard(qc, board.id, card).then((ok) => ok && onClose());
                        }}
                      >
                        {t('card.archive')}
                      </MenuItem>
                      <MenuSeparator />
                    </>
                  )}
                  <MenuItem
                    icon="trash"
                    danger
                    onSelect={() => {
                      close();
                      setConfirmDelete(true);
                    }}
                  >
                    {t('card.deleteForever')}
                  </MenuItem>
                </>
              )}
            </MenuButton>
          )}
        </>
      }
    >
      <div
        className={`card-dialog-body${dropping ? ' dropping' : ''}`}
        onDragOver={(e) => {
          if (!editable || !e.dataTransfer.types.includes('Files')) return;
          e.preventDefault();
          e.dataTransfer.dropEffect = 'copy';
          setDropping(true);
        }}
        onDragLeave={(e) => {
          if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDropping(false);
        }}
        onDrop={(e) => {
          if (!editable || e.dataTransfer.files.length === 0) return;
          e.preventDefault();
          setDropping(false);
          start(e.dataTransfer.files);
        }}
      >
        <div className="card-subtitle">
          {areaName && (
            <span className="card-area" title={t('card.inArea', { name: areaName })}>
              <Icon name="columns" size={15} />
              {areaName}
            </span>
          )}
          <button
            type="button"
            className={`status-pill${done ? ' done' : ''}`}
            aria-pressed={done}
            disabled={!editable}
            onClick={() => patch({ status: done ? 0 : 1 })}
          >
            <Icon name={done ? 'checkCircle' : 'circle'} size={15} />
            {done ? t('card.done') : t('card.open')}
          </button>
        </div>

        {card.archivedAt && <ArchivedBanner card={card} writeAccess={writeAccess} />}

        <div className="card-grid">
          <section className="card-section card-description" aria-labelledby="sec-description">
            <h3 id="sec-description" className="section-title">
              {t('card.description')}
            </h3>
            <Description
              boardId={board.id}
              content={card.content}
              writeAccess={editable}
              onSave={(content) => patch({ content })}
            />
          </section>
          <aside className="card-side">
            <section className="side-section" aria-labelledby="sec-labels">
              <h3 id="sec-labels" className="section-title">
                {t('card.labels')}
              </h3>
              <LabelsField
                boardId={board.id}
                labels={card.labels}
                writeAccess={editable}
                onChange={(labelIds) => patch({ labelIds })}
              />
            </section>
            <section className="side-section" aria-labelledby="sec-assignees">
              <h3 id="sec-assignees" className="section-title">
                {t('card.assignees')}
              </h3>
              <AssigneesField
                board={board}
                assignees={card.assignees}
                writeAccess={editable}
                onChange={(assignees) => patch({ assignees })}
              />
            </section>
            {(fields.data ?? []).length > 0 && (
              <section className="side-section" aria-labelledby="sec-fields">
                <h3 id="sec-fields" className="section-title">
                  {t('fields.section')}
                </h3>
                <CardFieldsEditor
                  boardId={board.id}
                  values={card.fields}
                  writeAccess={editable}
                  onChange={(values) => patch({ fields: values })}
                />
              </section>
            )}
            <section className="side-section" aria-labelledby="sec-dates">
              <h3 id="sec-dates" className="section-title">
                {t('card.dates')}
              </h3>
              <DatesField card={card} writeAccess={editable} onChange={patch} />
            </section>
            <section className="side-section" aria-labelledby="sec-files">
              <h3 id="sec-files" className="section-title">
                {t('card.files')}
              </h3>
              <Attachments cardId={card.id} writeAccess={editable} uploads={uploads} onPick={start} />
            </section>
          </aside>
          <section className="card-section card-comments" aria-labelledby="sec-comments">
            <h3 id="sec-comments" className="section-title">
              {t('card.comments')}
            </h3>
            <Comments cardId={card.id} boardId={board.id} writeAccess={editable} />
          </section>
          <section className="card-section card-activity" aria-labelledby="sec-activity">
            <h3 id="sec-activity" className="section-title">
              {t('card.activity')}
            </h3>
            <Activity cardId={card.id} />
          </section>
        </div>
        {dropping && (
          <div className="drop-overlay" aria-hidden="true">
            <Icon name="upload" size={28} />
            {t('card.dropHere')}
          </div>
        )}
      </div>

      {confirmDelete && (
        <ConfirmDialog
          title={t('card.deleteTitle')}
          message={t('card.deleteText', { name: card.name })}
          confirmLabel={t('card.deleteForever')}
          danger
          onCancel={() => setConfirmDelete(false)}
          onConfirm={() => {
            setConfirmDelete(false);
            void deleteCard(qc, board.id, card).then((ok) => ok && onClose());
          }}
        />
      )}
    </Dialog>
  );
}

function ArchivedBanner({ card, writeAccess }: { card: Card; writeAccess: boolean }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  return (
    <div className="archived-banner" role="status">
      <Icon name="archive" size={16} />
      <span>{t('card.archivedBanner')}</span>
      {writeAccess && (
        <button
          type="button"
          className="btn btn-sm"
          onClick={() =>
            void attempt(() => api('/api/data/archive', { method: 'POST', body: { type: 'card', id: card.id } })).then(() => {
              void qc.invalidateQueries({ queryKey: keys.card(card.id) });
              void qc.invalidateQueries({ queryKey: keys.cards(card.area) });
            })
          }
        >
          {t('card.restore')}
        </button>
      )}
    </div>
  );
}

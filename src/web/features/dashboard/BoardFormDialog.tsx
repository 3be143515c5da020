import { useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { upload } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { createBoard, updateBoard } from './api';
import type { Board, BoardStatus, BoardStyle, UploadedImage } from '../../api/types';
import { toast } from '../../app/toast';
import { Dialog } from '../../components/Dialog';
import { Icon } from '../../components/Icon';
import { TemplatePicker } from '../templates/TemplatePicker';
import { boardFromTemplate, type TemplateSummary } from '../templates/api';
import { boardBackground } from './BoardTile';

/** Board colours that carry white text at WCAG AA contrast (4.5:1 and more). */
export const BOARD_COLORS = ['#4b5fd6', '#2f6fa8', '#23766c', '#4d6a22', '#a65a16', '#a3473e', '#a3456e', '#6549a8', '#4a5568'];

interface Props {
  userId: string;
  /** The board to change; without one, a new board is created. */
  board?: Board;
  onClose: () => void;
}

/** Create a board, or change one's settings: name, style, colour or cover, visibility. */
export function BoardFormDialog({ userId, board, onClose }: Props) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState(board?.name ?? '');
  const [style, setStyle] = useState<BoardStyle>(board?.style === 'todo' ? 'todo' : 'kanban');
  const [color, setColor] = useState<string | null>(board ? board.color : BOARD_COLORS[0]!);
  const [image, setImage] = useState<string | null>(board?.image ?? null);
  const [status, setStatus] = useState<BoardStatus>(board?.status === 'public' ? 'public' : 'private');
  const [busy, setBusy] = useState(false);
  const [template, setTemplate] = useState<TemplateSummary | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!name.trim() || busy) return;
    setBusy(true);
    const fields = { name: name.trim(), style, status, color: image ? null : color, image };
    if (board) {
      const saved = await updateBoard(qc, board, fields);
      setBusy(false);
      if (saved) onClose();
    } else {
      const created = template
        ? await boardFromTemplate(qc, { templateId: template.id, name: fields.name, style, status, ...(color ? { color } : {}) })
        : await createBoard(qc, userId, { name: fields.name, style, status, color });
      setBusy(false);
      if (created) {
        onClose();
        void navigate(`/board/${created.id}`);
      }
    }
  };

  const uploadCover = (file: File) => {
    if (!board) return;
    setProgress(0);
    upload<UploadedImage>('/api/data/image', { boardId: board.id }, file, file.name, (p) => setProgress(p.loaded / p.total))
      .promise.then((result) => setImage(result.url))
      .catch((error: unknown) => toast.error(errorMessage(error)))
      .finally(() => setProgress(null));
  };

  return (
    <Dialog
      title={board ? t('boardForm.settingsTitle') : t('boardForm.createTitle')}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" form="board-form" className="btn btn-primary" disabled={busy || !name.trim()}>
            {board ? t('common.save') : t('boardForm.create')}
          </button>
        </>
      }
    >
      <form id="board-form" onSubmit={(e) => void submit(e)}>
        <div className="board-preview" style={boardBackground({ image, color })} aria-hidden="true">
          <span>{name || t('boardForm.namePlaceholder')}</span>
        </div>
        <label className="field">
          <span>{t('boardForm.name')}</span>
          <input
            className="input"
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={255}
            required
            data-autofocus
            placeholder={t('boardForm.namePlaceholder')}
          />
        </label>

        {!board && (
          <TemplatePicker
            value={template}
            onChange={(next) => {
              setTemplate(next);
              if (next) setStyle(next.style);
            }}
          />
        )}

        <fieldset className="field fieldset">
          <legend className="field-label">{t('boardForm.style')}</legend>
          <div className="segmented">
            {(['kanban', 'todo'] as const).map((value) => (
              <label key={value} className={style === value ? 'active' : undefined}>
                <input type="radio" name="style" value={value} checked={style === value} onChange={() => setStyle(value)} />
                <span>{value === 'kanban' ? t('board.styleKanban') : t('board.styleTodo')}</span>
                <small>{value === 'kanban' ? t('boardForm.kanbanHint') : t('boardForm.todoHint')}</small>
              </label>
            ))}
          </div>
        </fieldset>

        <fieldset className="field fieldset">
          <legend className="field-label">{t('boardForm.color')}</legend>
          <div className="swatches">
            {BOARD_COLORS.map((value) => (
              <label key={value} className="swatch" style={{ background: value }} title={value}>
                <input
                  type="radio"
                  name="color"
                  value={value}
                  checked={!image && color === value}
                  onChange={() => {
                    setColor(value);
                    setImage(null);
                  }}
                  aria-label={value}
                />
                {!image && color === value && <Icon name="check" size={16} />}
              </label>
            ))}
            <label className="swatch swatch-default" title={t('boardForm.defaultColor')}>
              <input
                type="radio"
                name="color"
                value=""
                checked={!image && color === null}
                onChange={() => {
                  setColor(null);
                  setImage(null);
                }}
                aria-label={t('boardForm.defaultColor')}
              />
              {!image && color === null && <Icon name="check" size={16} />}
            </label>
          </div>
        </fieldset>

        {board && (
          <div className="field">
            <span className="field-label">{t('boardForm.cover')}</span>
            <div className="row">
              <button type="button" className="btn btn-sm" onClick={() => fileRef.current?.click()} disabled={progress !== null}>
                <Icon name="image" size={16} />
                {progress !== null ? t('common.uploading', { percent: Math.round(progress * 100) }) : t('boardForm.uploadCover')}
              </button>
              {image && (
                <button type="button" className="btn btn-sm btn-ghost" onClick={() => setImage(null)}>
                  {t('boardForm.removeCover')}
                </button>
              )}
              <input
                ref={fileRef}
                type="file"
                accept="image/png,image/jpeg,image/gif,image/webp"
                hidden
                onChange={(e) => {
                  const file = e.target.files?.[0];
                  if (file) uploadCover(file);
                  e.target.value = '';
                }}
              />
            </div>
          </div>
        )}

        <fieldset className="field fieldset">
          <legend className="field-label">{t('boardForm.visibility')}</legend>
          <div className="segmented">
            {(['private', 'public'] as const).map((value) => (
              <label key={value} className={status === value ? 'active' : undefined}>
                <input type="radio" name="status" value={value} checked={status === value} onChange={() => setStatus(value)} />
                <span>
                  <Icon name={value === 'private' ? 'lock' : 'globe'} size={14} />{' '}
                  {value === 'private' ? t('board.private') : t('board.public')}
                </span>
                <small>{value === 'private' ? t('boardForm.privateHint') : t('boardForm.publicHint')}</small>
              </label>
            ))}
          </div>
        </fieldset>
      </form>
    </Dialog>
  );
}

import { MentionTextarea } from './MentionTextarea';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { renderMarkdown } from '../../../shared/markdown.js';
import { upload } from '../../api/client';
import { errorMessage } from '../../api/errors';
import type { UploadedImage } from '../../api/types';
import { toast } from '../../app/toast';
import { toggleChecklistItem } from '../../../shared/checklist.js';
import { CARD_CONTENT_MAX_LENGTH } from '../../../shared/limits.js';
import { LengthHint } from './LengthHint';

interface Props {
  boardId: number;
  content: string;
  writeAccess: boolean;
  onSave: (content: string) => void;
}

/**
 * A card's Markdown description: the preview (checklist boxes tick and save at
 * once), and an editor with a preview tab where pasted pictures are uploaded
 * and put in as `![](url)`.
 */
export function Description({ boardId, content, writeAccess, onSave }: Props) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  if (editing) {
    return (
      <DescriptionEditor
        boardId={boardId}
        initial={content}
        onCancel={() => setEditing(false)}
        onSave={(value) => {
          setEditing(false);
          if (value !== content) onSave(value);
        }}
      />
    );
  }
  if (!content.trim()) {
    return writeAccess ? (
      <button type="button" className="description-empty" onClick={() => setEditing(true)}>
        {t('card.addDescription')}
      </button>
    ) : (
      <p className="hint">{t('card.noDescription')}</p>
    );
  }
  return (
    <div className="description">
      <MarkdownView
        content={content}
        interactive={writeAccess}
        onToggle={(index, checked) => onSave(toggleChecklistItem(content, index, checked))}
      />
      {writeAccess && (
        <button type="button" className="btn btn-sm description-edit" onClick={() => setEditing(true)}>
          {t('common.edit')}
        </button>
      )}
    </div>
  );
}

/** Rendered Markdown; with `interactive`, its checklist boxes can be ticked. */
export function MarkdownView({
  content,
  interactive,
  onToggle,
}: {
  content: string;
  interactive: boolean;
  onToggle?: (index: number, checked: boolean) => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const html = useMemo(() => renderMarkdown(content, window.location.origin), [content]);
  const toggleRef = useRef(onToggle);
  useEffect(() => {
    toggleRef.current = onToggle;
  });
  useEffect(() => {
    const node = ref.current;
    if (!node) return;
    node.querySelectorAll<HTMLInputElement>('li.task-list-item > input[type="checkbox"]').forEach((box, index) => {
      box.disabled = !interactive;
      box.dataset.index = String(index);
      // The box is named by its item's text.
      box.setAttribute('aria-label', box.parentElement?.textContent?.trim() || `#${index + 1}`);
    });
    // The boxes come from the rendered HTML, not from React: listen natively.
    const onChange = (event: Event) => {
      const box = event.target as HTMLInputElement;
      if (box.type === 'checkbox' && box.dataset.index) toggleRef.current?.(Number(box.dataset.index), box.checked);
    };
    node.addEventListener('change', onChange);
    return () => node.removeEventListener('change', onChange);
  }, [html, interactive]);
  return (
    <div
      ref={ref}
      className="markdown"
      // renderMarkdown never lets raw HTML or unsafe addresses through.
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}

function DescriptionEditor({
  boardId,
  initial,
  onSave,
  onCancel,
}: {
  boardId: number;
  initial: string;
  onSave: (value: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [value, setValue] = useState(initial);
  const [tab, setTab] = useState<'write' | 'preview'>('write');
  const [uploading, setUploading] = useState<number | null>(null);
  const ref = useRef<HTMLTextAreaElement>(null);

  const insertAtCursor = (text: string) => {
    const area = ref.current;
    if (!area) return setValue((v) => v + text);
    const start = area.selectionStart;
    const end = area.selectionEnd;
    setValue((v) => v.slice(0, start) + text + v.slice(end));
    requestAnimationFrame(() => {
      area.focus();
      area.setSelectionRange(start + text.length, start + text.length);
    });
  };

  const onPaste = (event: React.ClipboardEvent<HTMLTextAreaElement>) => {
    const file = [...event.clipboardData.files].find((f) => f.type.startsWith('image/'));
    if (!file) return;
    event.preventDefault();
    setUploading(0);
    upload<UploadedImage>('/api/data/image', { boardId }, file, file.name || 'pasted.png', (p) =>
      setUploading(p.loaded / p.total),
    )
      .promise.then((result) => insertAtCursor(`![](${result.url})`))
      .catch((error: unknown) => toast.error(errorMessage(error)))
      .finally(() => setUploading(null));
  };

  return (
    <div className="description-editor">
      <div className="tabs" role="tablist">
        <button type="button" role="tab" aria-selected={tab === 'write'} onClick={() => setTab('write')}>
          {t('card.write')}
        </button>
        <button type="button" role="tab" aria-selected={tab === 'preview'} onClick={() => setTab('preview')}>
          {t('card.preview')}
        </button>
        <span className="spacer" />
        {uploading !== null && <span className="hint">{t('common.uploading', { percent: Math.round(uploading * 100) })}</span>}
      </div>
      {tab === 'write' ? (
        <MentionTextarea
          textareaRef={ref}
          boardId={boardId}
          className="textarea description-input"
          aria-label={t('card.description')}
          value={value}
          autoFocus
          placeholder={t('card.descriptionPlaceholder')}
          maxLength={CARD_CONTENT_MAX_LENGTH}
          onValueChange={setValue}
          onPaste={onPaste}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) {
              e.preventDefault();
              onSave(value);
            } else if (e.key === 'Escape') {
              e.preventDefault();
              e.stopPropagation();
              onCancel();
            }
          }}
        />
      ) : (
        <div className="description-preview">
          {value.trim() ? (
            <MarkdownView content={value} interactive={false} />
          ) : (
            <p className="hint">{t('card.nothingToPreview')}</p>
          )}
        </div>
      )}
      <div className="row">
        <button type="button" className="btn btn-primary btn-sm" onClick={() => onSave(value)} disabled={uploading !== null}>
          {t('common.save')}
        </button>
        <button type="button" className="btn btn-ghost btn-sm" onClick={onCancel}>
          {t('common.cancel')}
        </button>
        <span className="hint">{t('card.markdownHint')}</span>
        <LengthHint used={value.length} max={CARD_CONTENT_MAX_LENGTH} />
      </div>
    </div>
  );
}

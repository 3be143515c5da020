import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Board } from '../../api/types';
import { toast } from '../../app/toast';
import { Dialog } from '../../components/Dialog';
import { saveTemplate } from './api';
import './templates.css';

/** Saves the structure of the board (not its people, dates, comments or files) as a template of the account's. */
export function SaveTemplateDialog({ board, onClose }: { board: Board; onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [name, setName] = useState(board.name);
  const [busy, setBusy] = useState(false);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!name.trim() || busy) return;
    setBusy(true);
    const saved = await saveTemplate(qc, board.id, name.trim());
    setBusy(false);
    if (saved) {
      toast.info(t('templates.saved', { name: saved.name }));
      onClose();
    }
  };

  return (
    <Dialog
      title={t('templates.saveTitle')}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" form="save-template-form" className="btn btn-primary" disabled={busy || !name.trim()}>
            {t('templates.save')}
          </button>
        </>
      }
    >
      <form id="save-template-form" onSubmit={(e) => void submit(e)}>
        <p className="hint template-save-hint">{t('templates.saveHint')}</p>
        <label className="field">
          <span>{t('templates.name')}</span>
          <input
            className="input"
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={255}
            required
            data-autofocus
          />
        </label>
      </form>
    </Dialog>
  );
}

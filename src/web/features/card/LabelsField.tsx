import { useId, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { labelFor } from './api';
import { labelsQuery } from '../../api/queries';
import type { Label } from '../../api/types';
import { Icon } from '../../components/Icon';

interface Props {
  boardId: number;
  labels: Label[];
  writeAccess: boolean;
  onChange: (labelIds: number[]) => void;
}

/** The words on a card: type one (suggestions from the board's labels), Enter puts it on; × takes it off. */
export function LabelsField({ boardId, labels, writeAccess, onChange }: Props) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const listId = useId();
  const boardLabels = useQuery({ ...labelsQuery(boardId), enabled: writeAccess });
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);

  const add = async () => {
    const name = text.trim();
    if (!name || busy) return;
    const known = labels.find((l) => l.name.toLowerCase() === name.toLowerCase());
    if (known) return setText('');
    setBusy(true);
    const label =
      (boardLabels.data ?? []).find((l) => l.name.toLowerCase() === name.toLowerCase()) ?? (await labelFor(qc, boardId, name));
    setBusy(false);
    if (!label) return;
    setText('');
    onChange([...labels.map((l) => l.id), label.id]);
  };

  const suggestions = (boardLabels.data ?? []).filter((l) => !labels.some((own) => own.id === l.id));

  return (
    <div className="labels-field">
      {labels.length > 0 && (
        <ul className="chip-list" aria-label={t('card.labels')}>
          {labels.map((label) => (
            <li key={label.id} className="label-chip">
              {label.name}
              {writeAccess && (
                <button
                  type="button"
                  className="chip-remove"
                  aria-label={t('card.removeLabel', { name: label.name })}
                  onClick={() => onChange(labels.filter((l) => l.id !== label.id).map((l) => l.id))}
                >
                  <Icon name="close" size={12} />
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {writeAccess && (
        <form
          className="label-input-row"
          onSubmit={(e) => {
            e.preventDefault();
            void add();
          }}
        >
          <input
            className="input input-sm"
            list={listId}
            value={text}
            maxLength={64}
            placeholder={t('card.addLabel')}
            aria-label={t('card.addLabel')}
            onChange={(e) => setText(e.target.value)}
          />
          <datalist id={listId}>
            {suggestions.map((label) => (
              <option key={label.id} value={label.name} />
            ))}
          </datalist>
        </form>
      )}
      {!writeAccess && labels.length === 0 && <p className="hint">{t('card.noLabels')}</p>}
    </div>
  );
}

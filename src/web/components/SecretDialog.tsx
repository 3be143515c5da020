import { useId, useRef, useState } from 'react';
import { Dialog } from './Dialog';
import { Icon } from './Icon';
import './secret-dialog.css';

export interface SecretDialogTexts {
  title: string;
  /** Why it must be copied now. */
  warning: string;
  label: string;
  copy: string;
  copied: string;
  /** Said when the clipboard is refused and the secret is selected for the keyboard instead. */
  selected: string;
  done: string;
}

/** A secret the server shows only once (an API key, a webhook's signing secret): copy it, or where the clipboard is refused, it is selected for the keyboard. */
export function SecretDialog({ secret, texts, onClose }: { secret: string; texts: SecretDialogTexts; onClose: () => void }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<'copied' | 'selected' | null>(null);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied('copied');
    } catch {
      input.current?.focus();
      input.current?.select();
      setCopied('selected');
    }
  };

  return (
    <Dialog
      title={texts.title}
      onClose={onClose}
      footer={
        <button type="button" className="btn btn-primary" onClick={onClose}>
          {texts.done}
        </button>
      }
    >
      <p className="secret-warning" id={`${id}-warning`}>
        {texts.warning}
      </p>
      <label className="field-label" htmlFor={`${id}-secret`}>
        {texts.label}
      </label>
      <div className="secret-field">
        <input
          ref={input}
          id={`${id}-secret`}
          className="input secret-input"
          value={secret}
          readOnly
          spellCheck={false}
          aria-describedby={`${id}-warning`}
          onFocus={(event) => event.currentTarget.select()}
          data-autofocus
        />
        <button type="button" className="btn" onClick={() => void copy()}>
          <Icon name="copy" size={16} />
          {texts.copy}
        </button>
      </div>
      <div role="status" aria-live="polite" className="secret-copied">
        {copied === 'copied' && <span className="hint">{texts.copied}</span>}
        {copied === 'selected' && <span className="hint">{texts.selected}</span>}
      </div>
    </Dialog>
  );
}

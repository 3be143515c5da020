import { useTranslation } from 'react-i18next';
import { dismiss, hold, release, useToasts } from './toast';

export function Toasts() {
  const toasts = useToasts();
  const { t } = useTranslation();
  return (
    <div className="toasts" role="status" aria-live="polite">
      {toasts.map((item) => (
        <div
          key={item.id}
          className={`toast ${item.kind}`}
          role={item.kind === 'error' ? 'alert' : undefined}
          onMouseEnter={() => hold(item.id)}
          onMouseLeave={() => release(item.id)}
          onFocus={() => hold(item.id)}
          onBlur={() => release(item.id)}
        >
          <span>{item.message}</span>
          {item.action && (
            <button
              type="button"
              onClick={() => {
                item.action?.run();
                dismiss(item.id);
              }}
            >
              {item.action.label}
            </button>
          )}
          <button type="button" aria-label={t('common.dismiss')} onClick={() => dismiss(item.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}

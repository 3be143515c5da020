import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { EVENT_GROUPS, eventKey, type WebhookEventName } from './events';

/**
 * "All events" or a checklist by group. `picked` is null for all events
 * (what the server stores as an empty list).
 */
export function EventPicker({
  picked,
  onChange,
  disabled,
  error,
}: {
  picked: ReadonlySet<WebhookEventName> | null;
  onChange: (next: ReadonlySet<WebhookEventName> | null) => void;
  disabled: boolean;
  error: string | null;
}) {
  const { t } = useTranslation();
  const id = useId();
  const toggle = (event: WebhookEventName, on: boolean) => {
    const next = new Set(picked);
    if (on) next.add(event);
    else next.delete(event);
    onChange(next);
  };

  return (
    <fieldset className="webhooks-events" disabled={disabled} aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="field-label">{t('webhooks.events')}</legend>
      <label className="webhooks-choice">
        <input type="radio" name={`${id}-scope`} checked={picked === null} onChange={() => onChange(null)} />
        <span>{t('webhooks.allEvents')}</span>
      </label>
      <label className="webhooks-choice">
        <input type="radio" name={`${id}-scope`} checked={picked !== null} onChange={() => onChange(new Set())} />
        <span>{t('webhooks.someEvents')}</span>
      </label>
      {picked !== null && (
        <div className="webhooks-groups">
          {EVENT_GROUPS.map(({ group, events }) => (
            <fieldset key={group} className="webhooks-group">
              <legend>{t(`webhooks.groups.${group}`)}</legend>
              {events.map((event) => (
                <label key={event} className="webhooks-choice">
                  <input
                    type="checkbox"
                    value={event}
                    checked={picked.has(event)}
                    onChange={(e) => toggle(event, e.target.checked)}
                  />
                  <span>{t(`webhooks.names.${eventKey(event)}`)}</span>
                </label>
              ))}
            </fieldset>
          ))}
        </div>
      )}
      {error && (
        <p className="form-error webhooks-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}

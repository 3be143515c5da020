import { useId, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/errors';
import { Dialog } from '../../components/Dialog';
import { Icon } from '../../components/Icon';
import { deliveriesQuery, redeliver, type Webhook } from './api';
import { eventKey } from './events';

/** A webhook's last deliveries with their outcome; any of them can be sent again. */
export function DeliveriesDialog({ webhook, onClose }: { webhook: Webhook; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const id = useId();
  const deliveries = useQuery(deliveriesQuery(webhook.id));
  const [busy, setBusy] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const time = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'medium' });

  const again = async (deliveryId: number) => {
    if (busy !== null) return;
    setBusy(deliveryId);
    setError(null);
    setStatus('');
    try {
      await redeliver(qc, webhook.id, deliveryId);
      setStatus(t('webhooks.redelivered'));
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Dialog title={t('webhooks.deliveriesOf', { url: webhook.url })} onClose={onClose} wide className="webhooks-deliveries">
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <p className="visually-hidden" role="status">
        {status}
      </p>
      {deliveries.isPending ? (
        <div className="center-fill">
          <span className="spinner" aria-label={t('common.loading')} />
        </div>
      ) : deliveries.isError ? (
        <p className="form-error" role="alert">
          {errorMessage(deliveries.error)}
        </p>
      ) : deliveries.data.length === 0 ? (
        <p className="empty">{t('webhooks.noDeliveries')}</p>
      ) : (
        <>
          <h3 className="webhooks-heading" id={`${id}-list`}>
            {t('webhooks.deliveryList')}
          </h3>
          <ul className="webhooks-list" aria-labelledby={`${id}-list`}>
            {deliveries.data.map((delivery) => {
              const name = t(`webhooks.names.${eventKey(delivery.event)}`);
              const when = time.format(new Date(delivery.createdAt));
              return (
                <li key={delivery.id} className="webhooks-row" data-delivery-id={delivery.id} data-status={delivery.status}>
                  <div className="webhooks-row-main">
                    <div className="webhooks-row-title">
                      <strong>{name}</strong>
                      <code className="webhooks-code">{delivery.event}</code>
                    </div>
                    <div className="webhooks-facts hint">
                      <span className={`webhooks-badge webhooks-badge-${delivery.status}`}>
                        {t(`webhooks.state.${delivery.status}`)}
                      </span>
                      <span>
                        {delivery.responseStatus === null
                          ? t('webhooks.noResponse')
                          : t('webhooks.httpStatus', { status: delivery.responseStatus })}
                      </span>
                      <span>{t('webhooks.attempts', { count: delivery.attempts })}</span>
                      <time dateTime={delivery.createdAt}>{when}</time>
                    </div>
                  </div>
                  <button
                    type="button"
                    className="btn btn-sm"
                    // Not disabled: that would drop the keyboard focus while the request runs.
                    aria-disabled={busy !== null}
                    aria-label={t('webhooks.redeliverLabel', { event: name, time: when })}
                    onClick={() => void again(delivery.id)}
                  >
                    <Icon name="repeat" size={15} />
                    {t('webhooks.redeliver')}
                  </button>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </Dialog>
  );
}

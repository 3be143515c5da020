import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/Icon';
import { mailKeys, mailQuery, outboxMailQuery, sendTestMail } from './api';
import { adminErrorMessage } from './errors';

/** One outbox mail, read in place. */
function OutboxMailView({ id, onClose }: { id: string; onClose: () => void }) {
  const { t } = useTranslation();
  const mail = useQuery(outboxMailQuery(id));
  if (mail.isPending) return <span className="spinner" aria-label={t('common.loading')} />;
  if (mail.isError) {
    return (
      <p className="form-error" role="alert">
        {adminErrorMessage(mail.error)}
      </p>
    );
  }
  return (
    <article className="outbox-mail" aria-label={mail.data.subject}>
      <div className="row">
        <h4>{mail.data.subject}</h4>
        <div className="spacer" />
        <button type="button" className="icon-btn" aria-label={t('admin.mail.close')} onClick={onClose}>
          <Icon name="close" size={16} />
        </button>
      </div>
      <p className="hint">
        {t('admin.mail.to')}: {mail.data.to}
      </p>
      <pre className="outbox-text">{mail.data.text}</pre>
    </article>
  );
}

/**
 * How the instance's mail leaves (SMTP_URL's server, or the outbox on disk),
 * a test mail to oneself, and without SMTP the outbox's mails to read: the
 * only way to see a confirmation link on a fresh install.
 */
export function MailSection() {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const overview = useQuery(mailQuery());
  const [reading, setReading] = useState<string | null>(null);
  const test = useMutation({
    mutationFn: sendTestMail,
    onSettled: () => qc.invalidateQueries({ queryKey: mailKeys.overview }),
  });
  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const transport = overview.data?.transport;

  return (
    <section className="admin-card mail-section" aria-labelledby="mail-title">
      <div className="admin-card-heading">
        <h2 id="mail-title">{t('admin.mail.title')}</h2>
        <div className="spacer" />
        <button type="button" className="btn" disabled={test.isPending || !overview.data} onClick={() => test.mutate()}>
          {test.isPending ? t('admin.mail.sending') : t('admin.mail.test')}
        </button>
      </div>
      {overview.isPending ? (
        <span className="spinner" aria-label={t('common.loading')} />
      ) : overview.isError ? (
        <p className="form-error" role="alert">
          {adminErrorMessage(overview.error)}
        </p>
      ) : (
        <p className="mail-transport">
          {transport?.kind === 'smtp'
            ? t('admin.mail.smtp', { host: transport.host })
            : t('admin.mail.outbox', { directory: transport?.kind === 'outbox' ? transport.directory : '' })}
        </p>
      )}
      <p role="status" className="hint">
        {test.isSuccess
          ? t('admin.mail.sent', { to: test.data.to })
          : test.isError
            ? t('admin.mail.failed', { error: adminErrorMessage(test.error) })
            : ''}
      </p>
      {transport?.kind === 'outbox' && overview.data && (
        <div className="outbox">
          <h3>{t('admin.mail.outboxTitle')}</h3>
          <p className="hint">{t('admin.mail.outboxCount', { count: overview.data.outbox.total })}</p>
          {overview.data.outbox.mails.length === 0 ? (
            <p className="empty">{t('admin.mail.empty')}</p>
          ) : (
            <ul className="outbox-list">
              {overview.data.outbox.mails.map((mail) => (
                <li key={mail.id}>
                  <button
                    type="button"
                    className="outbox-entry"
                    aria-expanded={reading === mail.id}
                    aria-label={t('admin.mail.open', { subject: mail.subject })}
                    onClick={() => setReading(reading === mail.id ? null : mail.id)}
                  >
                    <span className="outbox-subject">{mail.subject}</span>
                    <span className="hint">{mail.to}</span>
                    <time className="hint" dateTime={mail.date}>
                      {dateFormat.format(new Date(mail.date))}
                    </time>
                  </button>
                  {reading === mail.id && <OutboxMailView id={mail.id} onClose={() => setReading(null)} />}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}

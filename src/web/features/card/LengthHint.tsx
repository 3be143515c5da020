import { useTranslation } from 'react-i18next';

/** Says how close a text is to its limit, once it is close: the field itself stops at the limit. */
export function LengthHint({ used, max }: { used: number; max: number }) {
  const { t } = useTranslation();
  if (used < max * 0.9) return null;
  return (
    <span className="hint" role="status">
      {t('card.lengthLimit', { used, max })}
    </span>
  );
}

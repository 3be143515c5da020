/**
 * A choice among a field's values with a blank first ("any" in the board
 * filter, "not set" on a card): one control for the filter's and the card
 * dialog's select fields (and the filter's ticked/unticked choice).
 */
export function FieldValueSelect({
  id,
  className,
  value,
  blank,
  options,
  label = (option) => option,
  disabled,
  onChange,
}: {
  id?: string;
  className: string;
  value: string;
  blank: string;
  options: readonly string[];
  label?: (option: string) => string;
  disabled?: boolean;
  onChange: (value: string) => void;
}) {
  return (
    <select id={id} className={className} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value)}>
      <option value="">{blank}</option>
      {options.map((option) => (
        <option key={option} value={option}>
          {label(option)}
        </option>
      ))}
    </select>
  );
}

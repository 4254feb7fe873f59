/**
 * How far a long piece of work has got (a bulk run, an import). With an `id` its label is shown
 * above the bar; without, the label is only the bar's accessible name.
 */
export function ProgressBar({
  label,
  value,
  max,
  id,
}: {
  label: string;
  value: number;
  max: number;
  id?: string;
}) {
  const bar = (
    <progress
      id={id}
      aria-label={id ? undefined : label}
      max={Math.max(1, max)}
      value={value}
      className="h-3 w-full overflow-hidden rounded-full accent-brand-600"
    />
  );
  if (!id) return bar;
  return (
    <>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {bar}
    </>
  );
}

/** One figure of a summary (dashboard, customers): its caption, the value, an optional hint. */
// Captions in stone-600: at least 4.5:1 on white (stone-400 was 2.58:1).
export function StatCard({
  label,
  value,
  hint,
  testId,
}: {
  label: string;
  value: string | number;
  hint?: string;
  testId?: string;
}) {
  return (
    <div className="rounded-lg bg-white p-4 shadow-sm" data-testid={testId}>
      <p className="text-sm text-stone-600">{label}</p>
      <p className="mt-1 break-words text-2xl font-bold">{value}</p>
      {hint ? <p className="text-xs text-stone-600">{hint}</p> : null}
    </div>
  );
}

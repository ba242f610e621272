/**
 * The zones to show ticked: what the form last sent when it came back refused (its answer's
 * `initialValue`, nothing ticked included), else the saved limit.
 */
export function chosenZones(
  lastResult: { initialValue?: Record<string, unknown> | null } | null | undefined,
  saved: readonly number[],
): number[] {
  if (!lastResult?.initialValue) return [...saved];
  const sent = lastResult.initialValue.ship_zones;
  const list = Array.isArray(sent) ? sent : sent === undefined || sent === null ? [] : [sent];
  return list.map(Number).filter(Number.isInteger);
}

/**
 * The shipping zones a product or category is limited to (docs/decisions/049): a checkbox per
 * zone, named in both languages, posted as `ship_zones[]` (a list, as html-validate wants checkbox groups named; none ticked: ships wherever the shop
 * ships). Plain checkboxes, with or without JavaScript. Nothing when the shop has no zones.
 */
export function ShipZoneChoice({
  legend,
  hint,
  zones,
  chosen,
}: {
  legend: string;
  hint: string;
  zones: readonly { id: number; name_en: string; name_zh: string }[];
  chosen: readonly number[];
}) {
  if (zones.length === 0) return null;
  return (
    // Keyed by the choice: a refused form's answer re-renders the boxes as they were sent.
    <fieldset key={chosen.join(",")} className="sm:col-span-2">
      <legend className="text-sm font-medium text-stone-800">{legend}</legend>
      <p className="text-xs text-stone-500">{hint}</p>
      <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
        {zones.map((zone) => (
          <label key={zone.id} className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              name="ship_zones[]"
              value={String(zone.id)}
              defaultChecked={chosen.includes(zone.id)}
              className="size-4"
            />
            {zone.name_en} / {zone.name_zh}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

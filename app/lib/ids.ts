/**
 * A positive integer id from a URL parameter, query value or form field, else null. The one
 * rule for every id the shop reads from a request: digits only, no sign, no leading zero,
 * a safe integer. A route answers null with a 404 (a page) or a 400 (a form).
 */
export function parseId(value: FormDataEntryValue | string | null | undefined): number | null {
  if (typeof value !== "string" || !/^[1-9]\d{0,15}$/.test(value.trim())) return null;
  const id = Number(value.trim());
  return Number.isSafeInteger(id) ? id : null;
}

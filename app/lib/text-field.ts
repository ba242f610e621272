import { z } from "zod";

/**
 * A required text field of a form schema, trimmed: missing or blank is `requiredKey`, longer than
 * `max` characters is `tooLongKey` (both translation keys).
 */
export function requiredText(requiredKey: string, max: number, tooLongKey: string) {
  return z.string({ error: requiredKey }).trim().min(1, { error: requiredKey }).max(max, { error: tooLongKey });
}

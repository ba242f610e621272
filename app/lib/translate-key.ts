import type { TFunction } from "i18next";

/** Translates a key that arrived as data (flash messages, form errors), not a literal. */
export function translateKey(t: TFunction, key: string, params?: Record<string, unknown>): string {
  // biome-ignore lint/suspicious/noExplicitAny: the key is data; a missing one shows as the key
  return t(key as any, params as any) as string;
}

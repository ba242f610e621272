import type { Language } from "~/locales";

/**
 * The one way the shop shows a date or time: in Hong Kong time, whoever reads it and wherever
 * the code runs (server, browser, e-mail), so the account pages, the admin and the e-mails all
 * name the same day. Timestamps are stored as ISO-8601 UTC text (db/schema.ts).
 */

export const SHOP_TIME_ZONE = "Asia/Hong_Kong";

/** Hong Kong is UTC+8 all year (no daylight saving since 1979). */
const HONG_KONG_OFFSET_MS = 8 * 60 * 60 * 1000;

const LOCALES: Record<Language, string> = { en: "en-GB", zh: "zh-HK" };

/**
 * - `date`: 23 Nov 2026 / 2026年11月23日 (lists, tables)
 * - `longDate`: 23 November 2026 / 2026年11月23日 (published on, member since)
 * - `dateTime`: 23 Nov 2026, 21:05 / 2026年11月23日 下午9:05
 * - `time`: 21:05 / 下午9:05
 */
export type DateStyle = "date" | "longDate" | "dateTime" | "time";

const OPTIONS: Record<DateStyle, Intl.DateTimeFormatOptions> = {
  date: { dateStyle: "medium" },
  longDate: { dateStyle: "long" },
  dateTime: { dateStyle: "medium", timeStyle: "short" },
  time: { timeStyle: "short" },
};

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(language: Language, style: DateStyle): Intl.DateTimeFormat {
  const key = `${language}:${style}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(LOCALES[language], { ...OPTIONS[style], timeZone: SHOP_TIME_ZONE });
    formatters.set(key, formatter);
  }
  return formatter;
}

function toDate(value: string | number | Date): Date {
  return value instanceof Date ? value : new Date(value);
}

/** A stored timestamp (or a Date) for a reader, in Hong Kong time; "" when it is not a date. */
export function formatDate(value: string | number | Date, language: Language, style: DateStyle = "date"): string {
  const date = toDate(value);
  if (Number.isNaN(date.getTime())) return "";
  return formatterFor(language === "zh" ? "zh" : "en", style).format(date);
}

function hongKongIso(value: string | number | Date): string | null {
  const time = toDate(value).getTime();
  if (Number.isNaN(time)) return null;
  return new Date(time + HONG_KONG_OFFSET_MS).toISOString();
}

/** The Hong Kong date (YYYY-MM-DD) of an instant: file names, the page-view rollups' day. */
export function hongKongDate(value: string | number | Date = Date.now()): string {
  return hongKongIso(value)?.slice(0, 10) ?? "";
}

/** The Hong Kong date and time to the minute, "2026-11-23 21:05": for files (CSV), not for reading. */
export function hongKongDateTime(value: string | number | Date): string {
  const iso = hongKongIso(value);
  return iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}` : "";
}

const HONG_KONG_INPUT = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})$/;

/**
 * A date and time typed in Hong Kong time — a `datetime-local` field's "2026-12-01T18:00", or a
 * CSV file's "2026-12-01 18:00" — as the stored ISO-8601 UTC timestamp; null when it is not one.
 */
export function fromHongKongInput(text: string): string | null {
  const match = HONG_KONG_INPUT.exec(text.trim());
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number];
  const time = Date.UTC(year, month - 1, day, hour, minute) - HONG_KONG_OFFSET_MS;
  const date = new Date(time);
  // 2026-02-31 rolls over to March: not a date.
  if (hongKongIso(date)?.slice(0, 16) !== `${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}`) return null;
  return date.toISOString();
}

/** A stored timestamp as a `datetime-local` field shows it in Hong Kong time: "2026-12-01T18:00". */
export function toHongKongInput(value: string | number | Date): string {
  return hongKongIso(value)?.slice(0, 16) ?? "";
}

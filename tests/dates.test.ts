import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatDate, hongKongDate, hongKongDateTime } from "~/lib/dates";

// 21:05 on 23 November in Hong Kong; 13:05 UTC.
const EVENING = "2026-11-23T13:05:00.000Z";
// 00:30 on 24 November in Hong Kong, while UTC is still on the 23rd.
const AFTER_MIDNIGHT = "2026-11-23T16:30:00.000Z";

describe("formatDate: every date in Hong Kong time", () => {
  it("formats in English (en-GB) and Chinese (zh-HK), in each style", () => {
    expect(formatDate(EVENING, "en")).toBe("23 Nov 2026");
    expect(formatDate(EVENING, "en", "longDate")).toBe("23 November 2026");
    expect(formatDate(EVENING, "en", "dateTime")).toBe("23 Nov 2026, 21:05");
    expect(formatDate(EVENING, "en", "time")).toBe("21:05");
    expect(formatDate(EVENING, "zh")).toBe("2026年11月23日");
    expect(formatDate(EVENING, "zh", "dateTime")).toBe("2026年11月23日 下午9:05");
    expect(formatDate(EVENING, "zh", "time")).toBe("下午9:05");
  });

  it("names the Hong Kong day, not the UTC or the machine's one, around midnight", () => {
    expect(formatDate(AFTER_MIDNIGHT, "en")).toBe("24 Nov 2026");
    expect(formatDate(AFTER_MIDNIGHT, "en", "dateTime")).toBe("24 Nov 2026, 00:30");
    expect(formatDate(AFTER_MIDNIGHT, "zh")).toBe("2026年11月24日");
    expect(formatDate("2026-11-23T15:59:00.000Z", "en", "dateTime")).toBe("23 Nov 2026, 23:59");
  });

  it("takes a Date or a number as well as stored text, and gives '' for what is not a date", () => {
    expect(formatDate(new Date(EVENING), "en", "dateTime")).toBe("23 Nov 2026, 21:05");
    expect(formatDate(Date.parse(EVENING), "en")).toBe("23 Nov 2026");
    expect(formatDate("not a date", "en")).toBe("");
  });

  it("gives machine forms in Hong Kong time: the day and the minute", () => {
    expect(hongKongDate(Date.parse(AFTER_MIDNIGHT))).toBe("2026-11-24");
    expect(hongKongDate("2026-11-23T15:59:59.999Z")).toBe("2026-11-23");
    expect(hongKongDateTime(EVENING)).toBe("2026-11-23 21:05");
    expect(hongKongDateTime(AFTER_MIDNIGHT)).toBe("2026-11-24 00:30");
    expect(hongKongDateTime("")).toBe("");
  });

  it("is the only place that builds a date formatter", () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (/\.tsx?$/.test(entry.name) && !file.endsWith(path.join("lib", "dates.ts"))) {
          const text = fs.readFileSync(file, "utf8");
          if (/Intl\.DateTimeFormat|toLocale(Date|Time)?String/.test(text)) offenders.push(path.relative(".", file));
        }
      }
    };
    walk(path.resolve("app"));
    walk(path.resolve("server"));
    expect(offenders).toEqual([]);
  });
});

import { createInstance } from "i18next";
import { describe, expect, it } from "vitest";
import resources from "~/locales";

/**
 * WCAG 2.5.3 (label in name; axe's label-content-name-mismatch): a control whose aria-label
 * names the thing it acts on must start with its visible text, so a speech user who says what
 * they see ("Mark Paid") reaches it. Pairs of [visible text, accessible name] of the admin's
 * row buttons and links, in both languages.
 */
const PAIRS: [visible: string, label: string][] = [
  ["adminOrders.markPaid", "adminOrders.markPaidFor"],
  ["adminOrders.markShipped", "adminOrders.markShippedFor"],
  ["adminOrders.details", "adminOrders.detailsFor"],
  ["adminSettings.banking.makePrimary", "adminSettings.banking.makePrimaryNamed"],
  ["adminSettings.banking.edit", "adminSettings.banking.editNamed"],
  ["adminSettings.banking.delete", "adminSettings.banking.deleteNamed"],
  ["adminCustomers.view", "adminCustomers.viewNamed"],
];

describe("admin controls: the accessible name starts with the visible text", () => {
  for (const language of ["en", "zh"] as const) {
    it(language, async () => {
      const i18n = createInstance();
      await i18n.init({ resources, lng: language, interpolation: { escapeValue: false } });
      // Keys from a table, not literals: looked up untyped.
      const t = i18n.t as unknown as (key: string, params?: Record<string, string>) => string;
      const params = { number: "ORD-1795000000000-ABC123", name: "HSBC 123-456", email: "a@b.hk" };
      for (const [visible, label] of PAIRS) {
        const text = t(visible);
        const name = t(label, params);
        expect(text, visible).not.toBe(visible);
        expect(name, label).not.toBe(label);
        expect(name.startsWith(text), `${label}: "${name}" should start with "${text}"`).toBe(true);
      }
    });
  }
});

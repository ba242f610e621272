import { describe, expect, it } from "vitest";
import { countryForIp } from "~/lib/geoip.server";
import { CURRENCY_SYMBOLS, formatMoney, priceIn } from "~/lib/money";
import { currencyCookie, currencyForCountry, EURO_ZONE, isCurrency, resolveCurrency } from "~/request/currency.server";

/** The euro area as of 2026: the 20 members of 2025 (Croatia joined in 2023) and Bulgaria (1 January 2026). */
const EURO_AREA = [
  "AT",
  "BE",
  "BG",
  "CY",
  "DE",
  "EE",
  "ES",
  "FI",
  "FR",
  "GR",
  "HR",
  "IE",
  "IT",
  "LT",
  "LU",
  "LV",
  "MT",
  "NL",
  "PT",
  "SI",
  "SK",
];

describe("currencyForCountry", () => {
  it("GB pays in pounds, in any case", () => {
    expect(currencyForCountry("GB")).toBe("GBP");
    expect(currencyForCountry("gb")).toBe("GBP");
  });

  it.each(EURO_AREA)("%s pays in euros", (code) => {
    expect(currencyForCountry(code)).toBe("EUR");
    expect(currencyForCountry(code.toLowerCase())).toBe("EUR");
  });

  it("the euro zone is exactly the current euro area: 21 members, Croatia and Bulgaria included", () => {
    expect([...EURO_ZONE].sort()).toEqual([...EURO_AREA].sort());
    expect(EURO_ZONE.size).toBe(21);
    expect(currencyForCountry("HR")).toBe("EUR");
    expect(currencyForCountry("BG")).toBe("EUR");
  });

  it.each([["HK"], ["US"], ["CH"], ["SE"], ["UK"], ["CN"], [""], ["garbage"], ["EU"], ["D"], [null], [undefined]])(
    "%s falls back to HKD",
    (code) => {
      expect(currencyForCountry(code)).toBe("HKD");
    },
  );
});

describe("countryForIp (bundled offline GeoIP database)", () => {
  it("maps public addresses to their country", () => {
    expect(countryForIp("8.8.8.8")).toBe("US");
    expect(countryForIp("81.2.69.142")).toBe("GB");
    expect(countryForIp("2.125.160.216")).toBe("GB");
  });

  it("understands IPv4-mapped IPv6 addresses", () => {
    expect(countryForIp("::ffff:8.8.8.8")).toBe("US");
    expect(countryForIp("::ffff:81.2.69.142")).toBe("GB");
  });

  it.each([["127.0.0.1"], ["::1"], ["10.0.0.1"], ["192.168.1.1"], ["172.16.5.4"], ["::ffff:127.0.0.1"]])(
    "%s (loopback/private) has no country",
    (ip) => {
      expect(countryForIp(ip)).toBeNull();
    },
  );

  it.each([[null], [undefined], [""], ["not an ip"], ["999.1.1.1"]])("%s has no country", (ip) => {
    expect(countryForIp(ip)).toBeNull();
  });
});

describe("resolveCurrency", () => {
  async function requestWithCurrencyCookie(value: string | null): Promise<Request> {
    const headers = new Headers();
    if (value !== null) {
      const setCookie = await currencyCookie.serialize(value);
      headers.set("Cookie", setCookie.split(";")[0] ?? "");
    }
    return new Request("http://shop.test/", { headers });
  }

  it("the shopper's cookie choice wins over their country", async () => {
    const request = await requestWithCurrencyCookie("USD");
    expect(await resolveCurrency(request.headers.get("Cookie"), { ip: "81.2.69.142", proxyCountry: "DE" })).toBe("USD");
    expect(
      await resolveCurrency((await requestWithCurrencyCookie("HKD")).headers.get("Cookie"), {
        ip: "81.2.69.142",
        proxyCountry: "GB",
      }),
    ).toBe("HKD");
  });

  it("without a cookie, the proxy's country wins over the IP", async () => {
    const request = await requestWithCurrencyCookie(null);
    expect(await resolveCurrency(request.headers.get("Cookie"), { ip: "81.2.69.142", proxyCountry: "FR" })).toBe("EUR");
    expect(await resolveCurrency(request.headers.get("Cookie"), { ip: "8.8.8.8", proxyCountry: "GB" })).toBe("GBP");
  });

  it("without cookie or proxy header, the IP's country decides", async () => {
    const request = await requestWithCurrencyCookie(null);
    expect(await resolveCurrency(request.headers.get("Cookie"), { ip: "81.2.69.142", proxyCountry: null })).toBe("GBP");
    expect(await resolveCurrency(request.headers.get("Cookie"), { ip: "8.8.8.8", proxyCountry: null })).toBe("HKD");
    expect(await resolveCurrency(request.headers.get("Cookie"), { ip: "127.0.0.1", proxyCountry: null })).toBe("HKD");
    expect(await resolveCurrency(request.headers.get("Cookie"), { ip: null, proxyCountry: null })).toBe("HKD");
  });

  it("an invalid cookie value is ignored", async () => {
    for (const value of ["BTC", "gbp", "", "HKD; EUR"]) {
      const request = await requestWithCurrencyCookie(value);
      expect(await resolveCurrency(request.headers.get("Cookie"), { ip: "81.2.69.142", proxyCountry: null })).toBe(
        "GBP",
      );
    }
    const raw = new Request("http://shop.test/", { headers: { Cookie: "currency=%%%garbage" } });
    expect(await resolveCurrency(raw.headers.get("Cookie"), { ip: null, proxyCountry: "IE" })).toBe("EUR");
  });

  it("isCurrency accepts exactly the four currencies", () => {
    for (const c of ["HKD", "GBP", "EUR", "USD"]) expect(isCurrency(c)).toBe(true);
    for (const c of ["hkd", "JPY", "", null, undefined, 1, {}]) expect(isCurrency(c)).toBe(false);
  });
});

describe("formatMoney", () => {
  it.each([
    [123450, "HKD", "HK$1,234.50"],
    [99, "GBP", "£0.99"],
    [1200, "EUR", "€12.00"],
    [100000000, "USD", "$1,000,000.00"],
    [0, "HKD", "HK$0.00"],
    [5, "USD", "$0.05"],
    [100, "GBP", "£1.00"],
    [99999, "EUR", "€999.99"],
    [100000, "EUR", "€1,000.00"],
    [-123450, "HKD", "-HK$1,234.50"],
    [-99, "GBP", "-£0.99"],
    [123456789012, "HKD", "HK$1,234,567,890.12"],
  ] as const)("%i %s → %s", (cents, currency, expected) => {
    expect(formatMoney(cents, currency)).toBe(expected);
  });

  it("uses each currency's symbol", () => {
    expect(CURRENCY_SYMBOLS).toEqual({ HKD: "HK$", GBP: "£", EUR: "€", USD: "$" });
  });
});

describe("priceIn", () => {
  const product = { price_hkd_cents: 150000, price_gbp_cents: 15500, price_eur_cents: 17900, price_usd_cents: 19900 };

  it("picks the column of the currency (prices are set per currency, not converted)", () => {
    expect(priceIn(product, "HKD")).toBe(150000);
    expect(priceIn(product, "GBP")).toBe(15500);
    expect(priceIn(product, "EUR")).toBe(17900);
    expect(priceIn(product, "USD")).toBe(19900);
    expect(formatMoney(priceIn(product, "GBP"), "GBP")).toBe("£155.00");
  });
});

/**
 * The ISO 3166-1 alpha-2 codes a destination may be (the officially assigned ones), and their
 * names in a language through `Intl.DisplayNames`. Hong Kong first in every list: the shop's home.
 */
export const COUNTRY_CODES = [
  "AD",
  "AE",
  "AF",
  "AG",
  "AI",
  "AL",
  "AM",
  "AO",
  "AQ",
  "AR",
  "AS",
  "AT",
  "AU",
  "AW",
  "AX",
  "AZ",
  "BA",
  "BB",
  "BD",
  "BE",
  "BF",
  "BG",
  "BH",
  "BI",
  "BJ",
  "BL",
  "BM",
  "BN",
  "BO",
  "BQ",
  "BR",
  "BS",
  "BT",
  "BV",
  "BW",
  "BY",
  "BZ",
  "CA",
  "CC",
  "CD",
  "CF",
  "CG",
  "CH",
  "CI",
  "CK",
  "CL",
  "CM",
  "CN",
  "CO",
  "CR",
  "CU",
  "CV",
  "CW",
  "CX",
  "CY",
  "CZ",
  "DE",
  "DJ",
  "DK",
  "DM",
  "DO",
  "DZ",
  "EC",
  "EE",
  "EG",
  "EH",
  "ER",
  "ES",
  "ET",
  "FI",
  "FJ",
  "FK",
  "FM",
  "FO",
  "FR",
  "GA",
  "GB",
  "GD",
  "GE",
  "GF",
  "GG",
  "GH",
  "GI",
  "GL",
  "GM",
  "GN",
  "GP",
  "GQ",
  "GR",
  "GS",
  "GT",
  "GU",
  "GW",
  "GY",
  "HK",
  "HM",
  "HN",
  "HR",
  "HT",
  "HU",
  "ID",
  "IE",
  "IL",
  "IM",
  "IN",
  "IO",
  "IQ",
  "IR",
  "IS",
  "IT",
  "JE",
  "JM",
  "JO",
  "JP",
  "KE",
  "KG",
  "KH",
  "KI",
  "KM",
  "KN",
  "KP",
  "KR",
  "KW",
  "KY",
  "KZ",
  "LA",
  "LB",
  "LC",
  "LI",
  "LK",
  "LR",
  "LS",
  "LT",
  "LU",
  "LV",
  "LY",
  "MA",
  "MC",
  "MD",
  "ME",
  "MF",
  "MG",
  "MH",
  "MK",
  "ML",
  "MM",
  "MN",
  "MO",
  "MP",
  "MQ",
  "MR",
  "MS",
  "MT",
  "MU",
  "MV",
  "MW",
  "MX",
  "MY",
  "MZ",
  "NA",
  "NC",
  "NE",
  "NF",
  "NG",
  "NI",
  "NL",
  "NO",
  "NP",
  "NR",
  "NU",
  "NZ",
  "OM",
  "PA",
  "PE",
  "PF",
  "PG",
  "PH",
  "PK",
  "PL",
  "PM",
  "PN",
  "PR",
  "PS",
  "PT",
  "PW",
  "PY",
  "QA",
  "RE",
  "RO",
  "RS",
  "RU",
  "RW",
  "SA",
  "SB",
  "SC",
  "SD",
  "SE",
  "SG",
  "SH",
  "SI",
  "SJ",
  "SK",
  "SL",
  "SM",
  "SN",
  "SO",
  "SR",
  "SS",
  "ST",
  "SV",
  "SX",
  "SY",
  "SZ",
  "TC",
  "TD",
  "TF",
  "TG",
  "TH",
  "TJ",
  "TK",
  "TL",
  "TM",
  "TN",
  "TO",
  "TR",
  "TT",
  "TV",
  "TW",
  "TZ",
  "UA",
  "UG",
  "UM",
  "US",
  "UY",
  "UZ",
  "VA",
  "VC",
  "VE",
  "VG",
  "VI",
  "VN",
  "VU",
  "WF",
  "WS",
  "YE",
  "YT",
  "ZA",
  "ZM",
  "ZW",
] as const;

export type CountryCode = (typeof COUNTRY_CODES)[number];

const KNOWN = new Set<string>(COUNTRY_CODES);

/** The code as stored (upper case) when it is an assigned ISO 3166-1 alpha-2 code, else null. */
export function countryCode(value: unknown): CountryCode | null {
  if (typeof value !== "string") return null;
  const code = value.trim().toUpperCase();
  return KNOWN.has(code) ? (code as CountryCode) : null;
}

const LOCALES = { en: "en", zh: "zh-Hant-HK" } as const;

/** The names the shop's shoppers use where `Intl`'s are official ("Hong Kong SAR China"). */
const SHORT_NAMES: Record<"en" | "zh", Partial<Record<string, string>>> = {
  en: { HK: "Hong Kong", MO: "Macau" },
  zh: { HK: "香港", MO: "澳門", TW: "台灣" },
};

/** A country's name in the page's language ("Macao SAR China" / "中國澳門特別行政區"); the code when unknown. */
export function countryName(code: string, language: "en" | "zh"): string {
  const short = SHORT_NAMES[language][code];
  if (short) return short;
  try {
    return new Intl.DisplayNames([LOCALES[language]], { type: "region", fallback: "code" }).of(code) ?? code;
  } catch {
    return code;
  }
}

const optionsByLanguage = new Map<"en" | "zh", readonly { code: CountryCode; name: string }[]>();

/**
 * Every country as { code, name } in a language: Hong Kong first, then alphabetical in that
 * language. Computed once per language (the cart and checkout pages asked on every render: a
 * few percent of their CPU, decision 069). Shared: never change the list.
 */
export function countryOptions(language: "en" | "zh"): readonly { code: CountryCode; name: string }[] {
  let options = optionsByLanguage.get(language);
  if (!options) {
    options = Object.freeze(sortedCountryOptions(language));
    optionsByLanguage.set(language, options);
  }
  return options;
}

function sortedCountryOptions(language: "en" | "zh"): { code: CountryCode; name: string }[] {
  const names = new Intl.DisplayNames([LOCALES[language]], { type: "region", fallback: "code" });
  const collator = new Intl.Collator(LOCALES[language]);
  const rest = COUNTRY_CODES.filter((code) => code !== "HK")
    .map((code) => ({ code, name: SHORT_NAMES[language][code] ?? names.of(code) ?? code }))
    .sort((a, b) => collator.compare(a.name, b.name));
  return [{ code: "HK", name: countryName("HK", language) }, ...rest];
}

/** Names shoppers typed before the country was a select, beyond the `Intl` names in both languages. */
const ALIASES: Record<string, CountryCode> = {
  "hong kong": "HK",
  hongkong: "HK",
  "hong kong sar": "HK",
  香港: "HK",
  macau: "MO",
  macao: "MO",
  澳門: "MO",
  澳门: "MO",
  taiwan: "TW",
  台灣: "TW",
  臺灣: "TW",
  china: "CN",
  中國: "CN",
  "united kingdom": "GB",
  uk: "GB",
  usa: "US",
  "united states": "US",
};

let byName: Map<string, CountryCode> | null = null;

/**
 * The country a checkout field names: its ISO code (the select sends it), or — from a form or a
 * saved address of before the select — its name in English or Chinese; null when it names none.
 */
export function resolveCountry(value: unknown): CountryCode | null {
  const code = countryCode(value);
  if (code) return code;
  if (typeof value !== "string") return null;
  if (!byName) {
    byName = new Map(Object.entries(ALIASES));
    for (const language of ["en", "zh"] as const) {
      for (const option of countryOptions(language)) byName.set(option.name.toLowerCase(), option.code);
    }
  }
  return byName.get(value.trim().toLowerCase()) ?? null;
}

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import maxmind, { type CountryResponse, Reader } from "maxmind";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { loadConfig } from "~/lib/config.server";
import {
  type CountryDatabase,
  countryForIp,
  GeoIpError,
  openCountryDatabase,
  setCountryDatabase,
  startCountryLookup,
} from "~/lib/geoip.server";
import { logger } from "~/lib/log.server";
import { resolveCurrency } from "~/request/currency.server";
import { countryRecord, type MmdbNetwork, writeMmdb } from "./setup/mmdb";

/** Documentation ranges (never on the internet), so the bundled data places none of them. */
const FIRST_RELEASE: MmdbNetwork[] = [
  { network: "203.0.113.0/24", data: countryRecord("GB", { en: "United Kingdom", "zh-CN": "英国" }) },
  { network: "198.51.100.0/24", data: countryRecord("DE") },
  { network: "192.0.2.0/25", data: countryRecord("US") },
  // A network MaxMind places only by its registration (no `country`): an anycast or satellite range.
  { network: "192.0.2.128/25", data: { registered_country: { geoname_id: 3017382, iso_code: "FR" } } },
  { network: "2001:db8:44::/48", data: countryRecord("GB") },
  { network: "2001:db8:852::/48", data: countryRecord("HK") },
  // Private and loopback networks are never looked up, even where a database places them.
  { network: "10.0.0.0/8", data: countryRecord("GB") },
  { network: "127.0.0.0/8", data: countryRecord("GB") },
  { network: "fc00::/7", data: countryRecord("GB") },
];

/** The next week's release: 203.0.113.0/24 moved to Ireland, 198.51.100.0/24 to Hong Kong. */
const SECOND_RELEASE: MmdbNetwork[] = [
  { network: "203.0.113.0/24", data: countryRecord("IE") },
  { network: "198.51.100.0/24", data: countryRecord("HK") },
  { network: "2001:db8:44::/48", data: countryRecord("IE") },
];

const noCookie = null;
const currencyOf = (ip: string) => resolveCurrency(noCookie, { ip, proxyCountry: null });

let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "geoip-test-"));
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

afterEach(() => {
  setCountryDatabase(null);
});

/** Writes `bytes` next to `file` and renames it over `file`, as geoipupdate replaces its database. */
function replaceByRename(file: string, bytes: Buffer): void {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, bytes);
  fs.renameSync(temporary, file);
}

/** A database whose data section is cut out: its tree and metadata alone still parse. */
function withoutDataSection(bytes: Buffer): Buffer {
  const { searchTreeSize } = new Reader(bytes).metadata;
  const marker = bytes.lastIndexOf(Buffer.from("abcdef4d61784d696e642e636f6d", "hex"));
  return Buffer.concat([bytes.subarray(0, searchTreeSize + 16), bytes.subarray(marker)]);
}

function databaseFile(name: string, networks: MmdbNetwork[]): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, writeMmdb(networks));
  return file;
}

describe("the test MMDB writer, read back by the maxmind reader", () => {
  it.each([
    [24, 6],
    [28, 6],
    [32, 6],
    [24, 4],
    [28, 4],
  ] as const)("%i-bit records, IPv%i tree: every network answers its record, others none", (recordSize, ipVersion) => {
    const networks = FIRST_RELEASE.filter(({ network }) => ipVersion === 6 || !network.includes(":"));
    const reader = new Reader<CountryResponse>(writeMmdb(networks, { recordSize, ipVersion }));
    expect(reader.metadata).toMatchObject({ recordSize, ipVersion, binaryFormatMajorVersion: 2 });
    expect(reader.get("203.0.113.200")?.country).toEqual({
      geoname_id: expect.any(Number),
      iso_code: "GB",
      names: { en: "United Kingdom", "zh-CN": "英国" },
    });
    expect(reader.getWithPrefixLength("198.51.100.1")).toEqual([expect.anything(), 24]);
    expect(reader.get("198.51.100.1")?.country?.iso_code).toBe("DE");
    expect(reader.get("192.0.2.127")?.country?.iso_code).toBe("US");
    expect(reader.get("192.0.2.128")?.country).toBeUndefined();
    expect(reader.get("192.0.2.128")?.registered_country?.iso_code).toBe("FR");
    expect(reader.get("203.0.114.1")).toBeNull();
    expect(reader.get("8.8.8.8")).toBeNull();
    if (ipVersion === 6) {
      expect(reader.get("2001:db8:44:1::7")?.country?.iso_code).toBe("GB");
      expect(reader.get("2001:db8:852::1")?.country?.iso_code).toBe("HK");
      expect(reader.get("2001:db8:45::1")).toBeNull();
    }
  });

  it("writes the metadata a MaxMind database carries", async () => {
    const file = path.join(dir, "metadata.mmdb");
    fs.writeFileSync(
      file,
      writeMmdb(FIRST_RELEASE, {
        databaseType: "GeoLite2-Country",
        languages: ["en", "zh-CN"],
        description: { en: "GeoLite2 Country database" },
        buildEpoch: 1_795_000_000,
      }),
    );
    // The package's own open() too, not only the Reader class.
    const reader = await maxmind.open<CountryResponse>(file);
    expect(reader.metadata).toMatchObject({
      binaryFormatMajorVersion: 2,
      binaryFormatMinorVersion: 0,
      databaseType: "GeoLite2-Country",
      languages: ["en", "zh-CN"],
      description: { en: "GeoLite2 Country database" },
      buildEpoch: new Date(1_795_000_000 * 1000),
      ipVersion: 6,
      recordSize: 24,
    });
    expect(reader.get("2001:db8:852::9")?.country?.iso_code).toBe("HK");
  });

  it("a more specific network inside an earlier one overrides it there only", () => {
    const reader = new Reader<CountryResponse>(
      writeMmdb([
        { network: "198.51.100.0/24", data: countryRecord("DE") },
        { network: "198.51.100.64/26", data: countryRecord("AT") },
      ]),
    );
    expect(reader.get("198.51.100.63")?.country?.iso_code).toBe("DE");
    expect(reader.get("198.51.100.64")?.country?.iso_code).toBe("AT");
    expect(reader.get("198.51.100.127")?.country?.iso_code).toBe("AT");
    expect(reader.get("198.51.100.128")?.country?.iso_code).toBe("DE");
  });
});

describe("GEOIP_DB: the shopper's country and currency from a MaxMind database", () => {
  let database: CountryDatabase;

  beforeAll(async () => {
    database = await openCountryDatabase(databaseFile("first.mmdb", FIRST_RELEASE), { pollMs: 50 });
  });

  afterAll(() => database.close());

  it("the currency default follows the database: GB → GBP, DE → EUR, US and HK → HKD, IPv4 and IPv6", async () => {
    setCountryDatabase(database);
    expect(countryForIp("203.0.113.9")).toBe("GB");
    expect(await currencyOf("203.0.113.9")).toBe("GBP");
    expect(await currencyOf("::ffff:203.0.113.9")).toBe("GBP");
    expect(await currencyOf("198.51.100.20")).toBe("EUR");
    expect(countryForIp("192.0.2.1")).toBe("US");
    expect(await currencyOf("192.0.2.1")).toBe("HKD");
    expect(await currencyOf("2001:db8:44::1")).toBe("GBP");
    expect(countryForIp("2001:db8:852::1")).toBe("HK");
    expect(await currencyOf("2001:db8:852::1")).toBe("HKD");
  });

  it("a network placed only by its registered country answers that country", async () => {
    setCountryDatabase(database);
    expect(countryForIp("192.0.2.200")).toBe("FR");
    expect(await currencyOf("192.0.2.200")).toBe("EUR");
  });

  it("loopback and private addresses have no country, whatever the database says; nor does a non-address", () => {
    setCountryDatabase(database);
    for (const ip of ["10.1.2.3", "127.0.0.1", "::ffff:127.0.0.1", "::1", "fd00::5", "not an ip", "999.1.1.1", ""]) {
      expect(countryForIp(ip), ip).toBeNull();
    }
  });

  it("the database replaces the bundled data: an address it does not hold has no country", async () => {
    setCountryDatabase(database);
    // The bundled data places these (below); this database does not hold them.
    expect(countryForIp("81.2.69.142")).toBeNull();
    expect(countryForIp("147.8.2.58")).toBeNull();
    expect(await currencyOf("81.2.69.142")).toBe("HKD");
  });
});

describe("GEOIP_DB replaced while the shop runs", () => {
  it("a new file renamed over the old one answers within a poll, without a restart", async () => {
    const file = databaseFile("renamed.mmdb", FIRST_RELEASE);
    const database = await openCountryDatabase(file, { pollMs: 50 });
    setCountryDatabase(database);
    expect(countryForIp("203.0.113.9")).toBe("GB");
    // At once, before the first look: what counts is the version read, not a first stat.
    replaceByRename(file, writeMmdb(SECOND_RELEASE));
    expect(await currencyOf("198.51.100.20")).toBe("EUR");

    await vi.waitFor(() => expect(countryForIp("203.0.113.9")).toBe("IE"), { timeout: 5000, interval: 25 });
    expect(await currencyOf("203.0.113.9")).toBe("EUR");
    expect(await currencyOf("198.51.100.20")).toBe("HKD");
    expect(countryForIp("2001:db8:44::1")).toBe("IE");
    expect(countryForIp("192.0.2.1")).toBeNull();
    expect(database.reloads).toBe(1);
    expect(database.lastError).toBeNull();
  });

  it("a corrupt or half-written replacement is logged and the old answers stay; the next good file is taken", async () => {
    const file = databaseFile("corrupt.mmdb", FIRST_RELEASE);
    const database = await openCountryDatabase(file, { pollMs: 50 });
    setCountryDatabase(database);
    const errors = vi.spyOn(logger, "error").mockImplementation(() => {});
    try {
      const good = writeMmdb(SECOND_RELEASE);
      for (const bad of [
        good.subarray(0, Math.floor(good.length / 2)), // half-written: no metadata yet
        withoutDataSection(good), // readable metadata, but the records point at nothing
        Buffer.from("<html>502 Bad Gateway</html>"),
        zlib.gzipSync(good), // the download's archive instead of the file inside it
      ]) {
        errors.mockClear();
        replaceByRename(file, bad);
        await vi.waitFor(() => expect(errors).toHaveBeenCalled(), { timeout: 5000, interval: 25 });
        expect(String(errors.mock.calls[0]?.[0])).toMatch(/^geoip: GEOIP_DB .*corrupt\.mmdb .*; still answering from/);
        expect(database.lastError).toMatch(/corrupt\.mmdb/);
        expect(countryForIp("203.0.113.9")).toBe("GB");
        expect(await currencyOf("198.51.100.20")).toBe("EUR");
      }
      expect(database.reloads).toBe(0);

      fs.rmSync(file);
      errors.mockClear();
      await vi.waitFor(() => expect(errors).toHaveBeenCalled(), { timeout: 5000, interval: 25 });
      expect(database.lastError).toMatch(/corrupt\.mmdb does not exist/);
      expect(countryForIp("203.0.113.9")).toBe("GB");

      replaceByRename(file, good);
      await vi.waitFor(() => expect(countryForIp("203.0.113.9")).toBe("IE"), { timeout: 5000, interval: 25 });
      expect(database.lastError).toBeNull();
    } finally {
      errors.mockRestore();
    }
  });

  it("once closed, it stops following the file", async () => {
    const file = databaseFile("closed.mmdb", FIRST_RELEASE);
    const database = await openCountryDatabase(file, { pollMs: 20 });
    database.close();
    replaceByRename(file, writeMmdb(SECOND_RELEASE));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(database.country("203.0.113.9")).toBe("GB");
    expect(database.reloads).toBe(0);
  });
});

describe("GEOIP_DB at start", () => {
  it("a missing, unreadable or non-database file is one line naming GEOIP_DB", async () => {
    const missing = path.join(dir, "missing.mmdb");
    await expect(openCountryDatabase(missing)).rejects.toThrow(
      new GeoIpError(
        `GEOIP_DB ${missing} does not exist: run geoipupdate first, or unset GEOIP_DB to use the bundled country data`,
      ),
    );
    await expect(openCountryDatabase(dir)).rejects.toThrow(/^GEOIP_DB .* cannot be read \(EISDIR/);
    const text = path.join(dir, "text.mmdb");
    fs.writeFileSync(text, "not a database\n");
    await expect(openCountryDatabase(text)).rejects.toThrow(
      /^GEOIP_DB .*text\.mmdb is not a (complete )?MaxMind database/,
    );
    const gzipped = path.join(dir, "GeoLite2-Country.tar.gz");
    fs.writeFileSync(gzipped, zlib.gzipSync(writeMmdb(FIRST_RELEASE)));
    await expect(openCountryDatabase(gzipped)).rejects.toThrow(/is gzip-compressed: give the \.mmdb file inside/);
    for (const file of [missing, text, gzipped]) {
      const error = await openCountryDatabase(file).then(
        () => null,
        (reason: Error) => reason,
      );
      expect(error).toBeInstanceOf(GeoIpError);
      expect(error?.message).not.toContain("\n");
    }
  });

  it("the process that starts the shop refuses an unusable GEOIP_DB; a later worker falls back to the bundled data", async () => {
    const missing = path.join(dir, "gone.mmdb");
    await expect(startCountryLookup(missing, { strict: true })).rejects.toBeInstanceOf(GeoIpError);
    const errors = vi.spyOn(logger, "error").mockImplementation(() => {});
    try {
      const stop = await startCountryLookup(missing, { strict: false });
      expect(String(errors.mock.calls[0]?.[0])).toMatch(
        /^geoip: GEOIP_DB .*gone\.mmdb does not exist.*; using the bundled/,
      );
      expect(countryForIp("81.2.69.142")).toBe("GB");
      stop();
    } finally {
      errors.mockRestore();
    }
  });

  it("a usable GEOIP_DB is what countryForIp reads until the process stops it", async () => {
    const stop = await startCountryLookup(databaseFile("started.mmdb", FIRST_RELEASE), { strict: true });
    expect(countryForIp("203.0.113.9")).toBe("GB");
    stop();
    expect(countryForIp("203.0.113.9")).toBeNull();
    expect(countryForIp("81.2.69.142")).toBe("GB");
  });

  it("GEOIP_DB is read as an absolute path, unset or blank is the bundled data; GEOIP_POLL_SECONDS", () => {
    expect(loadConfig({ GEOIP_DB: "geo/GeoLite2-Country.mmdb" }).geoipDb).toBe(
      path.resolve("geo/GeoLite2-Country.mmdb"),
    );
    expect(loadConfig({ GEOIP_DB: " /var/lib/GeoIP/GeoLite2-Country.mmdb " }).geoipDb).toBe(
      "/var/lib/GeoIP/GeoLite2-Country.mmdb",
    );
    expect(loadConfig({}).geoipDb).toBeNull();
    expect(loadConfig({ GEOIP_DB: "  " }).geoipDb).toBeNull();
    expect(loadConfig({}).geoipPollMs).toBe(60_000);
    expect(loadConfig({ GEOIP_POLL_SECONDS: "5" }).geoipPollMs).toBe(5000);
    expect(() => loadConfig({ GEOIP_POLL_SECONDS: "0" })).toThrow(
      'GEOIP_POLL_SECONDS must be a whole number of seconds from 1 to 3600, not "0"',
    );
  });
});

describe("without GEOIP_DB: the bundled data", () => {
  it("still answers (a Hong Kong and a British address)", async () => {
    setCountryDatabase(null);
    expect(countryForIp("147.8.2.58")).toBe("HK");
    expect(await currencyOf("147.8.2.58")).toBe("HKD");
    expect(countryForIp("81.2.69.142")).toBe("GB");
    expect(await currencyOf("81.2.69.142")).toBe("GBP");
    expect(countryForIp("203.0.113.9")).toBeNull();
  });
});

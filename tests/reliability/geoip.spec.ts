import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { countryRecord, type MmdbNetwork, writeMmdb } from "../setup/mmdb";
import { newShopFiles, removeFiles, type Shop, startShop } from "./shop";

/**
 * GEOIP_DB on the production server (docs/decisions/064): a shop of two processes reads a new
 * database renamed over the old one, as geoipupdate does, in every process without a restart;
 * a corrupt file is logged by each and the previous data keeps answering; a missing file stops
 * the start with one line.
 */

const release = (country: string): MmdbNetwork[] => [
  { network: "203.0.113.0/24", data: countryRecord(country) },
  { network: "2001:db8:44::/48", data: countryRecord(country) },
];

function replaceByRename(file: string, bytes: Buffer): void {
  fs.writeFileSync(`${file}.tmp`, bytes);
  fs.renameSync(`${file}.tmp`, file);
}

/** The currency the header's picker shows a new visitor at `ip` (through a trusted proxy). */
function currencyFor(shop: Shop, ip: string): Promise<string> {
  return new Promise((resolve, reject) => {
    // A new connection each time (no keep-alive), so the cluster hands them to both processes in turn.
    const request = http.get(`${shop.baseURL}/`, { agent: false, headers: { "X-Forwarded-For": ip } }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        body += chunk;
      });
      response.on("end", () => {
        const selected = /<option value="([A-Z]{3})" selected/.exec(body)?.[1];
        resolve(selected ?? `no currency picker (status ${response.statusCode})`);
      });
    });
    request.on("error", reject);
  });
}

/** What six new visitors in a row see: three for each of the two processes. */
async function currenciesFor(shop: Shop, ip: string): Promise<string[]> {
  const seen: string[] = [];
  for (let visitor = 0; visitor < 6; visitor++) seen.push(await currencyFor(shop, ip));
  return seen;
}

const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;

test("every process reads a new GEOIP_DB renamed over the old one, and keeps it over a corrupt one", async () => {
  test.setTimeout(120_000);
  const files = newShopFiles("geoip");
  const database = path.join(files.dir, "GeoLite2-Country.mmdb");
  replaceByRename(database, writeMmdb(release("GB")));
  const shop = await startShop({
    files,
    env: {
      GEOIP_DB: database,
      GEOIP_POLL_SECONDS: "1",
      TRUST_PROXY: "on",
      WEB_CONCURRENCY: "2",
      SEED_DEMO: "off",
    },
  });
  try {
    expect(shop.stdout?.()).toContain(`geoip: GeoLite2-Country built `);
    expect(await currenciesFor(shop, "203.0.113.9")).toEqual(Array(6).fill("GBP"));
    expect(await currenciesFor(shop, "2001:db8:44::1")).toEqual(Array(6).fill("GBP"));

    replaceByRename(database, writeMmdb(release("FR")));
    await expect.poll(() => count(shop.stdout?.() ?? "", /geoip: reloaded /g), { timeout: 20_000 }).toBe(2);
    expect(await currenciesFor(shop, "203.0.113.9")).toEqual(Array(6).fill("EUR"));
    expect(await currenciesFor(shop, "2001:db8:44::1")).toEqual(Array(6).fill("EUR"));

    replaceByRename(database, writeMmdb(release("GB")).subarray(0, 100));
    await expect
      .poll(() => count(shop.stderr(), /geoip: GEOIP_DB .* still answering from GeoLite2-Country/g), {
        timeout: 20_000,
      })
      .toBe(2);
    expect(await currenciesFor(shop, "203.0.113.9")).toEqual(Array(6).fill("EUR"));
    expect(count(shop.stdout?.() ?? "", /geoip: reloaded /g)).toBe(2);
  } finally {
    await shop.stop();
    removeFiles(files);
  }
});

test("a GEOIP_DB that is not there stops the start with one line", async () => {
  const files = newShopFiles("geoip-missing");
  const missing = path.join(files.dir, "GeoLite2-Country.mmdb");
  try {
    const start = startShop({ files, env: { GEOIP_DB: missing, WEB_CONCURRENCY: "2" } });
    const error = await start.then(
      async (shop) => {
        await shop.stop();
        return null;
      },
      (reason: Error) => reason,
    );
    expect(error?.message).toBe(
      `the shop exited before it answered (code 1):\nGEOIP_DB ${missing} does not exist: run geoipupdate first, or unset GEOIP_DB to use the bundled country data\n`,
    );
    expect(fs.existsSync(files.databaseFile)).toBe(false);
  } finally {
    removeFiles(files);
  }
});

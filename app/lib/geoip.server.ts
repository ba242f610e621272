import fs from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import { type CountryResponse, Reader } from "maxmind";
import { logger } from "./log.server";

const require = createRequire(import.meta.url);

/*
 * The shopper's country from their address (docs/decisions/064): the currency default, the
 * destination a cart starts with, a sign-in's country. With GEOIP_DB, a MaxMind GeoLite2/GeoIP2
 * Country (or City) database the operator keeps fresh with MaxMind's `geoipupdate`; without it,
 * the copy bundled in the geoip-country package (frozen at its release).
 *
 * The database is read into memory once, so a lookup is a walk of a tree in memory: no file is
 * read on the request path. Each process watches the file (a stat every `pollMs`) and reads it
 * again when it changes — `geoipupdate` writes a new file and renames it over the old one —, then
 * swaps readers only if the new file reads as a whole database: a half-written or corrupt file is
 * logged once and the old reader keeps answering. (The `maxmind` package's own watchForUpdates
 * does not do that: it loads whatever it finds into the reader in use, and a file it cannot parse
 * is an unhandled rejection in the process.)
 */

/** How often each process looks at GEOIP_DB's file for a change, unless GEOIP_POLL_SECONDS says otherwise. */
export const GEOIP_POLL_MS = 60_000;

/** Addresses no database places: loopback, private networks, link-local, carrier-grade NAT, unspecified. */
const NOWHERE = new net.BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
] as const) {
  NOWHERE.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
] as const) {
  NOWHERE.addSubnet(network, prefix, "ipv6");
}

/** A GEOIP_DB that cannot be used: one line for the operator. */
export class GeoIpError extends Error {}

type GeoLookup = { lookup(ip: string): { country?: string } | null };

/** What a country database says about itself: logged when it is opened and reloaded. */
export interface CountryDatabaseInfo {
  type: string;
  builtAt: Date;
}

/** A decoded-record cache per reader (mmdb-lib's cache interface); a country database has a few hundred records. */
function recordCache(): { get(key: number): unknown; set(key: number, value: unknown): void } {
  const records = new Map<number, unknown>();
  return {
    get: (key) => records.get(key),
    set(key, value) {
      if (records.size >= 10_000) records.clear();
      records.set(key, value);
    },
  };
}

/** Reads `bytes` as a MaxMind database, or throws a GeoIpError saying why it is not one. */
function readDatabase(file: string, bytes: Buffer): Reader<CountryResponse> {
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    throw new GeoIpError(`GEOIP_DB ${file} is gzip-compressed: give the .mmdb file inside the download`);
  }
  let reader: Reader<CountryResponse>;
  try {
    reader = new Reader<CountryResponse>(bytes, { cache: recordCache() });
  } catch (error) {
    throw new GeoIpError(`GEOIP_DB ${file} is not a MaxMind database (${(error as Error).message})`);
  }
  if (!isComplete(bytes, reader.metadata)) {
    throw new GeoIpError(`GEOIP_DB ${file} is not a complete MaxMind database (version 2) file`);
  }
  return reader;
}

const METADATA_MARKER = Buffer.from("abcdef4d61784d696e642e636f6d", "hex");

/**
 * Whether the search tree and the data section are whole: the metadata starts after them, and
 * every record of the tree points at a node, at nothing, or inside the data section. A file cut
 * short or spliced can carry readable metadata and still answer garbage; this walks every node once
 * (a few tens of milliseconds for GeoLite2-Country), when a file is opened, never on a lookup.
 */
function isComplete(bytes: Buffer, metadata: Reader<CountryResponse>["metadata"]): boolean {
  const { binaryFormatMajorVersion, ipVersion, nodeCount, recordSize, searchTreeSize } = metadata;
  if (binaryFormatMajorVersion !== 2 || (ipVersion !== 4 && ipVersion !== 6)) return false;
  if (!Number.isInteger(nodeCount) || nodeCount < 1) return false;
  const dataStart = searchTreeSize + 16;
  const metadataStart = bytes.lastIndexOf(METADATA_MARKER);
  if (metadataStart < dataStart) return false;
  for (let at = searchTreeSize; at < dataStart; at++) if (bytes[at] !== 0) return false;
  const lastRecord = nodeCount + 16 + (metadataStart - dataStart);
  const nodeBytes = recordSize / 4;
  for (let offset = 0; offset < searchTreeSize; offset += nodeBytes) {
    let left: number;
    let right: number;
    if (recordSize === 24) {
      left = bytes.readUIntBE(offset, 3);
      right = bytes.readUIntBE(offset + 3, 3);
    } else if (recordSize === 28) {
      const middle = bytes[offset + 3] ?? 0;
      left = ((middle & 0xf0) << 20) | bytes.readUIntBE(offset, 3);
      right = ((middle & 0x0f) << 24) | bytes.readUIntBE(offset + 4, 3);
    } else {
      left = bytes.readUInt32BE(offset);
      right = bytes.readUInt32BE(offset + 4);
    }
    for (const record of [left, right]) {
      if (record > nodeCount && (record < nodeCount + 16 || record >= lastRecord)) return false;
    }
  }
  return true;
}

function infoOf(reader: Reader<CountryResponse>): CountryDatabaseInfo {
  return { type: String(reader.metadata.databaseType), builtAt: reader.metadata.buildEpoch };
}

export function describeDatabase(file: string, info: CountryDatabaseInfo): string {
  return `${info.type} built ${info.builtAt.toISOString().slice(0, 10)} (${file})`;
}

/** The file's identity and version as a stat sees it: a rename over it changes the inode, a rewrite the size or time. */
function versionOf(stat: fs.Stats): string {
  return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}`;
}

/** Reads the file through one descriptor: the bytes and the version they are (a rename during the read cannot mix two). */
async function readVersion(file: string): Promise<{ bytes: Buffer; version: string }> {
  const handle = await fs.promises.open(file, "r");
  try {
    const version = versionOf(await handle.stat());
    return { bytes: await handle.readFile(), version };
  } finally {
    await handle.close();
  }
}

/** Why a file cannot be opened, in one line for the operator. */
function unreadable(file: string, error: unknown): GeoIpError {
  if (error instanceof GeoIpError) return error;
  return new GeoIpError(
    (error as NodeJS.ErrnoException).code === "ENOENT"
      ? `GEOIP_DB ${file} does not exist: run geoipupdate first, or unset GEOIP_DB to use the bundled country data`
      : `GEOIP_DB ${file} cannot be read (${(error as Error).message})`,
  );
}

/**
 * A MaxMind country database in memory that follows its file: `country(ip)` answers from the
 * reader in use; every `pollMs` the path is stat'ed, and a version other than the last one read
 * (good or bad) is read in the background and replaces the reader only when it is a database.
 */
export class CountryDatabase {
  #reader: Reader<CountryResponse>;
  /** The version of the file last read, taken or not: it is not read again until it changes. */
  #seen: string;
  #checking = false;
  readonly #timer: NodeJS.Timeout;
  /** The database answering now. */
  info: CountryDatabaseInfo;
  /** Why the file's latest version was not taken (null while the latest is the one answering). */
  lastError: string | null = null;
  /** How many times a new version of the file was taken. */
  reloads = 0;

  constructor(
    readonly file: string,
    opened: { reader: Reader<CountryResponse>; version: string },
    pollMs: number,
  ) {
    this.#reader = opened.reader;
    this.#seen = opened.version;
    this.info = infoOf(opened.reader);
    // Polling the path (not an inotify watch of the file) follows a rename over it, works on any
    // file system, and compares with the version read, so no change between the read and the
    // first look is missed. A stat a minute costs nothing; unref: it never keeps a process alive.
    this.#timer = setInterval(() => void this.check(), pollMs);
    this.#timer.unref();
  }

  /** The ISO country code of the network `ip` is in (its registered country when no other), or null. */
  country(ip: string): string | null {
    const record = this.#reader.get(ip);
    return record?.country?.iso_code ?? record?.registered_country?.iso_code ?? null;
  }

  /** Looks at the file once; reads it when it is a version not read yet. One look at a time. */
  async check(): Promise<void> {
    if (this.#checking) return;
    this.#checking = true;
    try {
      const now = await fs.promises.stat(this.file).then(versionOf, () => "missing");
      if (now === this.#seen) return;
      try {
        const { bytes, version } = await readVersion(this.file);
        this.#seen = version;
        this.#take(readDatabase(this.file, bytes));
      } catch (error) {
        if (now === "missing") this.#seen = now;
        this.#refuse(unreadable(this.file, error).message);
      }
    } finally {
      this.#checking = false;
    }
  }

  #take(reader: Reader<CountryResponse>): void {
    this.#reader = reader;
    this.info = infoOf(reader);
    this.lastError = null;
    this.reloads += 1;
    logger.info(`geoip: reloaded ${describeDatabase(this.file, this.info)}`);
  }

  #refuse(reason: string): void {
    this.lastError = reason;
    logger.error(`geoip: ${reason}; still answering from ${describeDatabase(this.file, this.info)}`);
  }

  /** Stops following the file (the reader in use keeps answering). */
  close(): void {
    clearInterval(this.#timer);
  }
}

/** Opens a country database and follows its file; a GeoIpError (one line) when it is not a usable database. */
export async function openCountryDatabase(file: string, options: { pollMs?: number } = {}): Promise<CountryDatabase> {
  let read: { bytes: Buffer; version: string };
  try {
    read = await readVersion(file);
  } catch (error) {
    throw unreadable(file, error);
  }
  const reader = readDatabase(file, read.bytes);
  return new CountryDatabase(file, { reader, version: read.version }, options.pollMs ?? GEOIP_POLL_MS);
}

let database: CountryDatabase | null = null;
let bundled: GeoLookup | null | undefined;

/** Which database countryForIp reads: GEOIP_DB's, or null for the bundled data. Stops following the one it replaces. */
export function setCountryDatabase(next: CountryDatabase | null): void {
  if (database && database !== next) database.close();
  database = next;
}

/**
 * At a process's start: GEOIP_DB's database when it is set. When it cannot be used, `strict`
 * (the process that starts the shop) refuses to start with the GeoIpError's line; a worker forked
 * later (the primary checked the file) logs it and answers from the bundled data rather than
 * failing to serve over a country. Returns what stops following the file.
 */
export async function startCountryLookup(
  file: string | null,
  options: { strict: boolean; log?: boolean; pollMs?: number },
): Promise<() => void> {
  if (!file) {
    setCountryDatabase(null);
    return () => {};
  }
  let opened: CountryDatabase;
  try {
    opened = await openCountryDatabase(file, { pollMs: options.pollMs });
  } catch (error) {
    if (options.strict || !(error instanceof GeoIpError)) throw error;
    logger.error(`geoip: ${error.message}; using the bundled country data`);
    setCountryDatabase(null);
    return () => {};
  }
  setCountryDatabase(opened);
  if (options.log) logger.info(`geoip: ${describeDatabase(file, opened.info)}`);
  return () => {
    if (database === opened) setCountryDatabase(null);
    else opened.close();
  };
}

/** The bundled database of the geoip-country package, loaded on first use; null when unavailable. */
function bundledLookup(): GeoLookup | null {
  if (bundled === undefined) {
    try {
      bundled = require("geoip-country") as GeoLookup;
    } catch (error) {
      logger.error({ err: error }, "geoip: the bundled country data is unavailable; currency falls back to HKD");
      bundled = null;
    }
  }
  return bundled;
}

/**
 * The ISO country code of the network an address is in, from GEOIP_DB's database when one is in
 * use, else the bundled data; null for loopback and private addresses, a non-address, or an
 * address no network of the database holds.
 */
export function countryForIp(ip: string | null | undefined): string | null {
  if (!ip) return null;
  const address = ip.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "");
  const family = net.isIP(address);
  if (family === 0 || NOWHERE.check(address, family === 4 ? "ipv4" : "ipv6")) return null;
  try {
    if (database) return database.country(address);
    return bundledLookup()?.lookup(address)?.country ?? null;
  } catch {
    return null;
  }
}

import dns from "node:dns";
import net from "node:net";
import { fieldMessage, UserError } from "~/lib/problem";

/*
 * Where a webhook may point (docs/decisions/046): a webhook must not become a way to make the
 * shop's server talk to its own network — its loopback, the machines next to it, a cloud's
 * metadata service at 169.254.169.254. By default only https:// addresses whose host is a public
 * address are accepted; the owner's setting "allow http:// and private addresses" lifts both
 * rules for a bridge on their own network.
 *
 * The rule is checked twice: when the owner saves the address (a message at the URL field), and
 * when a delivery is sent, on the address the connection is actually made to (a name can resolve
 * to another address by then): `guardedLookup` refuses a private answer before any connection is
 * opened, and an address given as a literal is judged before it is connected to.
 */

/** What kind of address an IP address is; only `public` is reachable by default. */
export type AddressKind =
  | "public"
  | "loopback"
  | "private"
  | "link-local"
  | "shared"
  | "multicast"
  | "unspecified"
  | "documentation"
  | "reserved";

type Range = readonly [prefix: readonly number[], bits: number, kind: AddressKind | "ipv4-inside"];

/** IPv4 ranges that are not the public internet (IANA special-purpose registry); the rest is public. */
const IPV4_RANGES: readonly Range[] = [
  [[0, 0, 0, 0], 8, "unspecified"], // "this network"; 0.0.0.0 reaches the machine itself
  [[10, 0, 0, 0], 8, "private"],
  [[100, 64, 0, 0], 10, "shared"], // carrier-grade NAT
  [[127, 0, 0, 0], 8, "loopback"],
  [[169, 254, 0, 0], 16, "link-local"], // cloud metadata services live here
  [[172, 16, 0, 0], 12, "private"],
  [[192, 0, 0, 0], 24, "reserved"], // IETF protocol assignments
  [[192, 0, 2, 0], 24, "documentation"],
  [[192, 88, 99, 0], 24, "reserved"], // 6to4 relays
  [[192, 168, 0, 0], 16, "private"],
  [[198, 18, 0, 0], 15, "reserved"], // benchmarking
  [[198, 51, 100, 0], 24, "documentation"],
  [[203, 0, 113, 0], 24, "documentation"],
  [[224, 0, 0, 0], 4, "multicast"],
  [[240, 0, 0, 0], 4, "reserved"], // and 255.255.255.255, the broadcast
];

/**
 * IPv6 ranges, first match wins. IPv4-mapped (::ffff:a.b.c.d) and NAT64 (64:ff9b::a.b.c.d)
 * addresses are judged by the IPv4 address inside them; anything outside 2000::/3 (global
 * unicast) is not public.
 */
const IPV6_RANGES: readonly Range[] = [
  [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 128, "unspecified"],
  [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], 128, "loopback"],
  [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff], 96, "ipv4-inside"], // IPv4-mapped
  [[0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0], 96, "ipv4-inside"], // NAT64, well-known prefix
  [[0, 0x64, 0xff, 0x9b, 0, 1], 48, "private"], // NAT64, local use
  [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 96, "reserved"], // IPv4-compatible (deprecated)
  [[0x01, 0, 0, 0, 0, 0, 0, 0], 64, "reserved"], // discard-only
  [[0x20, 0x01, 0x0d, 0xb8], 32, "documentation"],
  [[0x20, 0x01, 0, 0], 23, "reserved"], // IETF protocol assignments: Teredo, benchmarking…
  [[0x20, 0x02], 16, "reserved"], // 6to4 (deprecated), a tunnel to any IPv4 address
  [[0x3f, 0xff], 20, "documentation"],
  [[0xfc, 0], 7, "private"], // unique local
  [[0xfe, 0x80], 10, "link-local"],
  [[0xfe, 0xc0], 10, "private"], // site-local (deprecated)
  [[0xff, 0], 8, "multicast"],
];

function inRange(bytes: Uint8Array, prefix: readonly number[], bits: number): boolean {
  for (let bit = 0; bit < bits; bit += 8) {
    const take = Math.min(8, bits - bit);
    const mask = (0xff << (8 - take)) & 0xff;
    if (((bytes[bit / 8] ?? 0) & mask) !== ((prefix[bit / 8] ?? 0) & mask)) return false;
  }
  return true;
}

function ipv4Bytes(text: string): Uint8Array | null {
  if (!net.isIPv4(text)) return null;
  return Uint8Array.from(text.split(".").map(Number));
}

/** The 16 bytes of an IPv6 address (compressed, with a dotted IPv4 tail or a zone), or null. */
function ipv6Bytes(text: string): Uint8Array | null {
  const address = text.replace(/%.*$/, "");
  if (!net.isIPv6(address)) return null;
  let groups = address;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(groups);
  if (dotted?.[1]) {
    const v4 = ipv4Bytes(dotted[1]);
    if (!v4) return null;
    groups = `${groups.slice(0, dotted.index)}${(((v4[0] ?? 0) << 8) | (v4[1] ?? 0)).toString(16)}:${(((v4[2] ?? 0) << 8) | (v4[3] ?? 0)).toString(16)}`;
  }
  const [head = "", tail] = groups.split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail === undefined ? [] : tail ? tail.split(":") : [];
  const zeros = tail === undefined ? 0 : 8 - headGroups.length - tailGroups.length;
  const all = [...headGroups, ...Array.from({ length: zeros }, () => "0"), ...tailGroups];
  if (all.length !== 8) return null;
  const bytes = new Uint8Array(16);
  all.forEach((group, index) => {
    const value = Number.parseInt(group, 16);
    bytes[index * 2] = value >> 8;
    bytes[index * 2 + 1] = value & 0xff;
  });
  return bytes;
}

function classifyIpv4(bytes: Uint8Array): AddressKind {
  for (const [prefix, bits, kind] of IPV4_RANGES) {
    if (inRange(bytes, prefix, bits)) return kind as AddressKind;
  }
  return "public";
}

/** An IP address without its brackets (`[::1]` → `::1`). */
export function unbracket(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}

/**
 * The kind of an IP address, IPv4 or IPv6 (in brackets or not, with a zone or not); null when
 * `address` is not an IP address at all (a host name).
 */
export function addressKind(address: string): AddressKind | null {
  const text = unbracket(address.trim());
  const v4 = ipv4Bytes(text);
  if (v4) return classifyIpv4(v4);
  const v6 = ipv6Bytes(text);
  if (!v6) return null;
  for (const [prefix, bits, kind] of IPV6_RANGES) {
    if (!inRange(v6, prefix, bits)) continue;
    return kind === "ipv4-inside" ? classifyIpv4(v6.subarray(12)) : kind;
  }
  return inRange(v6, [0x20], 3) ? "public" : "reserved";
}

/** Whether a webhook may reach `address` by default: a public IP address. */
export function isPublicAddress(address: string): boolean {
  return addressKind(address) === "public";
}

/**
 * Names that never need a DNS answer to be judged: `localhost` and its subdomains are the machine
 * itself; a name without a dot (`http://printer/`), `.local` (mDNS), `.internal`, `.lan` and
 * `.home.arpa` name machines of a private network; `.invalid` names nothing.
 */
function nameKind(host: string): AddressKind | "unresolvable" | null {
  const name = host.toLowerCase().replace(/\.$/, "");
  if (name === "localhost" || name.endsWith(".localhost")) return "loopback";
  if (name === "invalid" || name.endsWith(".invalid")) return "unresolvable";
  if (!name.includes(".")) return "private";
  if (/\.(local|internal|lan|home\.arpa)$/.test(name)) return "private";
  return null;
}

/** A host name's addresses, as dns.lookup answers them (the system resolver, like a connection). */
export type ResolveHost = (host: string) => Promise<string[]>;

/** How long a save waits for the name's addresses. */
const RESOLVE_TIMEOUT_MS = 5_000;

export const resolveHost: ResolveHost = (host) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer for ${host}`)), RESOLVE_TIMEOUT_MS);
    dns.lookup(host, { all: true, verbatim: true }, (error, addresses) => {
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(addresses.map((entry) => entry.address));
    });
  });

/** The longest webhook address accepted. */
export const MAX_URL_LENGTH = 2000;

/** A refusal at the URL field: its parameters travel in the message (`fieldMessage`), as field errors' do. */
const urlError = (key: string, params: Record<string, string> = {}) =>
  new UserError(fieldMessage(`adminWebhooks.errors.${key}`, params), { field: "url" });

/** The refusal of an address that is not public: `where` names it, and what the name resolved to. */
const addressError = (kind: AddressKind, host: string, address: string) =>
  urlError(`urlAddress.${kind.replace("-", "_")}`, { where: host === address ? host : `${host} (${address})` });

/**
 * Checks a webhook address as the owner typed it and returns it as stored (parsed and written
 * out again, without a #fragment). Refusals are `UserError`s at the `url` field:
 * - not an http(s) URL, or with a user name or password in it (the signature proves the sender);
 * - `http://`, unless private addresses are allowed;
 * - unless they are allowed, a host that is or resolves to an address that is not public — also
 *   spelt oddly (`http://2130706433/`, `http://0x7f.1/`, `[::ffff:127.0.0.1]`: the URL parser
 *   turns each into the address it means) — or a name that does not resolve.
 */
export async function checkWebhookUrl(
  text: string,
  rules: { allowPrivate: boolean; resolve?: ResolveHost },
): Promise<string> {
  const trimmed = text.trim();
  if (trimmed.length > MAX_URL_LENGTH) throw urlError("urlTooLong", { max: String(MAX_URL_LENGTH) });
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw urlError("urlInvalid");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw urlError("urlScheme");
  if (!url.hostname) throw urlError("urlInvalid");
  if (url.username || url.password) throw urlError("urlCredentials");
  url.hash = "";
  if (rules.allowPrivate) return url.href;
  if (url.protocol === "http:") throw urlError("urlHttps");
  const host = unbracket(url.hostname);
  const literal = addressKind(host);
  if (literal !== null) {
    if (literal !== "public") throw addressError(literal, host, host);
    return url.href;
  }
  const named = nameKind(host);
  if (named === "unresolvable") throw urlError("urlUnresolved", { host });
  if (named !== null) throw addressError(named, host, host);
  let addresses: string[];
  try {
    addresses = await (rules.resolve ?? resolveHost)(host);
  } catch {
    throw urlError("urlUnresolved", { host });
  }
  if (addresses.length === 0) throw urlError("urlUnresolved", { host });
  for (const address of addresses) {
    const kind = addressKind(address) ?? "reserved";
    if (kind !== "public") throw addressError(kind, host, address);
  }
  return url.href;
}

/** A connection refused because of where it would go (a DeliveryError's message says so). */
export class BlockedAddressError extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
    readonly kind: AddressKind | "unresolvable",
  ) {
    super(
      `refused: ${host === address ? address : `${host} resolves to ${address}`}, not a public address (${kind}); ` +
        "webhooks go to public addresses only, unless Settings → Webhooks allows private addresses",
    );
    this.name = "BlockedAddressError";
  }
}

/**
 * The `lookup` of a webhook's connection: the system resolver, but an answer with any address that
 * is not public fails the lookup (when private addresses are not allowed), so the connection is
 * never opened — it is made to the address judged here, with no window for the name to change.
 * Names that need no resolver (localhost…) are judged as the save judges them. `lookup` is the
 * system resolver's (a test gives its own, to stand for a name whose answer changed).
 */
export function guardedLookup(allowPrivate: boolean, lookup: typeof dns.lookup = dns.lookup): net.LookupFunction {
  return (hostname, options, callback) => {
    const named = allowPrivate ? null : nameKind(hostname);
    if (named !== null) {
      const error = new BlockedAddressError(hostname, hostname, named) as NodeJS.ErrnoException;
      callback(error, options.all ? [] : "", undefined);
      return;
    }
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, options.all ? [] : "", undefined);
      const list = addresses as dns.LookupAddress[];
      const blocked = allowPrivate ? undefined : list.find((entry) => !isPublicAddress(entry.address));
      if (blocked) {
        const refusal = new BlockedAddressError(hostname, blocked.address, addressKind(blocked.address) ?? "reserved");
        return callback(refusal as NodeJS.ErrnoException, options.all ? [] : "", undefined);
      }
      const [first] = list;
      if (!first) {
        const none = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
        return callback(none, options.all ? [] : "", undefined);
      }
      if (options.all) callback(null, list);
      else callback(null, first.address, first.family);
    });
  };
}

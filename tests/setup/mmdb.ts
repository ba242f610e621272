import net from "node:net";

/*
 * A small MaxMind DB writer for tests (the format: https://maxmind.github.io/MaxMind-DB/), so a
 * test can make a GeoLite2-Country-shaped database of a few networks. No maintained writer package
 * is on the registry this project installs from (docs/decisions/064); the `maxmind` reader the shop
 * uses is the authority on whether what this writes is right (tests/geoip.test.ts reads it back).
 *
 * The file: a binary search tree over the address bits (node_count nodes of two records each,
 * 24, 28 or 32 bits a record), 16 zero bytes, the data section (the records the tree points at),
 * then "\xAB\xCD\xEFMaxMind.com" and the metadata map.
 */

/** What the data section can hold (the subset of MMDB types a country database uses, and a few more). */
export type MmdbValue = string | number | bigint | boolean | Buffer | MmdbValue[] | { [key: string]: MmdbValue };

export interface MmdbNetwork {
  /** An IPv4 or IPv6 network in CIDR form: "203.0.113.0/24", "2001:db8:1::/48". */
  network: string;
  data: { [key: string]: MmdbValue };
}

export interface MmdbOptions {
  /** 6 (default): one IPv6 tree, IPv4 networks under ::/96. 4: an IPv4-only tree. */
  ipVersion?: 4 | 6;
  recordSize?: 24 | 28 | 32;
  databaseType?: string;
  languages?: string[];
  description?: Record<string, string>;
  /** Seconds since the epoch; default now. */
  buildEpoch?: number;
}

const METADATA_MARKER = Buffer.from("abcdef4d61784d696e642e636f6d", "hex");
const DATA_SECTION_SEPARATOR = 16;

/** Type numbers of the data section; 1-7 fit the control byte, the others are "extended" (0, then type - 7). */
const TYPE = {
  string: 2,
  double: 3,
  bytes: 4,
  uint16: 5,
  uint32: 6,
  map: 7,
  int32: 8,
  uint64: 9,
  uint128: 10,
  array: 11,
  boolean: 14,
} as const;

/** A control byte (and the extended type byte and size bytes after it) for a field of `size`. */
function control(type: number, size: number): Buffer {
  let sizeBits: number;
  let sizeBytes: number[];
  if (size < 29) {
    sizeBits = size;
    sizeBytes = [];
  } else if (size < 29 + 256) {
    sizeBits = 29;
    sizeBytes = [size - 29];
  } else if (size < 285 + 65_536) {
    sizeBits = 30;
    const rest = size - 285;
    sizeBytes = [rest >> 8, rest & 0xff];
  } else {
    sizeBits = 31;
    const rest = size - 65_821;
    sizeBytes = [(rest >> 16) & 0xff, (rest >> 8) & 0xff, rest & 0xff];
  }
  return type <= 7
    ? Buffer.from([(type << 5) | sizeBits, ...sizeBytes])
    : Buffer.from([sizeBits, type - 7, ...sizeBytes]);
}

/** An unsigned integer in as few big-endian bytes as it needs (zero takes none). */
function unsignedBytes(value: bigint): Buffer {
  const bytes: number[] = [];
  for (let rest = value; rest > 0n; rest >>= 8n) bytes.unshift(Number(rest & 0xffn));
  return Buffer.from(bytes);
}

/** One value of the data section, encoded. */
export function encodeValue(value: MmdbValue): Buffer {
  if (typeof value === "string") {
    const bytes = Buffer.from(value, "utf8");
    return Buffer.concat([control(TYPE.string, bytes.length), bytes]);
  }
  if (typeof value === "boolean") return control(TYPE.boolean, value ? 1 : 0);
  if (Buffer.isBuffer(value)) return Buffer.concat([control(TYPE.bytes, value.length), value]);
  if (Array.isArray(value)) return Buffer.concat([control(TYPE.array, value.length), ...value.map(encodeValue)]);
  if (typeof value === "number" && !Number.isInteger(value)) {
    const bytes = Buffer.alloc(8);
    bytes.writeDoubleBE(value);
    return Buffer.concat([control(TYPE.double, 8), bytes]);
  }
  if (typeof value === "number" || typeof value === "bigint") {
    const integer = BigInt(value);
    if (integer < 0n) {
      if (integer < -(2n ** 31n)) throw new Error(`${value} does not fit an int32`);
      const bytes = Buffer.alloc(4);
      bytes.writeInt32BE(Number(integer));
      return Buffer.concat([control(TYPE.int32, 4), bytes]);
    }
    const bytes = unsignedBytes(integer);
    const type =
      integer <= 0xffffn
        ? TYPE.uint16
        : integer <= 0xffff_ffffn
          ? TYPE.uint32
          : bytes.length <= 8
            ? TYPE.uint64
            : TYPE.uint128;
    if (bytes.length > 16) throw new Error(`${value} does not fit a uint128`);
    return Buffer.concat([control(type, bytes.length), bytes]);
  }
  const entries = Object.entries(value);
  return Buffer.concat([
    control(TYPE.map, entries.length),
    ...entries.flatMap(([key, item]) => [encodeValue(key), encodeValue(item)]),
  ]);
}

/** The bits of a network's address and its prefix length in a tree of `ipVersion`. */
function networkBits(cidr: string, ipVersion: 4 | 6): { bits: number[]; prefixLength: number } {
  const [address = "", length] = cidr.split("/");
  const family = net.isIP(address);
  if (family === 0) throw new Error(`${cidr}: not an IP network`);
  if (family === 6 && ipVersion === 4) throw new Error(`${cidr}: an IPv6 network in an IPv4 database`);
  const bytes = family === 4 ? address.split(".").map(Number) : ipv6Bytes(address);
  const bits = bytes.flatMap((byte) => Array.from({ length: 8 }, (_, bit) => (byte >> (7 - bit)) & 1));
  const ownLength = length === undefined ? bits.length : Number(length);
  if (!Number.isInteger(ownLength) || ownLength < 1 || ownLength > bits.length) {
    throw new Error(`${cidr}: the prefix length must be 1 to ${bits.length}`);
  }
  // IPv4 networks of an IPv6 tree live under ::/96, where the reader starts an IPv4 lookup.
  if (family === 4 && ipVersion === 6)
    return { bits: [...Array<number>(96).fill(0), ...bits], prefixLength: 96 + ownLength };
  return { bits, prefixLength: ownLength };
}

function ipv6Bytes(address: string): number[] {
  const [head = "", tail] = address.split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail ? tail.split(":") : [];
  if (headGroups.some((group) => group.includes(".")) || tailGroups.some((group) => group.includes("."))) {
    throw new Error(`${address}: write IPv4 networks in dotted form, not inside IPv6`);
  }
  const zeros = tail === undefined ? 0 : 8 - headGroups.length - tailGroups.length;
  const groups = [...headGroups, ...Array<string>(zeros).fill("0"), ...tailGroups].map((group) =>
    Number.parseInt(group, 16),
  );
  return groups.flatMap((group) => [group >> 8, group & 0xff]);
}

interface TreeNode {
  children: [Child, Child];
}
type Child = TreeNode | { data: number } | null;

function isNode(child: Child): child is TreeNode {
  return child !== null && "children" in child;
}

/**
 * A MaxMind DB file mapping each network to its record. A later, more specific network inside an
 * earlier one overrides it there; an address in no network has no record.
 */
export function writeMmdb(networks: readonly MmdbNetwork[], options: MmdbOptions = {}): Buffer {
  const ipVersion = options.ipVersion ?? 6;
  const recordSize = options.recordSize ?? 24;

  // The data section: each distinct record once, by its offset.
  const dataOffsets = new Map<string, number>();
  const dataParts: Buffer[] = [];
  let dataLength = 0;
  const dataOf = (record: MmdbNetwork["data"]): { data: number } => {
    const key = JSON.stringify(record, (_, value) => (typeof value === "bigint" ? `${value}n` : value));
    let offset = dataOffsets.get(key);
    if (offset === undefined) {
      const encoded = encodeValue(record);
      offset = dataLength;
      dataOffsets.set(key, offset);
      dataParts.push(encoded);
      dataLength += encoded.length;
    }
    return { data: offset };
  };

  const root: TreeNode = { children: [null, null] };
  for (const { network, data } of networks) {
    const { bits, prefixLength } = networkBits(network, ipVersion);
    let node = root;
    for (let depth = 0; depth < prefixLength - 1; depth++) {
      const bit = bits[depth] as 0 | 1;
      let next = node.children[bit];
      if (!isNode(next)) {
        // A record covering this whole half is split in two copies of itself.
        next = { children: [next, next] };
        node.children[bit] = next;
      }
      node = next;
    }
    node.children[bits[prefixLength - 1] as 0 | 1] = dataOf(data);
  }

  // Nodes numbered breadth first from the root (node 0).
  const nodes: TreeNode[] = [root];
  const numbers = new Map<TreeNode, number>([[root, 0]]);
  for (let index = 0; index < nodes.length; index++) {
    for (const child of (nodes[index] as TreeNode).children) {
      if (isNode(child) && !numbers.has(child)) {
        numbers.set(child, nodes.length);
        nodes.push(child);
      }
    }
  }
  const nodeCount = nodes.length;
  // A record is another node's number, node_count for "no data", or node_count + 16 + the data offset.
  const recordOf = (child: Child): number =>
    child === null
      ? nodeCount
      : isNode(child)
        ? (numbers.get(child) as number)
        : nodeCount + DATA_SECTION_SEPARATOR + child.data;
  const maxRecord = nodeCount + DATA_SECTION_SEPARATOR + dataLength;
  if (maxRecord >= 2 ** recordSize) throw new Error(`${maxRecord} does not fit a ${recordSize}-bit record`);

  const nodeBytes = recordSize / 4;
  const tree = Buffer.alloc(nodeCount * nodeBytes);
  nodes.forEach((node, index) => {
    const offset = index * nodeBytes;
    const left = recordOf(node.children[0]);
    const right = recordOf(node.children[1]);
    if (recordSize === 24) {
      tree.writeUIntBE(left, offset, 3);
      tree.writeUIntBE(right, offset + 3, 3);
    } else if (recordSize === 28) {
      // The middle byte holds the high four bits of each record: the left's above the right's.
      tree.writeUIntBE(left & 0xff_ffff, offset, 3);
      tree[offset + 3] = (((left >>> 24) & 0x0f) << 4) | ((right >>> 24) & 0x0f);
      tree.writeUIntBE(right & 0xff_ffff, offset + 4, 3);
    } else {
      tree.writeUInt32BE(left, offset);
      tree.writeUInt32BE(right, offset + 4);
    }
  });

  const metadata = encodeValue({
    node_count: nodeCount,
    record_size: recordSize,
    ip_version: ipVersion,
    database_type: options.databaseType ?? "GeoLite2-Country",
    languages: options.languages ?? ["en"],
    binary_format_major_version: 2,
    binary_format_minor_version: 0,
    build_epoch: BigInt(options.buildEpoch ?? Math.floor(Date.now() / 1000)),
    description: options.description ?? { en: "A test database written by tests/setup/mmdb.ts" },
  });
  return Buffer.concat([tree, Buffer.alloc(DATA_SECTION_SEPARATOR), ...dataParts, METADATA_MARKER, metadata]);
}

/** A GeoLite2-Country record for an ISO country code (the fields the shop and most readers use). */
export function countryRecord(isoCode: string, names: Record<string, string> = { en: isoCode }): MmdbNetwork["data"] {
  const country = {
    geoname_id: 1_000_000 + isoCode.charCodeAt(0) * 100 + isoCode.charCodeAt(1),
    iso_code: isoCode,
    names,
  };
  return { country, registered_country: country };
}

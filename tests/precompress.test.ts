import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { precompressAssets, servePrecompressed } from "../server/precompress";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-precompress-"));
const script = `export const greeting = ${JSON.stringify("hello ".repeat(2000))};\n`;
let server: http.Server;
let origin = "";

function get(
  url: string,
  acceptEncoding: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { "Accept-Encoding": acceptEncoding } }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
        );
      })
      .on("error", reject);
  });
}

beforeAll(async () => {
  fs.writeFileSync(path.join(dir, "app-abc123.js"), script);
  fs.writeFileSync(path.join(dir, "tiny-abc123.js"), "1");
  fs.writeFileSync(path.join(dir, "photo-abc123.webp"), Buffer.alloc(2000, 7));
  precompressAssets(dir);
  const app = express();
  app.use("/assets", servePrecompressed(dir, { maxAge: "1y" }));
  app.use("/assets", express.static(dir, { immutable: true, maxAge: "1y" }));
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("precompressed assets", () => {
  it("are written beside compressible files only, and only when they save something", () => {
    const names = fs.readdirSync(dir).sort();
    expect(names).toContain("app-abc123.js.br");
    expect(names).toContain("app-abc123.js.gz");
    expect(names).not.toContain("tiny-abc123.js.br");
    expect(names.some((name) => name.startsWith("photo-abc123.webp."))).toBe(false);
  });

  it("serve brotli, then gzip, by what the browser accepts, with the type and caching of the plain file", async () => {
    const brotli = await get(`${origin}/assets/app-abc123.js`, "gzip, deflate, br");
    expect(brotli.status).toBe(200);
    expect(brotli.headers["content-encoding"]).toBe("br");
    expect(brotli.headers["content-type"]).toMatch(/^text\/javascript/);
    expect(brotli.headers["cache-control"]).toContain("immutable");
    expect(brotli.headers.vary).toContain("Accept-Encoding");
    expect(zlib.brotliDecompressSync(brotli.body).toString()).toBe(script);
    expect(brotli.body.length).toBeLessThan(script.length / 10);

    const gzip = await get(`${origin}/assets/app-abc123.js`, "br;q=0, gzip");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(gzip.body).toString()).toBe(script);
  });

  it("fall back to the plain file for browsers that accept neither, and for files without a copy", async () => {
    const plain = await get(`${origin}/assets/app-abc123.js`, "identity");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
    const tiny = await get(`${origin}/assets/tiny-abc123.js`, "br");
    expect(tiny.headers["content-encoding"]).toBeUndefined();
    expect(tiny.body.toString()).toBe("1");
    expect((await get(`${origin}/assets/missing.js`, "br")).status).toBe(404);
  });
});

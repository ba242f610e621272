import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import type { NextFunction, Request, Response } from "express";

/**
 * Hashed browser assets are compressed once, at build time, at the strongest settings
 * (brotli 11, gzip 9) instead of on every request: `precompressAssets` writes `name.br` and
 * `name.gz` beside each file, `servePrecompressed` answers with them.
 */

const COMPRESSIBLE = /\.(?:js|css|json|svg|txt|map)$/;

/** Writes .br and .gz beside every compressible file of `dir` when that saves at least 10%. */
export function precompressAssets(dir: string): { files: number; bytes: number; brotliBytes: number } {
  let files = 0;
  let bytes = 0;
  let brotliBytes = 0;
  for (const name of fs.readdirSync(dir)) {
    if (!COMPRESSIBLE.test(name)) continue;
    const source = fs.readFileSync(path.join(dir, name));
    const brotli = zlib.brotliCompressSync(source, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length,
      },
    });
    const gzip = zlib.gzipSync(source, { level: zlib.constants.Z_BEST_COMPRESSION });
    if (brotli.length <= source.length * 0.9) fs.writeFileSync(path.join(dir, `${name}.br`), brotli);
    if (gzip.length <= source.length * 0.9) fs.writeFileSync(path.join(dir, `${name}.gz`), gzip);
    files += 1;
    bytes += source.length;
    brotliBytes += Math.min(brotli.length, source.length);
  }
  return { files, bytes, brotliBytes };
}

const ENCODINGS = [
  ["br", ".br"],
  ["gzip", ".gz"],
] as const;

/**
 * Serves `dir/name.br` or `dir/name.gz` for `/name` when the browser accepts that encoding and
 * the file exists (the list is read once: hashed assets never change while the server runs);
 * otherwise hands over to the next handler (express.static with the plain file).
 */
export function servePrecompressed(dir: string, options: { maxAge: string }) {
  const available = new Set(fs.existsSync(dir) ? fs.readdirSync(dir) : []);
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    let name: string;
    try {
      name = decodeURIComponent(req.path.slice(1));
    } catch {
      return next(); // no such file: an unreadable name is answered by the app (400)
    }
    if (!COMPRESSIBLE.test(name) || name.includes("/") || !available.has(name)) return next();
    res.vary("Accept-Encoding");
    // Our order (smallest first) among what the browser accepts: Chrome lists gzip before br.
    const chosen = ENCODINGS.find(
      ([encoding, suffix]) => available.has(`${name}${suffix}`) && req.acceptsEncodings(encoding) === encoding,
    );
    if (!chosen) return next();
    const [encoding, suffix] = chosen;
    res.type(path.extname(name));
    res.setHeader("Content-Encoding", encoding);
    res.sendFile(
      `${name}${suffix}`,
      { root: dir, maxAge: options.maxAge, immutable: true, dotfiles: "deny" },
      (error) => {
        if (error) next(error);
      },
    );
  };
}

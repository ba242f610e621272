import path from "node:path";
import type { Config } from "@react-router/dev/config";
import { precompressAssets } from "./server/precompress";

const buildDirectory = process.env.BUILD_DIR ?? "build";

export default {
  ssr: true,
  // BUILD_DIR lets two checkouts' worth of work build side by side (bin/shop.mjs reads it too).
  buildDirectory,
  // Hashed assets compressed once here (brotli 11, gzip 9), not per request: server/precompress.ts.
  buildEnd() {
    const { files, bytes, brotliBytes } = precompressAssets(path.join(buildDirectory, "client", "assets"));
    console.info(
      `precompressed ${files} assets: ${(bytes / 1024).toFixed(0)} KB -> ${(brotliBytes / 1024).toFixed(0)} KB brotli`,
    );
  },
} satisfies Config;

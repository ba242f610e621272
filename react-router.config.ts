import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // BUILD_DIR lets two checkouts' worth of work build side by side (bin/shop.mjs reads it too).
  buildDirectory: process.env.BUILD_DIR ?? "build",
} satisfies Config;

import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

/**
 * React, React DOM and React Router in one browser chunk: every page loads all of them, and one
 * chunk weighs 2.5 KB (gzip) less than the four Rolldown makes of them by default, whose imports
 * and exports between each other compress badly (docs/decisions/045).
 */
const FRAMEWORK = /[\\/]node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/;

// The production server is our own Express app (server/app.ts). Vite bundles it together with
// the React Router server build, so migrations, the seed and the CLI run from `build/server`.
export default defineConfig({
  environments: {
    ssr: { build: { rolldownOptions: { input: "./server/app.ts" } } },
    client: {
      build: { rolldownOptions: { output: { codeSplitting: { groups: [{ name: "framework", test: FRAMEWORK }] } } } },
    },
  },
  resolve: { tsconfigPaths: true },
  ssr: {
    // Native or data-file packages stay outside the bundle.
    external: ["better-sqlite3", "sharp", "geoip-country", "nodemailer", "@node-rs/argon2"],
  },
  plugins: [tailwindcss(), reactRouter()],
});

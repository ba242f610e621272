import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

/**
 * React, React DOM and React Router in one browser chunk: every page loads all of them, and one
 * chunk weighs 2.5 KB (gzip) less than the four Rolldown makes of them by default, whose imports
 * and exports between each other compress badly (docs/decisions/045).
 */
const FRAMEWORK = /[\\/]node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/;

/**
 * The small modules every storefront page loads through the entry, the root and the store
 * layout (i18n, money, localisation, the header's parts…) in one chunk rather than sixteen: each
 * chunk is a `<link rel="modulepreload">` in every page's head and an entry in the route
 * manifest inlined in every page (decision 068). Only modules the root or the layout import
 * anyway, so no page loads code it did not load before.
 */
const SHELL =
  /[\\/]app[\\/](lib[\\/](i18n|request-id|translations|nonce|root-data|document-only|translate-key|localize|money|colors|use-hydrated)\.tsx?|locales[\\/]languages\.ts|components[\\/](shop-mark|ui[\\/](button|flash-banner|scripts|kept-markup)|layout[\\/]route-error-boundary)\.tsx?)$|[\\/]db[\\/]schema\.ts$/;

// The production server is our own Express app (server/app.ts). Vite bundles it together with
// the React Router server build, so migrations, the seed and the CLI run from `build/server`.
export default defineConfig({
  environments: {
    ssr: { build: { rolldownOptions: { input: "./server/app.ts" } } },
    client: {
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                { name: "framework", test: FRAMEWORK },
                { name: "shell", test: SHELL },
              ],
            },
          },
        },
      },
    },
  },
  resolve: { tsconfigPaths: true },
  ssr: {
    // Native or data-file packages stay outside the bundle.
    external: ["better-sqlite3", "sharp", "geoip-country", "nodemailer", "@node-rs/argon2"],
  },
  plugins: [tailwindcss(), reactRouter()],
});

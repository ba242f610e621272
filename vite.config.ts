import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

// The production server is our own Express app (server/app.ts). Vite bundles it together with
// the React Router server build, so migrations, the seed and the CLI run from `build/server`.
export default defineConfig({
  environments: {
    ssr: { build: { rolldownOptions: { input: "./server/app.ts" } } },
  },
  resolve: { tsconfigPaths: true },
  ssr: {
    // Native or data-file packages stay outside the bundle.
    external: ["better-sqlite3", "sharp", "geoip-country", "nodemailer", "@node-rs/argon2"],
  },
  plugins: [tailwindcss(), reactRouter()],
});

#!/usr/bin/env node
// Runs a TypeScript benchmark module of this folder through Vite (so `~/` and `#db/` imports
// resolve as in the app): `node bench/run.mjs catalog`.
import { createServer } from "vite";

const name = process.argv[2] ?? "catalog";
const vite = await createServer({ server: { middlewareMode: true, hmr: false }, appType: "custom", logLevel: "error" });
try {
  const mod = await vite.ssrLoadModule(`./bench/${name}.ts`);
  await mod.main();
} finally {
  await vite.close();
}

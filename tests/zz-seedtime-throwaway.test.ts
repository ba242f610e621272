import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { it } from "vitest";
import { migrateToLatest, openDatabase } from "#db/connect.server";
import { seedDemo } from "#db/seed/index.server";
import { DiskStorage, MemoryStorage } from "~/lib/storage.server";
it("times", async () => {
  for (const kind of ["memory", "disk"]) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "seed-time-"));
    const db = openDatabase(`file:${path.join(dir, "shop.db")}`);
    await migrateToLatest(db);
    const t = performance.now(); const cpu = process.cpuUsage();
    await seedDemo(db, kind === "disk" ? new DiskStorage(path.join(dir, "uploads")) : new MemoryStorage());
    const used = process.cpuUsage(cpu); console.log(kind, "seed ms", Math.round(performance.now() - t), "cpu ms", Math.round((used.user + used.system) / 1000));
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 60000);

import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * A small filesystem of its own for a test that fills a disk: a tmpfs of `sizeMb` mounted on a
 * new temporary folder (`mount -t tmpfs -o size=…`). It needs root (or CAP_SYS_ADMIN); where the
 * machine does not allow it, `mountTmpfs` resolves with the reason instead, for `test.skip`.
 */
export interface SmallDisk {
  dir: string;
  /** Fills every free byte with one file (writes until ENOSPC); returns its path. */
  fill(): string;
  /** Bytes free now. */
  free(): number;
  /** Unmounts (lazily, should a process still hold a file) and removes the folder; safe twice. */
  unmount(): Promise<void>;
}

export async function mountTmpfs(sizeMb: number): Promise<SmallDisk | { unavailable: string }> {
  if (process.platform !== "linux") return { unavailable: `tmpfs mounts need Linux, not ${process.platform}` };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-small-disk-"));
  try {
    await run("mount", ["-t", "tmpfs", "-o", `size=${sizeMb}m,mode=0755`, "tmpfs", dir]);
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    const uid = process.getuid?.();
    const why = (error as { stderr?: string }).stderr?.trim() || (error as Error).message;
    return {
      unavailable: `cannot mount a tmpfs here (uid ${uid}${uid === 0 ? "" : ", not root"}; mount said: ${why})`,
    };
  }
  let mounted = true;
  const unmountOnExit = () => {
    // The end of the process: a synchronous last try (a test that died before its afterAll).
    if (!mounted) return;
    try {
      execFileSync("umount", ["-l", dir], { stdio: "ignore" });
    } catch {
      // nothing more can be done at exit
    }
  };
  process.on("exit", unmountOnExit);
  return {
    dir,
    fill() {
      const file = path.join(dir, "filler.bin");
      const fd = fs.openSync(file, "w");
      try {
        // Big chunks first, then pages: tmpfs allocates 4 KiB at a time.
        for (const size of [1 << 20, 64 << 10, 4 << 10, 512]) {
          const chunk = Buffer.alloc(size, 0x5a);
          for (;;) {
            try {
              fs.writeSync(fd, chunk);
            } catch (error) {
              if ((error as NodeJS.ErrnoException).code === "ENOSPC") break;
              throw error;
            }
          }
        }
      } finally {
        fs.closeSync(fd);
      }
      return file;
    },
    free() {
      const stats = fs.statfsSync(dir);
      return stats.bavail * stats.bsize;
    },
    async unmount() {
      if (!mounted) return;
      mounted = false;
      process.off("exit", unmountOnExit);
      await run("umount", [dir]).catch(() => run("umount", ["-l", dir]));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

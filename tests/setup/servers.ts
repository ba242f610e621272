import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";

/** Servers the tests start for themselves: a free loopback port, a throwaway S3-compatible server. */

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** The fixed pair s3rver accepts; the AWS SDK reads it from the environment. */
export const S3_CREDENTIALS = { AWS_ACCESS_KEY_ID: "S3RVER", AWS_SECRET_ACCESS_KEY: "S3RVER" };

/**
 * s3rver on a free loopback port with `buckets` made, storing into a temporary folder;
 * `stop` closes it and removes the folder (so does the end of the process). `down` closes it
 * and keeps the folder (nothing listens on its port: the bucket is unreachable); `up` starts it
 * again on the same port and folder, with every object it held.
 */
export async function startS3rver(buckets: string[]): Promise<{
  endpoint: string;
  down(): Promise<void>;
  up(): Promise<void>;
  stop(): Promise<void>;
}> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-s3-"));
  const removeDir = () => fs.rmSync(dir, { recursive: true, force: true });
  process.on("exit", removeDir);
  const listen = async (port: number) => {
    const server = new S3rver({
      address: "127.0.0.1",
      port,
      silent: true,
      directory: dir,
      configureBuckets: buckets.map((name) => ({ name })),
    });
    return { server, address: await server.run() };
  };
  const first = await listen(0);
  const port = first.address.port;
  let server: S3rver | null = first.server;
  const down = async () => {
    const running = server;
    if (!running) return;
    server = null;
    running.httpServer?.closeAllConnections();
    await running.close();
  };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    down,
    async up() {
      if (server) return;
      server = (await listen(port)).server;
    },
    async stop() {
      await down();
      removeDir();
      process.off("exit", removeDir);
    },
  };
}

import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { releaseUploadSlot } from "~/lib/upload-slot.server";
import { limitConcurrentUploads } from "../server/upload-slots";

/*
 * The upload slots (server/upload-slots.ts): a large body holds one from its first byte; the code
 * serving it hands it on once the upload is read and re-encoded (a receipt before its order), else
 * when the answer ends. Issue 31, item 5.
 */

const servers: { close(): void }[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** A server with one upload slot: /hold reads its body, maybe releases, then waits to be let go. */
async function serve() {
  const app = express();
  const gates: (() => void)[] = [];
  const served: string[] = [];
  app.use(limitConcurrentUploads(1));
  app.post("/hold", async (req, res) => {
    for await (const _chunk of req) {
      // read the whole body, as a form parser does
    }
    if (req.query.release === "1") releaseUploadSlot();
    served.push(String(req.query.name));
    await new Promise<void>((resolve) => gates.push(resolve));
    res.send("ok");
  });
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  const upload = (name: string, release: boolean) =>
    fetch(`http://127.0.0.1:${port}/hold?name=${name}&release=${release ? 1 : 0}`, {
      method: "POST",
      body: new Uint8Array(512 * 1024),
    }).then((response) => response.text());
  return {
    upload,
    served,
    openAll: () => {
      for (const open of gates.splice(0)) open();
    },
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

describe("upload slots", () => {
  it("hold the next upload back until the answer ends when nobody releases the slot", async () => {
    const { upload, served, openAll } = await serve();
    const first = upload("first", false);
    await settle();
    const second = upload("second", false);
    await settle();
    expect(served).toEqual(["first"]);
    openAll();
    await first;
    await settle();
    expect(served).toEqual(["first", "second"]);
    openAll();
    expect(await second).toBe("ok");
  });

  it("let the next upload in as soon as the first is done with its bytes, before its answer", async () => {
    const { upload, served, openAll } = await serve();
    const first = upload("first", true);
    await settle();
    const second = upload("second", true);
    await settle();
    expect(served).toEqual(["first", "second"]);
    openAll();
    expect(await Promise.all([first, second])).toEqual(["ok", "ok"]);
  });
});

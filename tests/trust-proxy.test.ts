import type { AddressInfo } from "node:net";
import express from "express";
import { describe, expect, it } from "vitest";
import { parseTrustProxy } from "~/lib/config.server";

/** The client address Express reports for a request with `forwardedFor`, under TRUST_PROXY=`setting`. */
async function clientAddress(setting: string | undefined, forwardedFor: string): Promise<string> {
  const app = express();
  app.set("trust proxy", parseTrustProxy(setting));
  app.get("/", (req, res) => {
    res.send(req.ip);
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/`, { headers: { "x-forwarded-for": forwardedFor } });
    return await response.text();
  } finally {
    server.close();
  }
}

describe("TRUST_PROXY", () => {
  it("reads off, on, a hop count and a list of addresses", () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy("off")).toBe(false);
    expect(parseTrustProxy("0")).toBe(false);
    expect(parseTrustProxy("on")).toBe(true);
    expect(parseTrustProxy("1")).toBe(1);
    expect(parseTrustProxy("2")).toBe(2);
    expect(parseTrustProxy(" loopback, 10.0.0.0/8 ")).toBe("loopback, 10.0.0.0/8");
  });

  it("behind one load balancer, 1 takes the address it saw, not one the shopper wrote", async () => {
    // The shopper forged 203.0.113.9; the load balancer appended the address it saw.
    const chain = "203.0.113.9, 198.51.100.20";
    expect(await clientAddress("off", chain)).toBe("127.0.0.1");
    expect(await clientAddress("1", chain)).toBe("198.51.100.20");
    expect(await clientAddress("on", chain)).toBe("203.0.113.9");
    expect(await clientAddress("loopback", chain)).toBe("198.51.100.20");
  });
});

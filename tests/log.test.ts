import http from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import express from "express";
import pino from "pino";
import { afterEach, describe, expect, test } from "vitest";
import { loggablePath, loggerOptions, requestLoggerOptions, scrub } from "~/lib/log.server";
import { handleUncaughtError, logRequests } from "../server/request-log";
import { assignRequestTrace } from "../server/request-trace";

/** A logger with the shop's options writing its JSON lines into `lines`. */
function memoryLogger(options = loggerOptions("info")) {
  const lines: Record<string, unknown>[] = [];
  const raw: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) {
        raw.push(line);
        lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  return { log: pino(options, stream), lines, raw };
}

describe("scrub", () => {
  test("takes tokens out of links, credentials out of text and card-like digit runs out of anything", () => {
    expect(scrub("GET /reset-password?token=Zx81-kq_9&lng=zh")).toBe("GET /reset-password?token=[redacted]&lng=zh");
    expect(scrub("join?code=abc password=hunter2 secret=s3")).toBe(
      "join?code=[redacted] password=[redacted] secret=[redacted]",
    );
    expect(scrub("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.x")).toBe("Authorization: Bearer [redacted]");
    expect(scrub("card 4111 1111 1111 1111 paid")).toBe("card [digits] paid");
    expect(scrub("card 4111-1111-1111-1111")).toBe("card [digits]");
    expect(scrub("card 4111111111111111")).toBe("card [digits]");
    // Order numbers, phone numbers, amounts and short ids stay readable.
    expect(scrub("order HT-1042 for 9123 4567, HK$1,250.00, 12 items")).toBe(
      "order HT-1042 for 9123 4567, HK$1,250.00, 12 items",
    );
  });

  test("a path for the log: no query string, no fragment, card-like digits gone, 300 characters at most", () => {
    expect(loggablePath("/reset-password?token=abc")).toBe("/reset-password");
    expect(loggablePath("/join?token=abc#x")).toBe("/join");
    expect(loggablePath("/stock-alerts/confirm?token=t")).toBe("/stock-alerts/confirm");
    expect(loggablePath("/search/4111111111111111")).toBe("/search/[digits]");
    expect(loggablePath(`/${"a".repeat(500)}`)).toHaveLength(300);
  });
});

describe("the logger", () => {
  test("redacts secret fields and headers, scrubs messages and errors, keeps the stack", () => {
    const { log, lines, raw } = memoryLogger();
    log.info(
      {
        password: "hunter2-password",
        user: { token: "tok-123456", email: "a@b.hk" },
        req: { headers: { cookie: "__session=abc", authorization: "Bearer zzz", accept: "text/html" } },
      },
      "reset link /reset-password?token=tok-123456 sent",
    );
    log.error({ err: new Error("card 4111 1111 1111 1111 refused") }, "payment failed");
    const text = raw.join("\n");
    for (const secret of ["hunter2-password", "tok-123456", "__session=abc", "Bearer zzz", "4111 1111"]) {
      expect(text).not.toContain(secret);
    }
    expect(lines[0]).toMatchObject({
      level: 30,
      msg: "reset link /reset-password?token=[redacted] sent",
      password: "[redacted]",
      user: { token: "[redacted]", email: "a@b.hk" },
      req: { headers: { cookie: "[redacted]", authorization: "[redacted]", accept: "text/html" } },
      pid: process.pid,
    });
    expect(typeof lines[0]?.time).toBe("string");
    const err = lines[1]?.err as { message: string; stack: string; type: string };
    expect(lines[1]?.level).toBe(50);
    expect(err.type).toBe("Error");
    expect(err.message).toBe("card [digits] refused");
    expect(err.stack).toContain("log.test.ts");
  });
});

describe("the request line", () => {
  const servers: http.Server[] = [];
  afterEach(() => {
    for (const server of servers.splice(0)) server.close();
  });

  async function serve(app: express.Express): Promise<string> {
    const server = http.createServer(app);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  test("one line per request with id, method, path without its query, route, status, duration and user; no probes", async () => {
    const { log, lines, raw } = memoryLogger();
    // The request lines' own logger has no redaction: what it is given must be safe already.
    const requests = memoryLogger(requestLoggerOptions("info"));
    const app = express();
    app.use(assignRequestTrace(true));
    app.use(logRequests(requests.log));
    app.get("/healthz", (_req, res) => {
      res.send("ok");
    });
    app.get("/reset-password", (_req, res) => {
      const trace = res.locals.trace as { route: string | null; userId: string | null };
      trace.route = "/reset-password";
      trace.userId = "42";
      res.setHeader("X-Page-Cache", "miss");
      res.send("page");
    });
    app.get("/boom", () => {
      throw new Error("SQLITE_ERROR: no such table: secret_things");
    });
    app.use(handleUncaughtError(log));
    const base = await serve(app);

    const page = await fetch(`${base}/reset-password?token=very-secret-token`, {
      headers: { "X-Request-Id": "lb-req-00000001", Cookie: "__session=abc" },
    });
    expect(page.headers.get("X-Request-Id")).toBe("lb-req-00000001");
    await fetch(`${base}/healthz`);
    const failed = await fetch(`${base}/boom?x=1`);
    const failedId = failed.headers.get("X-Request-Id") ?? "";
    const body = await failed.text();
    expect(failed.status).toBe(500);
    expect(body).toContain(`quote this reference: ${failedId}`);
    expect(body).not.toContain("SQLITE");
    await new Promise((resolve) => setTimeout(resolve, 50));

    for (const text of [raw.join("\n"), requests.raw.join("\n")]) {
      expect(text).not.toContain("very-secret-token");
      expect(text).not.toContain("__session");
    }
    const requestLines = requests.lines.filter((line) => "status" in line);
    expect(lines.filter((line) => "status" in line)).toEqual([]);
    expect(requestLines.map((line) => line.path)).toEqual(["/reset-password", "/boom"]);
    expect(requestLines[0]).toMatchObject({
      level: 30,
      reqId: "lb-req-00000001",
      method: "GET",
      path: "/reset-password",
      route: "/reset-password",
      status: 200,
      userId: "42",
      cache: "miss",
    });
    expect(typeof requestLines[0]?.ms).toBe("number");
    expect(requestLines[1]).toMatchObject({ level: 40, reqId: failedId, status: 500 });
    const error = lines.find((line) => line.msg === "request failed");
    expect(error).toMatchObject({ level: 50, reqId: failedId, path: "/boom" });
    expect((error?.err as { message: string } | undefined)?.message).toContain("no such table");
  });
});

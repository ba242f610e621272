import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import {
  apiAddToCart,
  apiCheckout,
  apiPaymentKey,
  apiSignUp,
  decodeQuotedPrintable,
  receiptJpeg,
  uniqueEmail,
  uniquePassword,
} from "../e2e/fixtures";
import { removeFiles, type Shop, startShop } from "./shop";
import { pay, variants, withWritableDatabase } from "./shoppers";

/**
 * The production server's log (docs/decisions/062), read the way an operator's jq reads it:
 * every line of stdout and stderr is one JSON object; the request id a trusted proxy sends comes
 * back in the answer and in the request's line, a generated one too; after a shopper's sign-up,
 * sign-in, checkout, payment with a receipt and a password reset, no line holds the password,
 * the session cookie, the reset token or the receipt; a failing page logs its error, with its
 * stack, under the id the error page shows, and the page shows nothing internal.
 */

interface LogLine {
  level: number;
  time: string;
  msg: string;
  reqId?: string;
  [field: string]: unknown;
}

function parseLines(text: string, stream: string): LogLine[] {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      try {
        return JSON.parse(line) as LogLine;
      } catch {
        throw new Error(`a ${stream} line is not JSON: ${line}`);
      }
    });
}

function logOf(shop: Shop): { lines: LogLine[]; raw: string } {
  const out = shop.stdout?.() ?? "";
  const err = shop.stderr();
  return { lines: [...parseLines(out, "stdout"), ...parseLines(err, "stderr")], raw: `${out}\n${err}` };
}

/** Waits until the request's line is written (it is written when the answer ends). */
async function lineOf(shop: Shop, reqId: string): Promise<LogLine> {
  let found: LogLine | undefined;
  await expect
    .poll(() => {
      found = logOf(shop).lines.find((line) => line.reqId === reqId && "status" in line);
      return found !== undefined;
    })
    .toBe(true);
  return found as LogLine;
}

let shop: Shop;

test.beforeAll(async () => {
  shop = await startShop({ name: "logs", env: { TRUST_PROXY: "on", LOG_FORMAT: "json", LOG_LEVEL: "info" } });
});

test.afterAll(async () => {
  await shop?.stop();
  if (shop) removeFiles(shop.files);
});

test("JSON lines: request ids round trip, no secret after a shopper's visit, an error logged under its page's id", async ({
  playwright,
}) => {
  test.setTimeout(90_000);
  const request = await playwright.request.newContext({ baseURL: shop.baseURL });
  try {
    // A trusted proxy's id comes back and is the line's; without one, the generated id is.
    const forwarded = await request.get("/", { headers: { "X-Request-Id": "edge-7d1c2a90-proxy" } });
    expect(forwarded.headers()["x-request-id"]).toBe("edge-7d1c2a90-proxy");
    expect(await lineOf(shop, "edge-7d1c2a90-proxy")).toMatchObject({
      level: 30,
      method: "GET",
      path: "/",
      status: 200,
    });
    const generated = await request.get("/blog");
    const generatedId = generated.headers()["x-request-id"] ?? "";
    expect(generatedId).toMatch(/^[0-9a-f-]{36}$/);
    const line = await lineOf(shop, generatedId);
    expect(line).toMatchObject({ method: "GET", path: "/blog", route: "/blog", status: 200, userId: null });
    expect(typeof line.ms).toBe("number");

    // A shopper: sign-up, sign-out and sign-in with the password, checkout, payment with a receipt.
    const email = uniqueEmail("logs");
    const password = uniquePassword();
    await apiSignUp(request, email, password);
    await request.post("/logout", { maxRedirects: 0 });
    const signIn = await request.post("/login", {
      form: { intent: "login", email, password, redirectTo: "/" },
      maxRedirects: 0,
    });
    expect(signIn.status()).toBe(302);
    const session = (await request.storageState()).cookies.find((cookie) => cookie.name === "sid");
    expect(session?.value.length ?? 0).toBeGreaterThan(10);
    const [variant] = variants(shop.files, 1);
    if (!variant) throw new Error("no variant");
    await apiAddToCart(request, variant.productId, variant.color);
    await apiCheckout(request, email);
    const receipt = await receiptJpeg("bank-transfer-4111111111111111.jpg");
    const paid = await pay(request, await apiPaymentKey(request), receipt);
    expect(paid.kind).toBe("confirmed");

    // A password reset: the link's token, then the new password.
    const resetAsked = await request.post("/forgot-password", { form: { email }, maxRedirects: 0 });
    expect(resetAsked.status()).toBe(302);
    const mailDir = path.join(shop.files.dataDir, "mail");
    let token = "";
    await expect
      .poll(() => {
        // The e-mail leaves through the outbox a moment after the answer: its folder may not exist yet.
        for (const file of fs.existsSync(mailDir) ? fs.readdirSync(mailDir) : []) {
          const text = decodeQuotedPrintable(fs.readFileSync(path.join(mailDir, file), "utf8"));
          token = /reset-password\?token=([A-Za-z0-9_\-.~%]+)/.exec(text)?.[1] ?? token;
        }
        return token;
      })
      .not.toBe("");
    const resetPage = await request.get(`/reset-password?token=${token}`);
    expect(resetPage.status()).toBe(200);
    const newPassword = uniquePassword();
    const reset = await request.post("/reset-password", {
      form: { token, password: newPassword, confirm: newPassword },
      maxRedirects: 0,
    });
    expect(reset.status()).toBe(302);
    await lineOf(shop, reset.headers()["x-request-id"] ?? "");

    // A page whose query fails (its table is gone for a moment): a 500 with the id, nothing internal.
    withWritableDatabase(shop.files, (db) => db.exec("ALTER TABLE blog_posts RENAME TO blog_posts_away"));
    let failed: Awaited<ReturnType<typeof request.get>>;
    try {
      failed = await request.get("/blog?page=1");
    } finally {
      withWritableDatabase(shop.files, (db) => db.exec("ALTER TABLE blog_posts_away RENAME TO blog_posts"));
    }
    expect(failed.status()).toBe(500);
    const failedId = failed.headers()["x-request-id"] ?? "";
    const page = await failed.text();
    expect(page).toContain(`quote this reference:<!-- --> <code`);
    expect(page).toContain(failedId);
    expect(page).not.toContain("blog_posts");
    expect(page).not.toContain("no such table");
    expect(await lineOf(shop, failedId)).toMatchObject({ level: 40, status: 500, path: "/blog", route: "/blog" });
    const error = logOf(shop).lines.find((entry) => entry.reqId === failedId && entry.level === 50);
    expect(error, "the error's own line, under the page's request id").toBeDefined();
    const err = error?.err as { message: string; stack: string } | undefined;
    expect(err?.message).toContain("no such table");
    expect(err?.stack).toContain("\n    at ");
    expect(shop.stderr()).toContain(failedId);

    // No secret anywhere in the log.
    const { raw, lines } = logOf(shop);
    for (const [what, secret] of [
      ["the password", password],
      ["the new password", newPassword],
      ["the session cookie", session?.value ?? "-"],
      ["the session token", decodeURIComponent(session?.value ?? "-").split(".")[0] ?? "-"],
      ["the reset token", token],
      ["the receipt's file name", "bank-transfer"],
      ["a card-like number", "4111111111111111"],
    ] as const) {
      expect(raw.includes(secret), `${what} is in the log`).toBe(false);
    }
    expect(raw).not.toContain(receipt.buffer.subarray(0, 24).toString("base64"));
    expect(raw).not.toMatch(/cookie|authorization/i);
    // Every request line names its request; the shopper's are there, under their account.
    const requests = lines.filter((entry) => "status" in entry);
    expect(requests.every((entry) => typeof entry.reqId === "string" && typeof entry.ms === "number")).toBe(true);
    expect(requests.some((entry) => entry.path === "/payment" && entry.method === "POST" && entry.userId)).toBe(true);
    expect(requests.some((entry) => entry.path === "/reset-password" && entry.method === "GET")).toBe(true);
    expect(requests.some((entry) => String(entry.path).startsWith("/assets/") || entry.path === "/healthz")).toBe(
      false,
    );
  } finally {
    await request.dispose();
  }
});

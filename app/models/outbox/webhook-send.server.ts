import crypto from "node:crypto";
import type dns from "node:dns";
import http from "node:http";
import https from "node:https";
import type { OutboxMessageRow } from "#db/schema";
import type { Services } from "~/context";
import { loadShop, shopName } from "../settings/shop.server";
import {
  addressKind,
  BlockedAddressError,
  guardedLookup,
  isPublicAddress,
  unbracket,
} from "../webhooks/addresses.server";
import { allowsPrivateAddresses } from "../webhooks/webhooks.server";
import { DeliveryError } from "./delivery-error";

/*
 * Sending one webhook delivery (docs/decisions/046). The body is the outbox message's payload,
 * as queued; each attempt is signed anew:
 *
 *   X-Shop-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<unix seconds>.<body>")>
 *
 * with the webhook's secret as it is now (a new secret applies to retries too), to the webhook's
 * address as it is now. A 2xx answer is a delivery; anything else — another status, a redirect
 * (never followed), no answer within 10 seconds, an address that is not allowed — is a
 * DeliveryError, and the outbox tries again later. The secret is never logged.
 */

/** How long an attempt may take, from the connection to the answer's status. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** What is kept of a refusing receiver's answer, for the delivery log. */
const ANSWER_SNIPPET_BYTES = 300;

/** The hex HMAC-SHA256 of `<timestamp>.<body>` with the webhook's secret. */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  return crypto.createHmac("sha256", secret).update(`${timestamp}.${body}`, "utf8").digest("hex");
}

/** The X-Shop-Signature header's value: `t=<timestamp>,v1=<signature>`. */
export function signatureHeader(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${webhookSignature(secret, timestamp, body)}`;
}

/** Printable ASCII only: a header value cannot carry the shop's Chinese name. */
function headerText(text: string): string {
  return text
    .replace(/[^\x20-\x7e]/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** What the receiver answered: its status, and a little of its body when it refused. */
interface Answer {
  status: number;
  location: string | null;
  snippet: string;
}

/**
 * POSTs `body` to `target` and resolves with the receiver's answer. Where the connection goes is
 * judged on the address connected to: a literal address before connecting, a name's addresses in
 * the connection's own lookup (guardedLookup), and the socket's remote address once connected.
 */
export function postWebhook(
  target: string,
  body: string,
  headers: Record<string, string>,
  options: { allowPrivate: boolean; timeoutMs?: number; lookup?: typeof dns.lookup },
): Promise<Answer> {
  const { allowPrivate, timeoutMs = WEBHOOK_TIMEOUT_MS } = options;
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return Promise.reject(new DeliveryError("the webhook's address is not a URL"));
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return Promise.reject(new DeliveryError(`refused: ${url.protocol} is not http:// or https://`));
  }
  if (url.protocol === "http:" && !allowPrivate) {
    return Promise.reject(
      new DeliveryError("refused: http:// addresses need the setting that allows http:// and private addresses"),
    );
  }
  const host = unbracket(url.hostname);
  const literal = addressKind(host);
  if (!allowPrivate && literal !== null && literal !== "public") {
    return Promise.reject(new DeliveryError(new BlockedAddressError(host, host, literal).message));
  }
  return new Promise<Answer>((resolve, reject) => {
    let settled = false;
    let answer: Answer | null = null;
    const chunks: Buffer[] = [];
    let size = 0;
    const transport = url.protocol === "https:" ? https : http;
    const request = transport.request(url, {
      method: "POST",
      headers: { ...headers, "Content-Length": String(Buffer.byteLength(body)) },
      // A connection of its own, closed after the answer: nothing pooled, nothing reused.
      agent: false,
      lookup: guardedLookup(allowPrivate, options.lookup),
    });
    const done = (error: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      if (answer) {
        answer.snippet = Buffer.concat(chunks).toString("utf8").slice(0, ANSWER_SNIPPET_BYTES);
        resolve(answer);
      } else if (error instanceof BlockedAddressError) {
        reject(new DeliveryError(error.message));
      } else if (error instanceof DeliveryError) {
        reject(error);
      } else {
        const text = error instanceof Error ? error.message : String(error);
        reject(new DeliveryError(`could not deliver: ${text}`));
      }
    };
    // The status is what counts: a receiver that answered but keeps its body open is not waited for.
    const timer = setTimeout(() => done(new DeliveryError(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
    request.on("socket", (socket) => {
      // Before anything is written to it: the address the connection was actually made to.
      socket.prependOnceListener("connect", () => {
        const remote = socket.remoteAddress;
        if (!allowPrivate && remote && !isPublicAddress(remote)) {
          request.destroy(new BlockedAddressError(host, remote, addressKind(remote) ?? "reserved"));
        }
      });
    });
    request.on("response", (response) => {
      const location = response.headers.location;
      answer = {
        status: response.statusCode ?? 0,
        location: typeof location === "string" ? location : null,
        snippet: "",
      };
      if (answer.status >= 200 && answer.status < 300) return done(null);
      response.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= ANSWER_SNIPPET_BYTES) done(null);
      });
      response.on("end", () => done(null));
      response.on("error", () => done(null));
    });
    request.on("error", done);
    request.end(body);
  });
}

/** The delivery log's words for a receiver's refusal. */
function refusalText(answer: Answer): string {
  if (answer.status >= 300 && answer.status < 400) {
    return `the receiver answered ${answer.status} (a redirect${answer.location ? ` to ${answer.location}` : ""}); redirects are not followed: use the final address`;
  }
  const snippet = answer.snippet.replace(/\s+/g, " ").trim();
  return `the receiver answered ${answer.status}${snippet ? `: ${snippet}` : ""}`;
}

/**
 * Sends one webhook delivery of the outbox (its channel's `send`): signed, to the webhook's
 * current address, with the shop's rules on where it may go. A 2xx answer returns its status;
 * anything else throws a DeliveryError (with the status, when there was one).
 */
export async function sendWebhook(
  services: Services,
  message: OutboxMessageRow,
): Promise<{ responseStatus: number | null }> {
  const { db, config } = services;
  const webhook = message.webhook_id
    ? await db.selectFrom("webhooks").select(["url", "secret"]).where("id", "=", message.webhook_id).executeTakeFirst()
    : undefined;
  if (!webhook) throw new DeliveryError("the webhook was removed under Settings → Webhooks");
  const [allowPrivate, shop] = await Promise.all([allowsPrivateAddresses(db), loadShop(db)]);
  const timestamp = Math.floor(Date.now() / 1000);
  const body = message.payload;
  const answer = await postWebhook(
    webhook.url,
    body,
    {
      "Content-Type": "application/json",
      "User-Agent": headerText(`${shopName(shop, "en") || "Shop"} webhooks (${config.publicUrl})`),
      "X-Shop-Event": headerText(message.subject),
      "X-Shop-Delivery": headerText(message.message_key),
      "X-Shop-Timestamp": String(timestamp),
      "X-Shop-Signature": signatureHeader(webhook.secret, timestamp, body),
    },
    { allowPrivate },
  );
  if (answer.status < 200 || answer.status >= 300) throw new DeliveryError(refusalText(answer), answer.status);
  return { responseStatus: answer.status };
}

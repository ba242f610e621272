import { z } from "zod";
import { fieldMessage } from "~/lib/problem";
import type { ShopEventType } from "~/models/outbox/events.server";

/*
 * The forms of Settings → Webhooks (docs/decisions/046), shared by the server and the browser.
 * The browser checks what it can (an http(s) address, at least one event); where the address
 * leads is checked on the server (app/models/webhooks/addresses.server.ts), which may resolve it.
 */

/** The events a webhook can be sent, in the order the form lists them: every `ShopEventType`. */
export const WEBHOOK_EVENTS = [
  "order.placed",
  "order.receipt_uploaded",
  "order.receipt_rejected",
  "order.paid",
  "order.shipped",
  "order.delivered",
  "order.cancelled",
  "order.expired",
  "order.deadline_extended",
  "order.refunded",
  "message.failed",
] as const satisfies readonly ShopEventType[];

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

// A shop event the list forgets is a type error here: every event can be subscribed to.
const everyEventListed: [Exclude<ShopEventType, WebhookEvent>] extends [never] ? true : false = true;
void everyEventListed;

/** The translation key part of an event (`order.placed` → `order_placed`). */
export function eventKey(event: string): string {
  return event.replace(/\./g, "_");
}

export const WEBHOOK_LIMITS = { name: 80, url: 2000 } as const;

const BAD_REQUEST = "adminWebhooks.errors.badRequest";

/** An HTML checkbox: present means on. */
const checkbox = z
  .string()
  .optional()
  .transform((value) => value !== undefined && value !== "" && value !== "off");

/** What the browser can tell of an address: present, not too long, an http:// or https:// URL. */
const urlField = z
  .string({ error: "adminWebhooks.errors.urlRequired" })
  .trim()
  .min(1, { error: "adminWebhooks.errors.urlRequired" })
  .max(WEBHOOK_LIMITS.url, { error: fieldMessage("adminWebhooks.errors.urlTooLong", { max: WEBHOOK_LIMITS.url }) })
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return url.protocol === "https:" || url.protocol === "http:";
      } catch {
        return false;
      }
    },
    { error: "adminWebhooks.errors.urlInvalid" },
  );

/** A webhook as the owner edits it. */
export const webhookSchema = z.object({
  name: z
    .string()
    .trim()
    .max(WEBHOOK_LIMITS.name, { error: "adminWebhooks.errors.nameTooLong" })
    .optional()
    .transform((value) => value ?? ""),
  url: urlField,
  events: z
    .array(z.enum(WEBHOOK_EVENTS, { error: BAD_REQUEST }), { error: "adminWebhooks.errors.eventsRequired" })
    .min(1, { error: "adminWebhooks.errors.eventsRequired" })
    .transform((events) => WEBHOOK_EVENTS.filter((event) => events.includes(event))),
  active: checkbox,
});

export type WebhookInput = z.output<typeof webhookSchema>;

export const createWebhookSchema = webhookSchema.extend({ intent: z.literal("create") });

/** The shop-wide switch: http:// and private addresses allowed (a bridge on the owner's network). */
export const webhookNetworkSchema = z.object({ intent: z.literal("network"), allow_private: checkbox });

/** The forms of the webhooks list: add one, and the network switch. */
export const webhooksActionSchema = z.discriminatedUnion("intent", [createWebhookSchema, webhookNetworkSchema], {
  error: BAD_REQUEST,
});

/** A delivery of the log, sent again. */
const messageId = z.string({ error: BAD_REQUEST }).regex(/^[0-9a-f-]{36}$/, { error: BAD_REQUEST });

/** The forms of one webhook's page, told apart by their intent. */
export const webhookActionSchema = z.discriminatedUnion(
  "intent",
  [
    webhookSchema.extend({ intent: z.literal("update") }),
    // A new secret and removal: confirmed=1 once the owner has confirmed (confirm() or the second step).
    z.object({ intent: z.literal("secret"), confirmed: z.string().optional() }),
    z.object({ intent: z.literal("delete"), confirmed: z.string().optional() }),
    z.object({ intent: z.literal("test") }),
    z.object({ intent: z.literal("resend"), message: messageId }),
  ],
  { error: BAD_REQUEST },
);

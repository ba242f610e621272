import type { OutboxChannel } from "#db/schema";

/*
 * The filters and page cursors of Admin → Messages (app/models/outbox/admin-list.server.ts), for
 * the server and the page alike.
 */

/** The list's status filter: `waiting` is pending and sending (not sent yet, not given up). */
export const MESSAGE_LIST_STATUSES = ["all", "waiting", "sent", "failed"] as const;
export type MessageListStatus = (typeof MESSAGE_LIST_STATUSES)[number];

export const OUTBOX_CHANNELS: readonly OutboxChannel[] = ["email", "webhook"];

export function parseMessageListStatus(value: unknown): MessageListStatus {
  return (MESSAGE_LIST_STATUSES as readonly unknown[]).includes(value) ? (value as MessageListStatus) : "all";
}

export function parseOutboxChannel(value: unknown): OutboxChannel | null {
  return (OUTBOX_CHANNELS as readonly unknown[]).includes(value) ? (value as OutboxChannel) : null;
}

/** Where a page starts: the (created_at, id) of the row next to it. */
export interface MessageCursor {
  createdAt: string;
  id: string;
}

const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)~([0-9A-Za-z-]{1,64})$/;

/** A cursor as it travels in a link (`older=` / `newer=`). */
export function formatCursor(cursor: MessageCursor): string {
  return `${cursor.createdAt}~${cursor.id}`;
}

/** A cursor from a link; null for anything that is not one (the first page is shown). */
export function parseCursor(value: unknown): MessageCursor | null {
  if (typeof value !== "string") return null;
  const match = CURSOR.exec(value);
  return match ? { createdAt: match[1] as string, id: match[2] as string } : null;
}

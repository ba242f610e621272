import type { Services } from "~/context";
import { type CurrentUser, userContext } from "~/lib/auth.server";
import { emptySession, sessionContext } from "~/lib/session.server";
import { i18nextMiddleware } from "~/middleware/i18next";
import { createTestContext } from "./db";

/**
 * Runs a real loader or action behind the real i18n middleware, as the server does, for
 * `user` (null: signed out). Returns what it returned or threw, and the flash it set.
 */
export async function runRoute<T>(
  svc: Services,
  fn: (args: never) => Promise<T>,
  request: Request,
  user: CurrentUser | null,
  params: Record<string, string> = {},
) {
  const ctx = createTestContext(svc);
  ctx.set(sessionContext, emptySession());
  ctx.set(userContext, user);
  const args = { request, params, context: ctx, pattern: "" };
  let result: T | undefined;
  let thrown: unknown;
  await i18nextMiddleware(args as unknown as Parameters<typeof i18nextMiddleware>[0], async () => {
    try {
      result = await fn(args as never);
    } catch (error) {
      thrown = error;
    }
    return new Response(null);
  });
  const flash = ctx.get(sessionContext).data.flash as { type: string; key: string; detailKey?: string } | undefined;
  return { result, thrown, flash };
}

export function formOf(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  return form;
}

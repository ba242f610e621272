import type { RouterContextProvider } from "react-router";
import { getSession, setSessionValue } from "./session.server";

/**
 * A flash message is a translation key with its parameters, not text, so it renders in the
 * reader's language. Actions set it before redirecting; the root loader alone reads it.
 */
export interface Flash {
  type: "success" | "error" | "info";
  /** Translation key of the title, e.g. "flash.languageChanged". */
  key: string;
  /** Optional translation key of the body text. */
  detailKey?: string;
  params?: Record<string, string | number>;
}

export function setFlash(context: Readonly<RouterContextProvider>, flash: Flash): void {
  setSessionValue(getSession(context), "flash", flash);
}

export function takeFlash(context: Readonly<RouterContextProvider>): Flash | null {
  const session = getSession(context);
  const flash = session.data.flash as Flash | undefined;
  if (!flash) return null;
  setSessionValue(session, "flash", undefined);
  return flash;
}

// TEMPORARY (lead): replaced by helper A's buffered version at merge.
import { isbot } from "isbot";
import { createCookie } from "react-router";
import type { DB } from "#db/connect.server";
import { recordPageView } from "~/models/analytics.server";

const visitCookie = createCookie("visit", { path: "/", httpOnly: true, sameSite: "lax", maxAge: 30 * 60 });

export interface PageVisit {
  method: string;
  path: string;
  status: number;
  contentType: string | null;
  cookieHeader: string | null;
  userAgent: string | null;
  referrer: string | null;
  userId: number | null;
}

export async function countPageVisit(db: DB, visit: PageVisit): Promise<string | null> {
  try {
    if (visit.method !== "GET" || visit.status >= 400 || isbot(visit.userAgent ?? "")) return null;
    if (/^\/(admin|resources|assets|uploads)(\/|$)/.test(visit.path) || visit.path.endsWith(".data")) return null;
    let id = await visitCookie.parse(visit.cookieHeader);
    if (typeof id !== "string" || !/^[A-Za-z0-9_-]{16,64}$/.test(id)) id = crypto.randomUUID().replaceAll("-", "");
    void recordPageView(db, {
      path: visit.path,
      sessionId: id,
      userId: null,
      userAgent: visit.userAgent?.slice(0, 500) ?? null,
      referrer: visit.referrer?.slice(0, 500) ?? null,
    }).catch((error) => console.error("page view not recorded", error));
    return await visitCookie.serialize(id);
  } catch (error) {
    console.error("page view not recorded", error);
    return null;
  }
}

export async function flushPageViews(): Promise<void> {}

import fs from "node:fs";
import path from "node:path";
import { type APIRequestContext, expect, test } from "@playwright/test";
import routes from "../../app/routes";
import {
  changedTables,
  customerSignIn,
  EVERYONE,
  fingerprint,
  type MatrixIds,
  type MatrixRow,
  outcomeMismatch,
  type Parties,
  postBody,
  postOutcome,
  ROUTE_MATRIX,
  relativeLocation,
  routeId,
  SECRET_ADDRESS,
  shopWithParties,
  type Who,
} from "./route-matrix";
import { adminSignIn, ROOT, type Shop } from "./shop";

/**
 * Issue 9: who may do what. Every cell of the route matrix (route × GET/POST × signed out,
 * customer A, customer B, admin, staff (issue 19)) is sent straight to a real production server, and customer B
 * tries every way to A's order, receipt and account data.
 */

let shop: Shop;
let ids: MatrixIds;
let clients: Parties["clients"];
let accounts: Parties["accounts"];

shopWithParties("authz", (started, prepared) => {
  shop = started;
  ({ ids, clients, accounts } = prepared);
});

/* ------------------------------------------------------------------------------------------ */

interface ConfigRoute {
  id?: string;
  path?: string;
  index?: boolean;
  file: string;
  children?: ConfigRoute[];
}

/**
 * Every addressable route of app/routes.ts as "path id file" (a layout without a path is not
 * addressable); the id is the one React Router uses: given, or the module path without extension.
 */
function configRoutes(list: readonly ConfigRoute[], parent = ""): string[] {
  return list.flatMap((route) => {
    const full = route.path ? `${parent}/${route.path}` : parent;
    const id = route.id ?? route.file.replace(/\.tsx?$/, "");
    const own = route.index || route.path ? [`${full || "/"} ${id} ${route.file}`] : [];
    return [...own, ...configRoutes(route.children ?? [], full)];
  });
}

test("the matrix has a row for every route of app/routes.ts, and a POST column exactly where the module has an action", () => {
  const inConfig = configRoutes(routes as ConfigRoute[]).sort();
  const inMatrix = ROUTE_MATRIX.map((row) => `${row.path} ${routeId(row)} ${row.file}`).sort();
  expect(inMatrix, "route-matrix.ts rows vs app/routes.ts").toEqual(inConfig);
  for (const row of ROUTE_MATRIX) {
    const source = fs.readFileSync(path.join(ROOT, "app", row.file), "utf8");
    const hasAction = /export\s+(async\s+)?function\s+action\b|export\s+const\s+action\b/.test(source);
    expect(row.post !== null, `${row.path}: POST column vs the action of ${row.file}`).toBe(hasAction);
  }
});

/** Sends one cell; null when it answered as the matrix says, else what went wrong. */
async function sendCell(client: APIRequestContext, row: MatrixRow, who: Who, method: "GET" | "POST") {
  const url = row.url(ids);
  const response =
    method === "GET"
      ? await client.get(url, { maxRedirects: 0 })
      : await client.post(url, {
          form: postBody(row, who, ids),
          maxRedirects: 0,
        });
  const outcome = method === "GET" ? row.get[who] : postOutcome(row, who);
  const problem = outcomeMismatch(
    outcome,
    response.status(),
    relativeLocation(response.headers().location, shop.baseURL),
  );
  return problem ? `${method} ${url} as ${who}: ${problem}` : null;
}

/**
 * A client-side navigation asks `<path>.data?_routes=<route id>` for the one route it needs,
 * without the layouts above it: where a page turns someone away, so must its data request
 * (a redirect is then encoded in the body, a 404 stays a 404), and nothing else may come back.
 */
async function sendDataRequest(client: APIRequestContext, row: MatrixRow, who: Who) {
  const outcome = row.get[who];
  const denied = typeof outcome === "number" ? outcome === 403 || outcome === 404 : true;
  if (!row.file.endsWith(".tsx") || !denied) return null;
  const url = new URL(row.url(ids), shop.baseURL);
  const pathname = url.pathname === "/" ? "/_root" : url.pathname.replace(/\/$/, "");
  url.searchParams.set("_routes", routeId(row));
  const dataUrl = `${pathname}.data?${url.searchParams}`;
  const response = await client.get(dataUrl, { maxRedirects: 0 });
  const body = await response.text();
  const redirect = /^\[\["SingleFetchRedirect",\d+\].*?"redirect","([^"]*)"/.exec(body)?.[1];
  const problem =
    typeof outcome === "number"
      ? outcomeMismatch(outcome, response.status(), undefined)
      : outcomeMismatch(outcome, redirect === undefined ? response.status() : 302, redirect);
  return problem ? `GET ${dataUrl} as ${who}: ${problem}` : null;
}

test("every cell of the matrix answers as it says", async ({ playwright }) => {
  const problems: string[] = [];
  let sent = 0;
  // The four people ask at once, each through their own client, row after row.
  await Promise.all(
    EVERYONE.map(async (who) => {
      for (const row of ROUTE_MATRIX) {
        const get = await sendCell(clients[who], row, who, "GET");
        if (get) problems.push(get);
        const data = await sendDataRequest(clients[who], row, who);
        if (data) problems.push(data);
        sent++;
        if (row.signsOut) continue;
        const post = await sendCell(clients[who], row, who, "POST");
        if (post) problems.push(post);
        sent++;
      }
    }),
  );
  // Signing out is sent from a fresh sign-in of the same person, so the shared clients stay signed in.
  for (const row of ROUTE_MATRIX.filter((candidate) => candidate.signsOut)) {
    for (const who of EVERYONE) {
      const client = await playwright.request.newContext({ baseURL: shop.baseURL });
      try {
        if (who === "admin" || who === "staff") await adminSignIn(client, accounts[who].email, accounts[who].password);
        else if (who !== "signedOut") await customerSignIn(client, accounts[who]);
        const post = await sendCell(client, row, who, "POST");
        if (post) problems.push(post);
        sent++;
      } catch (error) {
        problems.push(
          `POST ${row.path} as ${who}: could not sign in first (${(error as Error).message.split("\n")[0]})`,
        );
      } finally {
        await client.dispose();
      }
    }
  }
  expect(problems, `${problems.length} of ${sent} cells answered otherwise`).toEqual([]);
  // The shared clients are still who they were (nothing above signed them out).
  const account = await clients.customerA.get("/account", { maxRedirects: 0 });
  expect(await account.text()).toContain(accounts.customerA.email);
});

test("customer B never sees A's order, receipt or account data: real, guessed and neighbouring ids and numbers", async () => {
  const b = clients.customerB;
  const { orderA, orderNumberA } = ids;
  const hex = (value: number) => value.toString(16);
  const lastDigit = Number.parseInt(orderA.slice(-1), 16);
  const neighbourIds = [
    `${orderA.slice(0, -1)}${hex((lastDigit + 1) % 16)}`,
    `${orderA.slice(0, -1)}${hex((lastDigit + 15) % 16)}`,
    orderA.toUpperCase(),
    `${orderA} `,
    `${orderA}%00`,
    "00000000-0000-0000-0000-000000000000",
    "1",
    "0",
    "-1",
    orderNumberA,
  ];
  const [, stamp = "0", suffix = "0"] = /^ORD-(\d+)-([0-9A-F]+)$/.exec(orderNumberA) ?? [];
  const neighbourNumbers = [
    orderNumberA,
    orderNumberA.toLowerCase(),
    `ORD-${Number(stamp) + 1}-${suffix}`,
    `ORD-${Number(stamp) - 1}-${suffix}`,
    `ORD-${stamp}-${(Number.parseInt(suffix, 16) + 1).toString(16).toUpperCase().padStart(6, "0")}`,
    `ORD-${stamp}-${(Number.parseInt(suffix, 16) - 1).toString(16).toUpperCase().padStart(6, "0")}`,
    `ORD-${stamp}`,
    "ORD-%",
    "%",
  ];
  // The order itself, by every id: "not found", and its receipt too (also the data requests of client navigations).
  const notFound = [
    ...[orderA, ...neighbourIds].flatMap((id) => [
      `/account/orders/${encodeURIComponent(id)}`,
      `/account/orders/${encodeURIComponent(id)}.data`,
      `/account/orders/${encodeURIComponent(id)}/receipt`,
      `/account/orders/${encodeURIComponent(id)}/receipt?download=1`,
    ]),
  ];
  // Pages that are B's own (or refuse B): they answer, but with nothing of A's.
  const other = [
    "/account",
    "/account.data",
    "/account/orders",
    "/account/orders.data",
    "/payment",
    "/checkout",
    "/cart",
    ...neighbourNumbers.flatMap((number) => [
      `/payment-success?order=${encodeURIComponent(number)}`,
      `/payment-success.data?order=${encodeURIComponent(number)}`,
    ]),
    `/search?q=${encodeURIComponent(orderNumberA)}`,
    `/resources/search?q=${encodeURIComponent(ids.emailA)}`,
    `/admin/orders/${orderA}`,
    `/admin/orders/${orderA}.data`,
    `/admin/orders/${orderA}/receipt`,
    `/admin/orders?q=${encodeURIComponent(orderNumberA)}`,
    `/admin/orders.data?q=${encodeURIComponent(orderNumberA)}`,
    `/admin/customers?q=${encodeURIComponent(ids.emailA)}`,
    "/admin/customers.data",
    "/admin/customers/export",
    "/admin.data",
  ];
  const secrets = [ids.emailA, orderNumberA, orderA, SECRET_ADDRESS];
  const leaks: string[] = [];
  for (const url of [...notFound, ...other]) {
    const response = await b.get(url, { maxRedirects: 0 });
    const body = await response.text();
    // A page may echo its own URL (canonical link, hydration data): a secret the URL carries is
    // no leak, so those URLs are judged by the other secrets (A's id, number, e-mail, address).
    const asked = decodeURIComponent(url).toLowerCase();
    for (const secret of secrets) {
      if (!asked.includes(secret.toLowerCase()) && body.includes(secret)) {
        leaks.push(`${url} (${response.status()}) shows ${secret}`);
      }
    }
    if ((response.headers()["content-type"] ?? "").startsWith("image/")) leaks.push(`${url} sent an image`);
    if (notFound.includes(url) && response.status() !== 404)
      leaks.push(`${url} answered ${response.status()}, not 404`);
    if (other.includes(url) && response.status() === 500) leaks.push(`${url} failed (500)`);
  }
  // A's own requests see A's order: the secrets above are really what a leak would show.
  const own = await clients.customerA.get(`/account/orders/${orderA}`);
  expect(own.status()).toBe(200);
  expect(await own.text()).toContain(orderNumberA);
  expect((await clients.customerA.get(`/account/orders/${orderA}/receipt`)).headers()["content-type"]).toMatch(
    /^image\//,
  );
  expect(leaks).toEqual([]);
});

test("admin writes POSTed signed out or by a customer (or the owner's by staff) are refused (403) and change nothing", async () => {
  const before = fingerprint(shop.files);
  const problems: string[] = [];
  for (const row of ROUTE_MATRIX.filter((candidate) => candidate.adminOnly && candidate.post)) {
    const refused: Who[] = ["signedOut", "customerA", "customerB", ...(row.owner ? (["staff"] as const) : [])];
    for (const who of refused) {
      // The document form post and the data request a client-side submission makes.
      for (const url of [row.url(ids), `${row.url(ids).replace(/\/$/, "")}.data`]) {
        const response = await clients[who].post(url, { form: row.body?.(ids) ?? {}, maxRedirects: 0 });
        if (response.status() !== 403) problems.push(`POST ${url} as ${who}: ${response.status()}`);
      }
      const deleted = await clients[who].delete(row.url(ids), { form: row.body?.(ids) ?? {}, maxRedirects: 0 });
      if (deleted.status() !== 403) problems.push(`DELETE ${row.url(ids)} as ${who}: ${deleted.status()}`);
    }
  }
  expect(problems).toEqual([]);
  expect(changedTables(before, fingerprint(shop.files)), "tables changed by refused admin writes").toEqual([]);
});

import { describe, expect, it } from "vitest";
import { emptySession } from "~/request/session.server";
import { cacheRefusal, pageKey, type Visitor, visitorView } from "~/request/visitor.server";

/*
 * The drift guard of the page cache (docs/decisions/070): everything the visitor function knows
 * about a request is either part of a cached page's key, spliced into it per request
 * (`visitorView`), a reason not to use the cache (`cacheRefusal`), or listed here as not shown on
 * a catalogue page, with the reason. A field added to Visitor and to none of them fails here.
 */

function base(): Visitor {
  return {
    session: emptySession(),
    user: { id: "u1", email: "a@x.hk", isAdmin: false, role: null },
    language: "en",
    currency: "HKD",
    cartId: "c1",
    cartCount: 2,
    bot: false,
    flashPending: false,
  };
}

/** A different value for every field (and for the user's own fields). */
const changes: Record<string, (v: Visitor) => void> = {
  language: (v) => {
    v.language = "zh";
  },
  currency: (v) => {
    v.currency = "EUR";
  },
  bot: (v) => {
    v.bot = true;
  },
  cartCount: (v) => {
    v.cartCount = 7;
  },
  "user.email": (v) => {
    if (v.user) v.user.email = "b@x.hk";
  },
  "user.isAdmin": (v) => {
    if (v.user) v.user.isAdmin = true;
  },
  user: (v) => {
    v.user = null;
  },
  flashPending: (v) => {
    v.flashPending = true;
  },
  session: (v) => {
    v.session.dirty = true;
  },
  cartId: (v) => {
    v.cartId = "c2";
  },
  "user.id": (v) => {
    if (v.user) v.user.id = "u2";
  },
  "user.role": (v) => {
    if (v.user) v.user.role = "staff";
  },
};

/** Not shown on a catalogue page, and why. */
const NOT_SHOWN: Record<string, string> = {
  cartId: "the badge shows the count, the cart's id only the cart page (never cached)",
  "user.id": "pages name a user by e-mail; ids are for the server",
  "user.role": "owner or staff differ only in the back office (never cached); the header shows isAdmin",
};

describe("the page cache's key and splice, and what a visitor is", () => {
  it("every field of Visitor is keyed, spliced, a refusal, or listed as not shown", () => {
    const fields = [
      ...Object.keys(base()).filter((k) => k !== "user"),
      "user",
      ...Object.keys(base().user ?? {}).map((k) => `user.${k}`),
    ];
    for (const field of fields) {
      const change = changes[field];
      expect(change, `no change written for Visitor field ${field}: classify it here`).toBeDefined();
      const before = base();
      const after = base();
      change?.(after);
      const keyed = pageKey("/category/all", before) !== pageKey("/category/all", after);
      const spliced = JSON.stringify(visitorView(before)) !== JSON.stringify(visitorView(after));
      const refused = cacheRefusal(before) !== cacheRefusal(after);
      const notShown = field in NOT_SHOWN;
      expect(
        [keyed, spliced, refused, notShown].filter(Boolean).length,
        `${field}: keyed ${keyed}, spliced ${spliced}, refused ${refused}, not shown ${notShown}`,
      ).toBe(1);
    }
  });

  it("the key is the address, language, currency and crawler, and nothing of the user", () => {
    const customer = base();
    const admin = base();
    if (admin.user) admin.user = { ...admin.user, id: "u9", email: "boss@x.hk", isAdmin: true, role: "owner" };
    admin.cartCount = 0;
    const anonymous = { ...base(), user: null, cartId: null, cartCount: 0 };
    const keys = new Set([customer, admin, anonymous].map((v) => pageKey("/product/7?option=M", v)));
    expect(keys.size).toBe(1);
    expect(pageKey("/product/7?option=M", customer)).not.toBe(pageKey("/product/7?option=L", customer));
  });

  it("the view spliced into a page: e-mail, admin link and cart count only", () => {
    expect(visitorView(base())).toEqual({ email: "a@x.hk", admin: false, cartCount: 2 });
    expect(visitorView({ ...base(), user: null, cartCount: 0 })).toEqual({ email: null, admin: false, cartCount: 0 });
  });

  it("refuses the cache for a message to show once, and for a session to write", () => {
    expect(cacheRefusal(base())).toBeNull();
    expect(cacheRefusal({ ...base(), flashPending: true })).toBe("flash");
    expect(cacheRefusal({ ...base(), session: { ...emptySession(), dirty: true } })).toBe("session-write");
    expect(cacheRefusal({ ...base(), session: { ...emptySession(), rotate: true } })).toBe("session-write");
  });
});

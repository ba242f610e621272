/**
 * Every form (POST action) of the shop with the fields its route module reads, for the fuzzer
 * (fuzz.spec.ts). Built by reading each module in app/routes: the hidden fields a page puts in
 * its form, the buttons' `intent` values and the fields of the shared Zod schemas.
 *
 * A field lists values the form itself would send ("valid" examples). The fuzzer mixes them with
 * garbage, leaves fields out, repeats them and adds fields the form does not have; values that
 * depend on the shop's data (ids, one-time keys) come from the spec's `FuzzContext`, so random
 * bodies also reach past the "not found" checks into the real work.
 */

/** Who posts: a browser without a session, the signed-in customer, or the signed-in admin. */
export type Role = "anon" | "customer" | "admin";

/** Ids and keys of the spec's shop, so a form can be sent "with the right hidden keys". */
export interface FuzzContext {
  /** A product with several colours, and two of its colours. */
  productId: number;
  colours: string[];
  /** A colour that exists only on another product. */
  foreignColour: string;
  /** A product the admin fuzzes (edits, category moves, deletes). */
  adminProductId: number;
  categoryId: number;
  blogPostId: number;
  bankAccountId: number;
  /** The owner's webhook (to 127.0.0.1:9, where nothing listens) and one of its deliveries. */
  webhookId: string;
  webhookDeliveryId: string;
  /** The customer's current cart line, when there is one. */
  lineId: number | null;
  /** An order of the customer whose receipt the admin rejected (the customer may replace it). */
  orderId: string;
  /** Another order of the customer, for the admin's status changes. */
  transitionOrderId: string;
  /** A customer the admin may block and unblock (not the fuzzing customer). */
  victimId: string;
  /** The payment page's current one-time key (read before each payment post). */
  submissionKey: string;
  customerEmail: string;
  /** A failed e-mail of the customer's (Admin → Messages: send again). */
  messageId: string;
}

/** Valid example values of one field: fixed, or read from the context. */
export type Examples = readonly string[] | ((ctx: FuzzContext) => readonly string[]);

export interface FormAction {
  /** A readable name for reports. */
  name: string;
  /** The route module that handles it. */
  module: string;
  path: (ctx: FuzzContext) => string;
  as: Role;
  /** `multipart` when the page's form has a file input (enctype multipart/form-data). */
  encoding: "urlencoded" | "multipart";
  /** Text fields with example values. */
  fields: Record<string, Examples>;
  /** File inputs (multipart only). */
  files?: readonly string[];
  /**
   * Done before each post, so random bodies reach the real work: the payment form needs a
   * checkout and a fresh key, the cart forms a line, the receipt replacement a rejected receipt.
   */
  prepare?: "payment" | "cart-line" | "rejected-receipt";
}

const EMAILS = ["shopper@example.com", "Shopper@Example.com", " user+tag@example.org "];
const PASSWORDS = ["correct horse", "123456", "pw-secret-1"];
const REDIRECTS = ["/", "/cart", "/product/1", "//evil.example", "https://evil.example/", "javascript:alert(1)"];
const PRICES = ["12.34", "0", "1", "9999999.99", "0.5"];
const STOCKS = ["0", "1", "25", "999999"];
const ORDER_STATUSES = ["pending_payment", "paid", "shipped", "delivered", "cancelled"];
const id = (pick: (ctx: FuzzContext) => number | string) => (ctx: FuzzContext) => [String(pick(ctx))];

const checkoutFields: Record<string, Examples> = {
  firstName: ["Chan", "陳"],
  lastName: ["Tai Man", "大文"],
  email: (ctx) => [ctx.customerEmail],
  phone: ["+852 9123 4567", "91234567", ""],
  address: ["Flat A, 12/F, 1 Nathan Road", "彌敦道1號"],
  city: ["Tsim Sha Tsui", "尖沙咀"],
  postalCode: ["", "999077"],
  country: ["Hong Kong", "香港"],
  notes: ["", "Leave at the door"],
};

const productFields: Record<string, Examples> = {
  intent: ["save", "add-variant", "remove-variant-0", "image-up-1", "image-down-0", "image-remove-0"],
  name_en: ["Fuzz Rifle", "M4 Carbine"],
  name_zh: ["模糊步槍"],
  description_en: ["", "A rifle."],
  description_zh: ["", "步槍。"],
  price_hkd: PRICES,
  price_gbp: ["", ...PRICES],
  price_eur: ["", ...PRICES],
  price_usd: ["", ...PRICES],
  category_id: (ctx) => ["", String(ctx.categoryId)],
  brand_id: ["", "1", "999999", "x"],
  is_featured: ["on"],
  weight_grams: ["", "0", "3200", "1000000"],
  stock: STOCKS,
  "variants[0].color": ["Black", "Tan"],
  "variants[0].color_zh": ["", "黑色", "長".repeat(61)],
  "variants[0].stock": STOCKS,
  "variants[1].color": ["Tan", "black"],
  "variants[1].stock": STOCKS,
  "images[0]": ["products/none.webp"],
  // New images kept between answers without JavaScript: a forged, a stale and a malformed token.
  keptImages: ["mz3k1a2b-0f0e0d0c-0b0a-0908-0706-050403020100:forged.png", "1-x:old.png", "../../secret:x"],
  removeKeptImages: ["mz3k1a2b-0f0e0d0c-0b0a-0908-0706-050403020100", "../x"],
  browserKeepsFiles: ["1", ""],
};

const categoryFields: Record<string, Examples> = {
  name_en: ["Fuzz Gear", "Pistols"],
  name_zh: ["模糊裝備"],
  description_en: ["", "Gear."],
  description_zh: ["", "裝備。"],
  sort_order: ["0", "5", "-3", "1.5"],
  is_active: ["on", ""],
  slug: ["", "fuzz-gear", "Fuzz Gear!"],
  remove_image: ["", "1"],
};

const blogFields: Record<string, Examples> = {
  title_en: ["Range day", "A *title*"],
  title_zh: ["靶場日"],
  content_en: ["# Hello\n\nSome **Markdown**.", "<script>alert(1)</script>"],
  content_zh: ["你好"],
  author: ["Harbour Team"],
  published: ["on", ""],
  remove_image: ["", "on"],
};

const bankFields: Record<string, Examples> = {
  bank_name: ["HSBC", "中國銀行"],
  account_holder: ["Harbour Tactical Ltd"],
  account_number: ["123-456789-001", "12345678"],
  fps_id: ["", "1234567", "pay@example.com"],
  swift_code: ["", "HSBCHKHHHKH", "hsbc hk hh"],
  routing_number: ["", "004"],
  bank_address: ["", "1 Queen's Road Central"],
  is_primary: ["", "on"],
};

const webhookFields: Record<string, Examples> = {
  name: ["Books", "記帳", "<b>x</b>", ""],
  url: [
    "http://127.0.0.1:9/fuzz",
    "https://127.0.0.1:9/fuzz",
    "http://2130706433:9/",
    "https://[::ffff:127.0.0.1]:9/",
    "http://localhost:9/x",
    "https://10.0.0.5/hook",
    "https://hooks.invalid/x",
    "https://user:pw@127.0.0.1:9/",
    "ftp://127.0.0.1/",
    "javascript:alert(1)",
    "not a url",
  ],
  "events[]": ["order.placed", "order.paid", "message.failed", "ping", "order.unknown"],
  active: ["on", ""],
};

/** Every POST action of the shop. */
export const FORMS: readonly FormAction[] = [
  // ---- store, signed out ----
  {
    name: "login / sign-up",
    module: "app/routes/store/login.tsx",
    path: () => "/login",
    as: "anon",
    encoding: "urlencoded",
    fields: { intent: ["login", "signup"], email: EMAILS, password: PASSWORDS, redirectTo: REDIRECTS },
  },
  {
    name: "forgot password",
    module: "app/routes/store/forgot-password.tsx",
    path: () => "/forgot-password",
    as: "anon",
    encoding: "urlencoded",
    fields: { email: EMAILS },
  },
  {
    name: "reset password",
    module: "app/routes/store/reset-password.tsx",
    path: () => "/reset-password",
    as: "anon",
    encoding: "urlencoded",
    fields: { token: ["abcdefghijklmnopqrstuvwxyz0123456789"], password: PASSWORDS, confirm: PASSWORDS },
  },
  {
    name: "staff invitation (join)",
    module: "app/routes/store/join.tsx",
    path: () => "/join",
    as: "anon",
    encoding: "urlencoded",
    fields: { token: ["abcdefghijklmnopqrstuvwxyz0123456789"], password: PASSWORDS, confirm: PASSWORDS },
  },
  {
    name: "verify e-mail",
    module: "app/routes/store/verify-email.tsx",
    path: () => "/verify-email",
    as: "anon",
    encoding: "urlencoded",
    fields: { token: ["abcdefghijklmnopqrstuvwxyz0123456789", "short"] },
  },
  {
    name: "back-in-stock alert",
    module: "app/routes/store/stock-alerts.tsx",
    path: () => "/stock-alerts?variant=1",
    as: "anon",
    encoding: "urlencoded",
    fields: { variant_id: ["1", "2", "3", "999999999"], email: EMAILS },
  },
  {
    name: "back-in-stock alert (signed in)",
    module: "app/routes/store/stock-alerts.tsx",
    path: () => "/stock-alerts?variant=2",
    as: "customer",
    encoding: "urlencoded",
    fields: { variant_id: ["1", "2"], email: (ctx) => [ctx.customerEmail] },
  },
  {
    name: "back-in-stock alert: confirm",
    module: "app/routes/store/stock-alert-confirm.tsx",
    path: () => "/stock-alerts/confirm",
    as: "anon",
    encoding: "urlencoded",
    fields: { token: ["abcdefghijklmnopqrstuvwxyz0123456789", "short"] },
  },
  {
    name: "back-in-stock alert: stop",
    module: "app/routes/store/stock-alert-stop.tsx",
    path: () => "/stock-alerts/stop",
    as: "anon",
    encoding: "urlencoded",
    fields: { token: ["abcdefghijklmnopqrstuvwxyz0123456789", "short"] },
  },
  {
    name: "language",
    module: "app/routes/resources/language.ts",
    path: () => "/resources/language",
    as: "anon",
    encoding: "urlencoded",
    fields: { language: ["en", "zh"], redirectTo: REDIRECTS },
  },
  {
    name: "currency",
    module: "app/routes/resources/currency.ts",
    path: () => "/resources/currency",
    as: "anon",
    encoding: "urlencoded",
    fields: { currency: ["HKD", "USD", "GBP", "EUR"], redirectTo: REDIRECTS },
  },
  {
    name: "checkout (signed out)",
    module: "app/routes/store/checkout.tsx",
    path: () => "/checkout",
    as: "anon",
    encoding: "urlencoded",
    fields: { ...checkoutFields, email: EMAILS },
  },
  // ---- store, the customer ----
  {
    name: "cart: add",
    module: "app/routes/store/cart.tsx",
    path: () => "/cart",
    as: "customer",
    encoding: "urlencoded",
    fields: {
      intent: ["add"],
      productId: (ctx) => [String(ctx.productId)],
      color: (ctx) => [...ctx.colours, ctx.foreignColour, "Default"],
      quantity: ["1", "2"],
      redirectTo: REDIRECTS,
      _fetcher: ["1"],
    },
  },
  {
    // A product card's button (decision 068): product and colour in one value.
    name: "cart: add from a card",
    module: "app/routes/store/cart.tsx",
    path: () => "/cart",
    as: "customer",
    encoding: "urlencoded",
    fields: {
      intent: ["add"],
      add: (ctx) => [
        ...ctx.colours.map((colour) => `${ctx.productId}:${colour}`),
        `${ctx.productId}:${ctx.foreignColour}`,
        String(ctx.productId),
        `abc:${ctx.colours[0] ?? "Black"}`,
        ":",
      ],
      redirectTo: REDIRECTS,
      _fetcher: ["1"],
    },
  },
  {
    name: "cart: update / remove / clear",
    module: "app/routes/store/cart.tsx",
    path: () => "/cart",
    as: "customer",
    encoding: "urlencoded",
    prepare: "cart-line",
    fields: {
      intent: ["update", "remove", "clear"],
      lineId: (ctx) => (ctx.lineId === null ? ["1"] : [String(ctx.lineId)]),
      quantity: ["1", "2"],
      setQuantity: ["1", "3"],
      _fetcher: ["1"],
    },
  },
  {
    name: "cart: update shipping (destination)",
    module: "app/routes/store/cart.tsx",
    path: () => "/cart",
    as: "customer",
    encoding: "urlencoded",
    prepare: "cart-line",
    fields: {
      intent: ["shipping"],
      country: ["MO", "mo", "Macau", "澳門", "XX", "", "x".repeat(200)],
      _fetcher: ["1"],
    },
  },
  {
    name: "cart: discount code (apply / remove)",
    module: "app/routes/store/cart-code.ts",
    path: () => "/cart/code",
    as: "customer",
    encoding: "urlencoded",
    prepare: "cart-line",
    fields: {
      intent: ["applyCode", "removeCode"],
      code: ["SUMMER10", "summer10 ", "", "x".repeat(80), "' OR 1=1 --", "折扣"],
      redirectTo: [...REDIRECTS, "/checkout", "/payment"],
      _fetcher: ["1"],
    },
  },
  {
    name: "checkout",
    module: "app/routes/store/checkout.tsx",
    path: () => "/checkout",
    as: "customer",
    encoding: "urlencoded",
    fields: checkoutFields,
  },
  {
    name: "payment",
    module: "app/routes/store/payment.tsx",
    path: () => "/payment",
    as: "customer",
    encoding: "multipart",
    prepare: "payment",
    fields: { submissionKey: (ctx) => [ctx.submissionKey], js: ["1"], intent: ["pay", "later", "other"] },
    files: ["receipt"],
  },
  {
    name: "account: change password",
    module: "app/routes/store/account.tsx",
    path: () => "/account",
    as: "customer",
    encoding: "urlencoded",
    fields: { current: PASSWORDS, password: PASSWORDS, confirm: PASSWORDS },
  },
  {
    name: "account: replace receipt",
    module: "app/routes/store/account-order.tsx",
    path: (ctx) => `/account/orders/${ctx.orderId}`,
    as: "customer",
    encoding: "multipart",
    prepare: "rejected-receipt",
    fields: {},
    files: ["receipt"],
  },
  {
    name: "logout",
    module: "app/routes/store/logout.ts",
    path: () => "/logout",
    as: "anon",
    encoding: "urlencoded",
    fields: { to: ["/admin/login", "/"] },
  },
  // ---- admin ----
  {
    name: "admin: login / setup",
    module: "app/routes/admin/login.tsx",
    path: () => "/admin/login",
    as: "anon",
    encoding: "urlencoded",
    fields: { intent: ["login", "setup"], email: EMAILS, password: PASSWORDS, token: ["reliability-setup-token"] },
  },
  {
    name: "admin: grant admin",
    module: "app/routes/admin/dashboard.tsx",
    path: () => "/admin",
    as: "admin",
    encoding: "urlencoded",
    fields: { email: ["nobody-here@example.com"] },
  },
  {
    name: "admin: new product",
    module: "app/routes/admin/product-form.tsx",
    path: () => "/admin/products/new",
    as: "admin",
    encoding: "multipart",
    fields: productFields,
    files: ["newImages"],
  },
  {
    name: "admin: edit product",
    module: "app/routes/admin/product-form.tsx",
    path: (ctx) => `/admin/products/edit/${ctx.adminProductId}`,
    as: "admin",
    encoding: "multipart",
    fields: productFields,
    files: ["newImages"],
  },
  {
    name: "admin: product CSV import",
    module: "app/routes/admin/products-import.tsx",
    path: () => "/admin/products/import",
    as: "admin",
    encoding: "multipart",
    fields: { intent: ["preview", "confirm"], token: ["", "x", "mho1x2y3-00000000-0000-0000-0000-000000000000"] },
    files: ["file"],
  },
  {
    name: "admin: product list (category, delete)",
    module: "app/routes/admin/products.tsx",
    path: () => "/admin/products",
    as: "admin",
    encoding: "urlencoded",
    fields: {
      intent: ["category", "delete"],
      productId: id((ctx) => ctx.adminProductId),
      categoryId: id((ctx) => ctx.categoryId),
      returnTo: ["/admin/products", "/admin/products?page=2", "//evil.example"],
    },
  },
  {
    name: "admin: categories",
    module: "app/routes/admin/categories.tsx",
    path: () => "/admin/categories",
    as: "admin",
    encoding: "multipart",
    fields: {
      intent: ["create", "update", "delete"],
      id: id((ctx) => ctx.categoryId),
      confirmed: ["", "1"],
      ...categoryFields,
    },
    files: ["image"],
  },
  {
    name: "admin: brands",
    module: "app/routes/admin/brands.tsx",
    path: () => "/admin/brands",
    as: "admin",
    encoding: "urlencoded",
    fields: {
      intent: ["create", "update", "delete", "other"],
      id: ["1", "999999", "x", ""],
      confirmed: ["", "1"],
      name: ["Fuzz Arms", "", "x".repeat(101), "<script>alert(1)</script>"],
      name_zh: ["", "模糊"],
      slug: ["", "fuzz-arms", "Fuzz Arms!", "!!!"],
      sort_order: ["0", "5", "-3", "1.5", "x"],
    },
  },
  {
    name: "admin: order transitions",
    module: "app/routes/admin/order.tsx",
    path: (ctx) => `/admin/orders/${ctx.transitionOrderId}`,
    as: "admin",
    encoding: "urlencoded",
    fields: {
      intent: ["markPaid", "markShipped", "markDelivered", "rejectReceipt", "cancel", "extendDeadline"],
      expected: ORDER_STATUSES,
      tracking: ["", "SF1234567890"],
      reason: ["The receipt is unreadable"],
      hours: ["24", "168", "0", "721", "abc"],
      expectedDueAt: ["", "2026-01-01T00:00:00.000Z"],
      returnTo: ["/admin/orders", "/admin/orders?status=paid", "//evil.example"],
      confirmed: ["1"],
    },
  },
  {
    name: "admin: refund (order page)",
    module: "app/routes/admin/order.tsx",
    path: (ctx) => `/admin/orders/${ctx.transitionOrderId}`,
    as: "admin",
    encoding: "urlencoded",
    fields: {
      intent: ["refund"],
      expectedRefunded: ["0", "100", "-1", "x"],
      amount: ["1.00", "0.01", "0", "-5", "12.345", "99999999", "abc"],
      reason: ["Damaged in transit", "", "x".repeat(501)],
      "restock[0].line": ["1", "999999", "x"],
      "restock[0].quantity": ["0", "1", "-1", "100000", "1.5"],
    },
  },
  {
    name: "admin: staff note on an order",
    module: "app/routes/admin/order.tsx",
    path: (ctx) => `/admin/orders/${ctx.transitionOrderId}`,
    as: "admin",
    encoding: "urlencoded",
    fields: {
      intent: ["addNote"],
      body: [
        "Called the customer: ships Monday",
        "",
        "   ",
        "x".repeat(2001),
        "<script>alert(1)</script>",
        "客人要求週一寄出",
      ],
    },
  },
  {
    name: "admin: mark several orders shipped (bulk shipping)",
    module: "app/routes/admin/orders-ship.tsx",
    path: (ctx) => `/admin/orders/ship?id=${ctx.transitionOrderId}`,
    as: "admin",
    encoding: "urlencoded",
    fields: {
      "orders[0].id": (ctx) => [ctx.transitionOrderId, "00000000-0000-0000-0000-000000000000", "x"],
      "orders[0].expected": ORDER_STATUSES,
      "orders[0].carrier": ["SF Express", "", "x".repeat(61), "<script>alert(1)</script>"],
      "orders[0].tracking": ["SF1234567890", "", "x".repeat(101)],
      "orders[1].id": (ctx) => [ctx.transitionOrderId, ctx.orderId],
      "orders[1].expected": ["paid", "processing"],
      "orders[1].tracking": ["HK123", ""],
    },
  },
  {
    name: "admin: receipt review queue (mark paid, reject from the list)",
    module: "app/routes/admin/orders.tsx",
    path: () => "/admin/orders?status=review",
    as: "admin",
    encoding: "urlencoded",
    fields: {
      intent: ["markPaid", "rejectReceipt"],
      orderId: id((ctx) => ctx.transitionOrderId),
      expected: ORDER_STATUSES,
      reason: ["The amount does not match", ""],
    },
  },
  {
    name: "admin: messages (how long sent messages are kept)",
    module: "app/routes/admin/messages.tsx",
    path: () => "/admin/messages",
    as: "admin",
    encoding: "urlencoded",
    fields: { intent: ["retention"], days: ["90", "1", "3650", "0", "3651", "1.5", "-7", "abc", ""] },
  },
  {
    name: "admin: send a message again",
    module: "app/routes/admin/message.tsx",
    path: (ctx) => `/admin/messages/${ctx.messageId}`,
    as: "admin",
    encoding: "urlencoded",
    fields: {
      intent: ["resend"],
      expected: ["failed", "pending", "sent", "sending"],
      returnTo: ["/admin/messages?status=failed", "/admin/orders/x", "//evil.example", "javascript:alert(1)"],
    },
  },
  {
    name: "admin: customer block",
    module: "app/routes/admin/customer.tsx",
    path: (ctx) => `/admin/customers/${ctx.victimId}`,
    as: "admin",
    encoding: "urlencoded",
    fields: { intent: ["block", "unblock"] },
  },
  {
    name: "admin: blog list (delete)",
    module: "app/routes/admin/blog.tsx",
    path: () => "/admin/blog",
    as: "admin",
    encoding: "urlencoded",
    fields: { intent: ["delete"], id: id((ctx) => ctx.blogPostId), confirmed: ["", "1"] },
  },
  {
    name: "admin: new blog post",
    module: "app/routes/admin/blog-form.tsx",
    path: () => "/admin/blog/new",
    as: "admin",
    encoding: "multipart",
    fields: blogFields,
    files: ["image"],
  },
  {
    name: "admin: edit blog post",
    module: "app/routes/admin/blog-form.tsx",
    path: (ctx) => `/admin/blog/edit/${ctx.blogPostId}`,
    as: "admin",
    encoding: "multipart",
    fields: blogFields,
    files: ["image"],
  },
  {
    name: "admin: settings (bank accounts, hero)",
    module: "app/routes/admin/settings.tsx",
    path: () => "/admin/settings",
    as: "admin",
    encoding: "multipart",
    fields: {
      intent: ["create", "update", "delete", "make_primary", "hero", "hero_reset"],
      id: id((ctx) => ctx.bankAccountId),
      confirmed: ["", "1"],
      ...bankFields,
    },
    files: ["hero"],
  },
  {
    // An id no admin has: the fuzzer must never remove or re-role the shop's own admins.
    name: "admin: staff (add, resend, remove, role)",
    module: "app/routes/admin/staff.tsx",
    path: () => "/admin/staff",
    as: "admin",
    encoding: "urlencoded",
    fields: {
      intent: ["add", "resend", "remove", "role"],
      email: ["fuzz-staff@example.com", "FUZZ-STAFF@example.com"],
      language: ["en", "zh", "fr"],
      id: ["999999"],
      role: ["owner", "staff"],
      confirmed: ["", "1"],
    },
  },
  {
    name: "admin: shop details",
    module: "app/routes/admin/shop-details.tsx",
    path: () => "/admin/settings/shop",
    as: "admin",
    encoding: "multipart",
    fields: {
      name_en: ["Lion Rock Airsoft", ""],
      name_zh: ["獅子山氣槍"],
      address_en: ["", "1 Nathan Road"],
      address_zh: ["", "彌敦道1號"],
      support_email: ["help@example.com", "not an e-mail"],
      sender_email: ["orders@example.com"],
      supported_by_en: ["", "League"],
      supported_by_zh: ["", "聯盟"],
      supported_by_url: ["", "https://league.example/", "javascript:alert(1)"],
      hero_title_en: ["", "Kit for the field", "x".repeat(121)],
      hero_text_zh: ["", "<script>alert(1)</script>"],
      footer_text_en: ["", "Open Saturdays.\nClosed Sundays."],
      supported_by_logo_remove: ["", "on"],
      fee_hkd: ["10", "0", "1.234"],
      free_above_hkd: ["", "100"],
      fee_gbp: ["4.50"],
      free_above_gbp: ["", "50"],
      fee_eur: ["5"],
      free_above_eur: [""],
      fee_usd: ["6"],
      free_above_usd: ["80"],
      shipping_from_hkd_gbp: ["", "on"],
      shipping_from_hkd_eur: ["on"],
      shipping_from_hkd_usd: ["", "off"],
      rate_gbp: ["0.1", "0", "11", "0.1234567"],
      rate_eur: ["0.118"],
      rate_usd: ["0.128"],
      alert_emails: ["", "owner@example.com\ndesk@example.com", "not an e-mail", "a@b.c, <script>@x.y"],
      alert_order_placed: ["", "on"],
      alert_receipt_uploaded: ["on"],
      alert_order_expired: ["", "on"],
      alert_deadline_extended: ["on", "off"],
      alert_message_failed: [""],
      alert_language: ["en", "zh", "fr"],
    },
    files: ["supported_by_logo"],
  },
  {
    name: "admin: policy page",
    module: "app/routes/admin/content-page-form.tsx",
    path: () => "/admin/settings/pages/shipping",
    as: "admin",
    encoding: "urlencoded",
    fields: {
      intent: ["save", "reset"],
      confirmed: ["", "1"],
      title_en: ["Delivery", ""],
      description_en: ["", "How we deliver"],
      body_en: ["## Couriers\n\nSF Express {{shipping_fee}}", "<script>alert(1)</script>"],
      title_zh: ["送貨"],
      description_zh: [""],
      body_zh: ["順豐", ""],
    },
  },
  {
    name: "admin: search synonyms",
    module: "app/routes/admin/search-synonyms.tsx",
    path: () => "/admin/settings/search",
    as: "admin",
    encoding: "urlencoded",
    fields: {
      intent: ["save", "reset"],
      confirmed: ["", "1"],
      synonyms: [
        "長槍, 步槍, rifle\n電槍 / AEG",
        "",
        "x",
        "rifle, 長槍\nRIFLE, 步槍",
        '"50%", a_b\n<script>, </textarea>',
      ],
    },
  },
  {
    name: "admin: discount code (add)",
    module: "app/routes/admin/discount-form.tsx",
    path: () => "/admin/discounts/new",
    as: "admin",
    encoding: "urlencoded",
    fields: {
      code: ["FUZZ10", "fuzz-10", "", "x", "折扣碼"],
      kind: ["percent", "fixed", "free_shipping", "other"],
      percent: ["10", "12.5", "0", "101", "abc"],
      amount_hkd: ["50", "12.50", "", "-1"],
      amount_gbp: ["", "5"],
      free_shipping: ["on", ""],
      min_hkd: ["", "300", "1e3"],
      starts_at: ["", "2026-11-11T00:00", "yesterday"],
      ends_at: ["", "2026-11-12T00:00", "2026-11-10T00:00"],
      max_uses: ["", "10", "0"],
      max_uses_per_customer: ["", "1"],
      applies_to: ["all", "chosen"],
      "categories[]": (ctx) => [String(ctx.categoryId), "999999"],
      products: ["", "1, 2", "x", "999999"],
      active: ["on", ""],
    },
  },
  {
    name: "admin: discount codes (activate, deactivate, delete)",
    module: "app/routes/admin/discounts.tsx",
    path: () => "/admin/discounts",
    as: "admin",
    encoding: "urlencoded",
    fields: { intent: ["activate", "deactivate", "delete", "other"], id: ["1", "999999", "x"] },
  },
  {
    name: "admin: age confirmation text",
    module: "app/routes/admin/age-text.tsx",
    path: () => "/admin/settings/age",
    as: "admin",
    encoding: "urlencoded",
    fields: {
      text_en: ["I am 18 or older.", "", "x".repeat(501), "<script>alert(1)</script>"],
      text_zh: ["本人已年滿18歲。", "", "偽".repeat(501)],
    },
  },
  {
    name: "admin: shopping feeds",
    module: "app/routes/admin/shopping-feeds.tsx",
    path: () => "/admin/settings/feeds",
    as: "admin",
    encoding: "urlencoded",
    fields: { "feeds[]": ["en-HKD", "zh-USD", "", "en-JPY", "<script>alert(1)</script>"] },
  },
  {
    name: "admin: shipping zone (add)",
    module: "app/routes/admin/shipping-zone.tsx",
    path: () => "/admin/settings/shipping/new",
    as: "admin",
    encoding: "urlencoded",
    fields: {
      name_en: ["Macau", "", "x".repeat(81), "<script>alert(1)</script>"],
      name_zh: ["澳門", ""],
      sort_order: ["1", "", "-1", "99999"],
      "countries[]": ["MO", "mo", "XX", "", "TW"],
      fee_hkd: ["35", "", "-1", "1e3", "35.555"],
      free_above_hkd: ["500", "", "abc"],
      "bands_hkd[0].max_grams": ["1000", "0", "1.5", ""],
      "bands_hkd[0].fee": ["20", "", "x"],
      fee_gbp: ["", "3.50"],
      free_above_gbp: ["", "40"],
    },
  },
  {
    name: "admin: shipping zones (delete)",
    module: "app/routes/admin/shipping-zones.tsx",
    path: () => "/admin/settings/shipping",
    as: "admin",
    encoding: "urlencoded",
    fields: {
      intent: ["delete", "nothing"],
      id: ["999999", "abc", ""],
      confirmed: ["1", ""],
    },
  },
  // Webhooks: only addresses where nothing answers (loopback port 9) or that are refused, so the
  // fuzzing shop never sends anything anywhere, whatever the switch is set to.
  {
    name: "admin: webhooks (add, private addresses)",
    module: "app/routes/admin/webhooks.tsx",
    path: () => "/admin/settings/webhooks",
    as: "admin",
    encoding: "urlencoded",
    fields: { intent: ["create", "network"], ...webhookFields, allow_private: ["on", "", "off"] },
  },
  {
    name: "admin: a webhook (edit, secret, test, send again, remove)",
    module: "app/routes/admin/webhook.tsx",
    path: (ctx) => `/admin/settings/webhooks/${ctx.webhookId}`,
    as: "admin",
    encoding: "urlencoded",
    fields: {
      intent: ["update", "secret", "test", "resend", "delete"],
      ...webhookFields,
      confirmed: ["", "1"],
      message: (ctx) => [ctx.webhookDeliveryId, "00000000-0000-0000-0000-000000000000", "../x"],
    },
  },
];

/** GET forms and resource routes that read query strings. */
export const QUERIES: readonly { name: string; path: string; param: string; extra?: Record<string, string[]> }[] = [
  { name: "search resource", path: "/resources/search", param: "q" },
  { name: "search page", path: "/search", param: "q", extra: { page: ["1", "2", "-1", "abc"], brand: ["g-g", "x"] } },
  {
    name: "category filters",
    path: "/category/rifles",
    param: "sort",
    extra: { price: ["0-500", "500-", "x"], page: ["1", "999999999999"], brand: ["tokyo-marui", "", "%00", "x"] },
  },
  { name: "admin products list", path: "/admin/products", param: "q", extra: { category: ["1", "x"], page: ["2"] } },
  {
    name: "admin orders list",
    path: "/admin/orders",
    param: "q",
    extra: {
      status: ["paid", "review", "overdue", "x"],
      page: ["0"],
      from: ["2026-11-01", "2026-02-31", "x"],
      to: ["2026-11-30", "99999-01-01"],
    },
  },
  // The orders chosen for bulk shipping (none or garbage: back to the list with a message).
  { name: "admin bulk shipping", path: "/admin/orders/ship", param: "id" },
  { name: "admin customers list", path: "/admin/customers", param: "q", extra: { page: ["-5"] } },
  {
    name: "admin messages list",
    path: "/admin/messages",
    param: "q",
    extra: {
      status: ["failed", "waiting", "sent", "x"],
      channel: ["email", "webhook", "fax"],
      older: ["2026-01-01T00:00:00.000Z~abc", "garbage"],
      newer: ["2026-01-01T00:00:00.000Z~abc"],
    },
  },
];

/** Fields no form owns: sent along with valid submissions, they must change nothing. */
export const FOREIGN_FIELDS: Record<string, string> = {
  status: "delivered",
  total: "1",
  total_cents: "1",
  subtotal_cents: "1",
  price: "0.01",
  price_cents: "1",
  unit_price_cents: "1",
  user_id: "someone-else",
  userId: "someone-else",
  role: "admin",
  is_admin: "1",
  isAdmin: "true",
  stock: "-5",
  id: "1",
};

import { index, layout, prefix, type RouteConfig, route } from "@react-router/dev/routes";

export default [
  layout("routes/store/layout.tsx", [
    index("routes/store/home.tsx"),
    ...["shipping", "returns", "faq", "contact", "privacy", "terms"].map((page) =>
      route(page, "routes/store/content-page.tsx", { id: `content-${page}` }),
    ),
    route("category/:slug", "routes/store/category.tsx"),
    route("product/:id", "routes/store/product.tsx"),
    route("search", "routes/store/search.tsx"),
    route("cart", "routes/store/cart.tsx"),
    route("checkout", "routes/store/checkout.tsx"),
    route("payment", "routes/store/payment.tsx"),
    route("payment-success", "routes/store/payment-success.tsx"),
    route("account/orders", "routes/store/account-orders.tsx"),
    route("account/orders/:id", "routes/store/account-order.tsx"),
    route("blog", "routes/store/blog.tsx"),
    route("blog/:id", "routes/store/blog-post.tsx"),
    route("login", "routes/store/login.tsx"),
    route("forgot-password", "routes/store/forgot-password.tsx"),
    route("reset-password", "routes/store/reset-password.tsx"),
    route("verify-email", "routes/store/verify-email.tsx"),
    route("account", "routes/store/account.tsx"),
    route("*", "routes/store/not-found.tsx"),
  ]),
  route("logout", "routes/store/logout.ts"),
  route("sitemap.xml", "routes/resources/sitemap.ts"),
  route("robots.txt", "routes/resources/robots.ts"),
  route("resources/search", "routes/resources/search.ts"),
  route("account/orders/:id/receipt", "routes/resources/receipt.ts"),
  route("admin/login", "routes/admin/login.tsx"),
  ...prefix("admin", [
    layout("routes/admin/layout.tsx", [
      index("routes/admin/dashboard.tsx"),
      route("products", "routes/admin/products.tsx"),
      route("categories", "routes/admin/categories.tsx"),
      route("products/new", "routes/admin/product-form.tsx", { id: "admin-product-new" }),
      route("products/edit/:id", "routes/admin/product-form.tsx", { id: "admin-product-edit" }),
      route("*", "routes/admin/not-found.tsx"),
    ]),
  ]),
  ...prefix("resources", [
    route("language", "routes/resources/language.ts"),
    route("currency", "routes/resources/currency.ts"),
  ]),
] satisfies RouteConfig;

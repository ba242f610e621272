import { index, layout, prefix, type RouteConfig, route } from "@react-router/dev/routes";

export default [
  layout("routes/store/layout.tsx", [
    index("routes/store/home.tsx"),
    ...["shipping", "returns", "faq", "contact", "privacy", "terms"].map((page) =>
      route(page, "routes/store/content-page.tsx", { id: `content-${page}` }),
    ),
    route("*", "routes/store/not-found.tsx"),
  ]),
  ...prefix("resources", [
    route("language", "routes/resources/language.ts"),
    route("currency", "routes/resources/currency.ts"),
  ]),
] satisfies RouteConfig;

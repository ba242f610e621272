import { createInstance } from "i18next";
import { type ComponentType, createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { I18nextInstanceProvider as I18nextProvider } from "~/lib/i18n";
import resources, { type Language } from "~/locales";

/**
 * The server HTML of one route's page, as React renders it: `Component` at `url` (its route
 * `pattern`, e.g. "/admin/orders/:id", when it has parameters) with the loader's data (from
 * `runRoute`) and, when given, the action's answer, in `language`.
 */
export async function renderPage({
  url,
  pattern,
  Component,
  loaderData,
  actionData,
  language = "en",
}: {
  url: string;
  pattern?: string;
  Component: unknown;
  loaderData: unknown;
  actionData?: unknown;
  language?: Language;
}): Promise<string> {
  const i18n = createInstance();
  await i18n.init({ resources, lng: language, interpolation: { escapeValue: false } });
  const path = pattern ?? url.split("?")[0];
  const Stub = createRoutesStub([{ id: "page", path, Component: Component as ComponentType }]);
  return renderToString(
    createElement(
      I18nextProvider,
      { i18n },
      createElement(Stub, {
        initialEntries: [url],
        hydrationData: {
          loaderData: { page: loaderData },
          ...(actionData === undefined ? {} : { actionData: { page: actionData } }),
        },
      }),
    ),
  );
}

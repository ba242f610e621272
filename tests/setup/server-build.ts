import type { ServerBuild } from "react-router";

/**
 * A React Router server build made by hand, for tests that run React Router's own request
 * handler over a few routes of their own (error pages, outages) without building the app.
 */
export interface TestRoute {
  id: string;
  parentId?: string;
  path: string;
  /** The route module as the framework's build hands it over. */
  module: Record<string, unknown>;
  hasErrorBoundary?: boolean;
}

export function testServerBuild(entryModule: Record<string, unknown>, routes: TestRoute[]): ServerBuild {
  const manifest = Object.fromEntries(
    routes.map((route) => [
      route.id,
      {
        id: route.id,
        parentId: route.parentId,
        path: route.path,
        module: `/${route.id}.js`,
        hasAction: "action" in route.module,
        hasLoader: "loader" in route.module,
        hasClientAction: false,
        hasClientLoader: false,
        hasClientMiddleware: false,
        hasErrorBoundary: route.hasErrorBoundary ?? "ErrorBoundary" in route.module,
        imports: [],
        css: [],
      },
    ]),
  );
  return {
    entry: { module: entryModule },
    routes: Object.fromEntries(
      routes.map((route) => [
        route.id,
        {
          id: route.id,
          parentId: route.parentId,
          path: route.path,
          index: undefined,
          caseSensitive: undefined,
          module: route.module,
        },
      ]),
    ),
    assets: {
      entry: { module: "/entry.client.js", imports: [] },
      routes: manifest,
      url: "/manifest.js",
      version: "test",
    },
    publicPath: "/",
    assetsBuildDirectory: "build/client",
    future: {},
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: "initial", manifestPath: "/__manifest" },
  } as unknown as ServerBuild;
}

import { useRouteLoaderData } from "react-router";
import type { loader } from "~/root";

export type RootData = Awaited<ReturnType<typeof loader>>["data"];

/** The root loader's data (language, currency, flash, navigation) from any component. */
export function useRootData(): RootData | undefined {
  return useRouteLoaderData<typeof loader>("root") as RootData | undefined;
}

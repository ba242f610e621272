import { useEffect, useState } from "react";

/** False in the server HTML and until the browser has run React: for JavaScript-only extras. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

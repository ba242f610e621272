import { FETCHER_FIELD } from "~/lib/fetcher";
import { useHydrated } from "~/lib/use-hydrated";

/**
 * Marks a form as sent by a fetcher once the page runs JavaScript, so its action answers with
 * data; without JavaScript the field is absent and the action redirects (formAction's `succeed`).
 */
export function FetcherField() {
  const hydrated = useHydrated();
  return hydrated ? <input type="hidden" name={FETCHER_FIELD} value="1" /> : null;
}

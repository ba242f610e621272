import { useLocation } from "react-router";

/**
 * Links to this page with one number in the query changed (a page of a list, an image of a
 * gallery), the other parameters (filters, sort, search) kept. At its `omitted` value the
 * parameter is left out, so the first page has one address.
 */
export function useParamHref(name: string, omitted: number): (value: number) => string {
  const location = useLocation();
  return (value) => {
    const params = new URLSearchParams(location.search);
    if (value === omitted) params.delete(name);
    else params.set(name, String(value));
    const query = params.toString();
    return `${location.pathname}${query ? `?${query}` : ""}`;
  };
}

/**
 * The one signal that a form was sent by a fetcher (JavaScript) and wants data back instead of a
 * redirect: a hidden field the page renders only once hydrated (`<FetcherField />`).
 */
export const FETCHER_FIELD = "_fetcher";

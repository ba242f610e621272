import type { Resource } from "i18next";
import en from "./en";
import zh from "./zh";

export { HTML_LANG, isLanguage, LANGUAGES, type Language } from "./languages";

export default { en, zh } satisfies Resource;

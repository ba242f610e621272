import { z } from "zod";
import { fieldMessage } from "~/lib/problem";

/**
 * The search synonyms form (Settings → Search synonyms), shared by the server and the browser:
 * one group of words a line, the words separated by commas or slashes (ASCII or full-width, and
 * the Chinese enumeration comma 、). A shopper's search for any word of a group finds what any
 * word of it finds (docs/decisions/043).
 */

export const SYNONYM_LIMITS = {
  /** Groups in the list. */
  groups: 100,
  /** Words in one group. */
  terms: 10,
  /** Characters of a word: search needs 2 to start. */
  termMin: 2,
  termMax: 40,
  /** Characters of the whole text (100 groups of 10 words of 40 characters would be more). */
  text: 20_000,
} as const;

/** Messages shown at the field at once; more would bury the first. */
const MAX_MESSAGES = 5;

const SEPARATORS = /[,，、/／]/;

/**
 * A word as search compares it: control characters as spaces (as the search box's term),
 * spaces collapsed, trimmed.
 */
export function normalizeTerm(term: string): string {
  return term
    .replace(/\p{Cc}/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** The key two words are the same by: full-width letters as ASCII, case ignored. */
export function termKey(term: string): string {
  return normalizeTerm(term).normalize("NFKC").toLowerCase();
}

export interface SynonymIssue {
  key: string;
  params: Record<string, string | number>;
}

/**
 * The groups of the owner's text, or what is wrong with it (each issue a translation key with
 * the line it is about). Blank lines are skipped; a word repeated in its own group counts once.
 */
export function parseSynonymGroups(text: string): { groups: string[][]; issues: SynonymIssue[] } {
  const groups: string[][] = [];
  const issues: SynonymIssue[] = [];
  const firstLine = new Map<string, number>();
  const lines = text.split(/\r\n|\r|\n/);
  lines.forEach((raw, index) => {
    const line = index + 1;
    if (!raw.trim()) return;
    const group: string[] = [];
    const keys = new Set<string>();
    for (const piece of raw.split(SEPARATORS)) {
      const term = normalizeTerm(piece);
      if (!term) continue;
      const length = [...term].length;
      if (length < SYNONYM_LIMITS.termMin) {
        issues.push({ key: "adminSearch.errors.termTooShort", params: { line, term, min: SYNONYM_LIMITS.termMin } });
        continue;
      }
      if (length > SYNONYM_LIMITS.termMax) {
        issues.push({ key: "adminSearch.errors.termTooLong", params: { line, max: SYNONYM_LIMITS.termMax } });
        continue;
      }
      const key = termKey(term);
      if (keys.has(key)) continue;
      const earlier = firstLine.get(key);
      if (earlier !== undefined) {
        issues.push({ key: "adminSearch.errors.termRepeated", params: { line, term, first: earlier } });
        continue;
      }
      keys.add(key);
      group.push(term);
    }
    if (group.length > SYNONYM_LIMITS.terms) {
      issues.push({ key: "adminSearch.errors.tooManyTerms", params: { line, max: SYNONYM_LIMITS.terms } });
    } else if (group.length === 1 && !issues.some((issue) => issue.params.line === line)) {
      issues.push({ key: "adminSearch.errors.oneTerm", params: { line } });
    }
    for (const key of keys) firstLine.set(key, line);
    groups.push(group);
  });
  if (groups.length > SYNONYM_LIMITS.groups) {
    issues.unshift({ key: "adminSearch.errors.tooManyGroups", params: { max: SYNONYM_LIMITS.groups } });
  }
  return { groups: groups.filter((group) => group.length >= 2), issues };
}

/** The groups as the form shows them: one a line, the words separated by ", ". */
export function formatSynonymGroups(groups: readonly (readonly string[])[]): string {
  return groups.map((group) => group.join(", ")).join("\n");
}

export const searchSynonymsSchema = z
  .object({
    intent: z.literal("save"),
    synonyms: z
      .string()
      .max(SYNONYM_LIMITS.text, { error: fieldMessage("adminSearch.errors.textTooLong", { max: SYNONYM_LIMITS.text }) })
      .optional()
      .transform((value) => value ?? ""),
  })
  .superRefine((value, ctx) => {
    const { issues } = parseSynonymGroups(value.synonyms);
    for (const issue of issues.slice(0, MAX_MESSAGES)) {
      ctx.addIssue({ code: "custom", path: ["synonyms"], message: fieldMessage(issue.key, issue.params) });
    }
    if (issues.length > MAX_MESSAGES) {
      ctx.addIssue({
        code: "custom",
        path: ["synonyms"],
        message: fieldMessage("adminSearch.errors.more", { count: issues.length - MAX_MESSAGES }),
      });
    }
  });

export const searchSynonymsResetSchema = z.object({
  intent: z.literal("reset"),
  // "1" once the owner has confirmed (the browser's confirm() or the confirmation step).
  confirmed: z.string().optional(),
});

export const searchSynonymsActionSchema = z.discriminatedUnion("intent", [
  searchSynonymsSchema,
  searchSynonymsResetSchema,
]);

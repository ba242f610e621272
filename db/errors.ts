/**
 * What a failed statement means, the same on both databases: better-sqlite3 reports extended
 * result codes (SQLITE_CONSTRAINT_UNIQUE…), pg reports SQLSTATE codes (23505…).
 */

function codeOf(error: unknown): string {
  return typeof error === "object" && error !== null && typeof (error as { code?: unknown }).code === "string"
    ? (error as { code: string }).code
    : "";
}

/** A unique index or primary key refused the row. */
export function isUniqueViolation(error: unknown): boolean {
  const code = codeOf(error);
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "23505";
}

/** A foreign key refused the row (or the delete of a row others point at). */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = codeOf(error);
  return code === "SQLITE_CONSTRAINT_FOREIGNKEY" || code === "23503";
}

/**
 * A refusal the user can act on: a translation key (rendered in the reader's language), its
 * parameters, and the field it belongs to when it belongs to one. The one shape every model,
 * action and page uses for "no, because…".
 */
export interface Problem {
  key: string;
  params?: Record<string, string | number>;
  /** The form field the message is shown next to; without it, it is a message for the whole form. */
  field?: string;
  /** A second, explanatory line under the message. */
  detailKey?: string;
}

/**
 * What a body refused before it was read is called on a page: a form with an upload says "the
 * image is too large" in its own words, and may put it next to its file field. Unset, the
 * shop-wide messages `error.bodyTooLarge` and `error.badRequest` are used.
 */
export interface UnreadBodyProblems {
  /** The body is over the byte limit (answered with 413). */
  tooLarge?: Problem;
  /** The body is not a form at all: JSON, garbage, cut short (answered with 400). */
  notAForm?: Problem;
}

/**
 * The one user-facing error: models throw it when a rule refuses (out of stock, already paid,
 * image too large…); `formAction` turns it into a 4xx answer carrying the user's input.
 * Anything else thrown is a bug and stays a 500.
 */
export class UserError extends Error {
  readonly problem: Problem;
  readonly status: number;

  constructor(key: string, options: Omit<Problem, "key"> & { status?: number } = {}) {
    super(key);
    this.name = "UserError";
    const { status = 400, ...rest } = options;
    this.status = status;
    this.problem = { key, ...rest };
  }

  /** The problem's key and parameters, read straight off the error (`error.key`). */
  get key(): string {
    return this.problem.key;
  }

  get params(): Record<string, string | number> {
    return this.problem.params ?? {};
  }
}

/**
 * A field's error message with parameters, as the one string Conform carries for it:
 * `key?name=value&…` ("adminSearch.errors.termTooLong?line=3&max=40"). `ErrorList` reads it back
 * with `readFieldMessage` and translates the key with its parameters. A key alone is a message
 * without parameters.
 */
export function fieldMessage(key: string, params: Record<string, string | number>): string {
  const query = new URLSearchParams(Object.entries(params).map(([name, value]) => [name, String(value)])).toString();
  return query ? `${key}?${query}` : key;
}

/**
 * The key and parameters of a field error message (see `fieldMessage`). Parameters come back as
 * text, but `count`, which chooses a plural form, as a number.
 */
export function readFieldMessage(message: string): { key: string; params?: Record<string, string | number> } {
  const at = message.indexOf("?");
  if (at < 0) return { key: message };
  const params: Record<string, string | number> = Object.fromEntries(new URLSearchParams(message.slice(at + 1)));
  if (typeof params.count === "string" && /^\d+$/.test(params.count)) params.count = Number(params.count);
  return { key: message.slice(0, at), params };
}

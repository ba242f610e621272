import { type ParseArgsOptionsConfig, parseArgs } from "node:util";

/**
 * A command line the command cannot read: bin/shop.mjs prints the message (one line: what is
 * wrong, then the usage) and exits with status 2, the usual code for a usage error.
 */
export class UsageError extends Error {
  readonly exitCode = 2;
  constructor(problem: string, usage: string) {
    super(`${problem}. Usage: ${usage}`);
    this.name = "UsageError";
  }
}

export interface CommandLine<O extends ParseArgsOptionsConfig> {
  /** How the command is typed, shown after every refusal. */
  usage: string;
  options: O;
  /** How many plain arguments (not options) the command takes; none unless given. */
  positionals?: { min: number; max: number };
}

function optionName(message: string): string {
  return /'(--?[^' ]+)/.exec(message)?.[1] ?? "an option";
}

/** Node's parse error, as one line a person can act on. */
function problemOf(error: { code?: string; message: string }): string {
  const first = error.message.split("\n")[0] ?? error.message;
  switch (error.code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION":
      return `Unknown option ${optionName(first)}`;
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE": {
      const name = optionName(first);
      return /ambiguous/.test(first)
        ? `${name} needs a value, not another option (a value that starts with "-" is written ${name}=-…)`
        : `${name} needs a value`;
    }
    case "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":
      return first.replace(/\. This command does not take positional arguments$/, "");
    default:
      return first.replace(/\.$/, "");
  }
}

function readArgs<const O extends ParseArgsOptionsConfig>(
  args: string[],
  options: O,
  allowPositionals: boolean,
  usage: string,
) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals, tokens: true });
  } catch (error) {
    const known = error as { code?: string; message: string };
    if (typeof known.code === "string" && known.code.startsWith("ERR_PARSE_ARGS")) {
      throw new UsageError(problemOf(known), usage);
    }
    throw error;
  }
}

/**
 * Reads a command's arguments strictly (node:util parseArgs): an unknown option, an option
 * without its value (`--password --x` is not an empty password), an option given twice or a
 * stray argument is refused with a UsageError instead of being guessed at.
 */
export function parseCommandLine<const O extends ParseArgsOptionsConfig>(args: string[], spec: CommandLine<O>) {
  const { min, max } = spec.positionals ?? { min: 0, max: 0 };
  const parsed = readArgs(args, spec.options, max > 0, spec.usage);
  const seen = new Set<string>();
  for (const token of parsed.tokens) {
    if (token.kind !== "option") continue;
    if (seen.has(token.name) && !spec.options[token.name]?.multiple) {
      throw new UsageError(`--${token.name} is given twice`, spec.usage);
    }
    seen.add(token.name);
  }
  if (parsed.positionals.length > max) {
    throw new UsageError(`Unexpected argument '${parsed.positionals[max]}'`, spec.usage);
  }
  if (parsed.positionals.length < min) throw new UsageError("An argument is missing", spec.usage);
  return { values: parsed.values, positionals: parsed.positionals };
}

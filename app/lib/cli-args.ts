/** `--email a@b.c --password x` (or `--email=a@b.c`) into { email, password }. */
export function parseFlags(args: string[]): Record<string, string> {
  const flags: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? "";
    if (!arg.startsWith("--")) continue;
    const eq = arg.indexOf("=");
    if (eq > 0) flags[arg.slice(2, eq)] = arg.slice(eq + 1);
    else if (i + 1 < args.length && !(args[i + 1] ?? "").startsWith("--")) flags[arg.slice(2)] = args[++i] ?? "";
    else flags[arg.slice(2)] = "";
  }
  return flags;
}

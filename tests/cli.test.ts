import { describe, expect, it } from "vitest";
import { parseCommandLine, UsageError } from "~/lib/cli-args";
import { commands, startMessages } from "../server/app";

/**
 * The command line (bin/shop.mjs → server/app.ts commands): arguments are read strictly, and a
 * command line that cannot be read is refused with one line naming the problem and the usage
 * (bin/shop.mjs exits with 2 for a UsageError).
 */

const ADMIN = {
  usage: "npm run admin:create -- --email you@example.com --password 'a long password'",
  options: { email: { type: "string" }, password: { type: "string" } },
} as const;

/** The UsageError `run` throws. */
function refusal(run: () => unknown): UsageError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return error as UsageError;
  }
  throw new Error("not refused");
}

describe("parseCommandLine", () => {
  it("reads --flag value and --flag=value", () => {
    expect(parseCommandLine(["--email", "a@b.c", "--password=x y"], ADMIN).values).toEqual({
      email: "a@b.c",
      password: "x y",
    });
    expect(parseCommandLine(["--password=-starts-with-a-dash"], ADMIN).values.password).toBe("-starts-with-a-dash");
  });

  it("refuses an option whose value is missing instead of reading an empty one (--password --x)", () => {
    const error = refusal(() => parseCommandLine(["--email", "a@b.c", "--password", "--x"], ADMIN));
    expect(error.message).toMatch(/^--password needs a value/);
    expect(error.exitCode).toBe(2);
    expect(refusal(() => parseCommandLine(["--email", "a@b.c", "--password"], ADMIN)).message).toMatch(
      /^--password needs a value\./,
    );
  });

  it("refuses unknown options (--pasword), stray arguments and repeated options", () => {
    expect(refusal(() => parseCommandLine(["--email", "a@b.c", "--pasword", "x"], ADMIN)).message).toMatch(
      /^Unknown option --pasword\./,
    );
    expect(refusal(() => parseCommandLine(["-e", "a@b.c"], ADMIN)).message).toMatch(/^Unknown option -e\./);
    expect(refusal(() => parseCommandLine(["--email", "a@b.c", "secret"], ADMIN)).message).toMatch(
      /^Unexpected argument 'secret'\./,
    );
    expect(refusal(() => parseCommandLine(["--email=a@b.c", "--email=c@d.e"], ADMIN)).message).toMatch(
      /^--email is given twice\./,
    );
  });

  it("says it in one line, with the usage", () => {
    for (const args of [["--password", "--x"], ["--pasword"], ["--email"], ["x"]]) {
      const { message } = refusal(() => parseCommandLine(args, ADMIN));
      expect(message, args.join(" ")).not.toContain("\n");
      expect(message.endsWith(`. Usage: ${ADMIN.usage}`), message).toBe(true);
    }
  });

  it("counts plain arguments", () => {
    const spec = { usage: "restore <folder>", options: {}, positionals: { min: 1, max: 1 } };
    expect(parseCommandLine(["backups/one"], spec).positionals).toEqual(["backups/one"]);
    expect(refusal(() => parseCommandLine([], spec)).message).toMatch(/^An argument is missing\./);
    expect(refusal(() => parseCommandLine(["a", "b"], spec)).message).toMatch(/^Unexpected argument 'b'\./);
  });
});

describe("the commands refuse a bad command line before doing anything", () => {
  it.each([
    ["admin:create", ["--email", "owner@example.com", "--password", "--x"], /^--password needs a value/],
    ["admin:create", ["--email", "owner@example.com", "--pasword", "long enough"], /^Unknown option --pasword\./],
    ["admin:create", ["--password", "long enough"], /^--email is missing\./],
    ["admin:create", ["--email", "not-an-address", "--password", "long enough"], /is not an e-mail address\./],
    ["backup", ["--too", "/tmp/x"], /^Unknown option --too\. Usage: npm run backup/],
    ["backup", ["--to"], /^--to needs a value\./],
    ["restore", [], /^The backup folder is missing\. Usage: npm run restore/],
    ["restore", ["--force", "folder"], /^Unknown option --force\./],
    ["restore", ["one", "two"], /^Unexpected argument 'two'\./],
    ["start", ["--port", "4000"], /^Unknown option --port\. Usage: npm start/],
    ["migrate", ["now"], /^Unexpected argument 'now'\./],
    ["seed", ["--demo"], /^Unknown option --demo\./],
  ] as const)("%s %j", async (name, args, message) => {
    const run = commands[name];
    if (!run) throw new Error(`no command ${name}`);
    const error = await run([...args]).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toMatch(message);
    expect((error as UsageError).exitCode).toBe(2);
  });
});

describe("the start log", () => {
  const config = { publicUrl: "http://localhost:3000", port: 3000 };

  it("names the shop as the owner set it and says how to get an admin account while there is none", () => {
    const lines = startMessages(config, { shopName: "Kowloon Airsoft Co.", setupToken: "setup-token-123" });
    expect(lines[0]).toBe("Kowloon Airsoft Co. is running at http://localhost:3000 (port 3000)");
    expect(lines.join("\n")).toContain("npm run admin:create -- --email");
    expect(lines.join("\n")).toContain("setup-token-123");
  });

  it("says nothing about it once an admin exists", () => {
    const lines = startMessages(config, { shopName: "港灣戰術", setupToken: null });
    expect(lines).toEqual(["港灣戰術 is running at http://localhost:3000 (port 3000)"]);
  });
});

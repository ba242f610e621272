import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";
import { freePort } from "./servers";

/**
 * A real SMTP server for tests (the `smtp-server` package) on a loopback port, collecting what it
 * receives. The shop talks to it through its ordinary SMTP transport (SMTP_URL=smtp://127.0.0.1:port,
 * no TLS, no authentication). It can be down (nothing listens on its port) and started later on
 * the same port, refuse each message a number of times with a 4xx, hold messages without ever
 * answering their DATA (a mail server that hangs), and be slow.
 */

/** One message whose data the server read to the end. */
export interface ReceivedMail {
  /** Its Message-ID header (`<id@domain>`), null when it had none. */
  messageId: string | null;
  subject: string;
  from: string;
  to: string[];
  /** When its data had arrived (Date.now()). */
  at: number;
  /** What the server answered: accepted (250), refused (the code), or held (no answer). */
  answer: "accepted" | "held" | number;
}

export interface TestSmtpServer {
  port: number;
  /** SMTP_URL for the shop. */
  url: string;
  /** Every message whose data arrived, in order, with the answer it got. */
  readonly seen: readonly ReceivedMail[];
  /** The messages accepted (answered 250). */
  accepted(): ReceivedMail[];
  /** Whether it listens now. */
  readonly listening: boolean;
  /** Starts listening on `port` (again). */
  start(): Promise<void>;
  /** Closes every connection at once and stops listening: the mail server is down. */
  stop(): Promise<void>;
  /**
   * Each message (by its Message-ID) is answered `code` for its first `times` deliveries, then
   * accepted. 0 times: everything is accepted.
   */
  refuseEach(times: number, code?: number): void;
  /** Read each message's data but never answer it (the sender waits), until set back to false. */
  hold(on: boolean): void;
  /** Wait this long before answering each message (widens races between senders). */
  delay(ms: number): void;
  /** Resolves when `predicate` holds for what was seen, or rejects after `timeoutMs`. */
  waitFor(predicate: (seen: readonly ReceivedMail[]) => boolean, timeoutMs: number, what: string): Promise<void>;
}

function header(raw: string, name: string): string | null {
  const head = raw.split(/\r?\n\r?\n/, 1)[0] ?? "";
  // Folded header lines continue with whitespace.
  const unfolded = head.replace(/\r?\n[ \t]+/g, " ");
  const match = new RegExp(`^${name}:[ \\t]*(.*)$`, "im").exec(unfolded);
  return match?.[1]?.trim() ?? null;
}

function readAll(stream: SMTPServerDataStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    stream.on("error", reject);
  });
}

/**
 * A test SMTP server on a free loopback port (or `port`); listening at once unless
 * `{ listening: false }` (a mail server that is down). Stop it with `stop()`.
 */
export async function startSmtpServer(options: { port?: number; listening?: boolean } = {}): Promise<TestSmtpServer> {
  const port = options.port ?? (await freePort());
  const seen: ReceivedMail[] = [];
  const refusals = new Map<string, number>();
  let refuse = { times: 0, code: 451 };
  let holding = false;
  let delayMs = 0;
  let server: SMTPServer | null = null;

  const onData = (
    stream: SMTPServerDataStream,
    session: SMTPServerSession,
    callback: (error?: Error | null) => void,
  ) => {
    readAll(stream).then(async (raw) => {
      const mail: Omit<ReceivedMail, "answer"> = {
        messageId: header(raw, "Message-ID"),
        subject: header(raw, "Subject") ?? "",
        from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
        to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
        at: Date.now(),
      };
      if (holding) {
        // Never answered: the sender waits until its own timeout, or until it dies.
        seen.push({ ...mail, answer: "held" });
        return;
      }
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      const key = mail.messageId ?? raw;
      const refused = refusals.get(key) ?? 0;
      if (refused < refuse.times) {
        refusals.set(key, refused + 1);
        seen.push({ ...mail, answer: refuse.code });
        const error = Object.assign(new Error("Try again later (test server refusing)"), {
          responseCode: refuse.code,
        });
        callback(error);
        return;
      }
      seen.push({ ...mail, answer: "accepted" });
      callback(null);
    }, callback);
  };

  const smtp: TestSmtpServer = {
    port,
    url: `smtp://127.0.0.1:${port}`,
    seen,
    accepted: () => seen.filter((mail) => mail.answer === "accepted"),
    get listening() {
      return server !== null;
    },
    async start() {
      if (server) return;
      const started = new SMTPServer({
        authOptional: true,
        // Plain SMTP on loopback: no STARTTLS offered, so no test certificate is involved.
        disabledCommands: ["STARTTLS", "AUTH"],
        logger: false,
        closeTimeout: 100,
        onData,
      });
      started.on("error", () => undefined);
      await new Promise<void>((resolve, reject) => {
        started.server.once("error", reject);
        started.listen(port, "127.0.0.1", () => resolve());
      });
      server = started;
    },
    async stop() {
      const running = server;
      if (!running) return;
      server = null;
      const closed = new Promise<void>((resolve) => running.close(() => resolve()));
      for (const connection of running.connections) connection.close();
      await closed;
    },
    refuseEach(times, code = 451) {
      refuse = { times, code };
      refusals.clear();
    },
    hold(on) {
      holding = on;
    },
    delay(ms) {
      delayMs = ms;
    },
    async waitFor(predicate, timeoutMs, what) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(seen)) {
        if (Date.now() > deadline) {
          const summary = seen.map((mail) => `${mail.messageId} ${mail.answer} "${mail.subject}"`).join("\n");
          throw new Error(`the SMTP server did not see ${what} within ${timeoutMs} ms; it saw:\n${summary}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
  };
  if (options.listening !== false) await smtp.start();
  return smtp;
}

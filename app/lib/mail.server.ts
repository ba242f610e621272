import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import i18next, { type TFunction } from "i18next";
import nodemailer from "nodemailer";
import resources, { HTML_LANG, type Language } from "~/locales";
import type { Config } from "./config.server";
import { logger } from "./log.server";

/**
 * The one way the shop sends e-mail: in the recipient's language, as HTML and plain text.
 * Through SMTP when SMTP_URL is set; otherwise each message is written as an .eml file under
 * data/mail/ (and logged), so a fresh install needs no mail server.
 */

export interface MailMessage {
  /** The sender, `"Shop" <address>`; the mailer's default when absent. */
  from?: string;
  /** Where the recipient's answer goes: the shop's support address (the sender may be a no-reply one). */
  replyTo?: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /**
   * The Message-ID header, `<unique@domain>`: the outbox gives every message one that stays the
   * same across retries, so a message sent twice (a crash between "sent" and "marked sent") is
   * recognisable as one (docs/decisions/044).
   */
  messageId?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * How long the shop waits on an SMTP server (nodemailer's defaults are 2 and 10 minutes): a
 * server that is down or hangs fails the attempt quickly, and the outbox tries again later.
 */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 } as const;

/** SMTP_URL with the shop's timeouts where the URL sets none (nodemailer reads options from the query). */
export function smtpUrlWithTimeouts(smtpUrl: string): string {
  let url: URL;
  try {
    url = new URL(smtpUrl);
  } catch {
    return smtpUrl;
  }
  for (const [key, value] of Object.entries(SMTP_TIMEOUTS)) {
    if (!url.searchParams.has(key)) url.searchParams.set(key, String(value));
  }
  return url.toString();
}

export function createMailer(
  config: Pick<Config, "smtpUrl" | "dataDir">,
  from = "Harbour Tactical <no-reply@harbourtactical.hk>",
): Mailer {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(smtpUrlWithTimeouts(config.smtpUrl));
    return {
      async send(message) {
        await transport.sendMail({ ...message, from: message.from ?? from });
      },
    };
  }
  const folder = path.join(config.dataDir, "mail");
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    async send(message) {
      const info = await transport.sendMail({ ...message, from: message.from ?? from });
      await fs.mkdir(folder, { recursive: true });
      const file = path.join(folder, `${Date.now()}-${crypto.randomUUID()}.eml`);
      await fs.writeFile(file, info.message as Buffer);
      logger.info({ file }, `mail: "${message.subject}" to ${message.to} written to ${file}`);
    },
  };
}

/** Collects messages in memory, for tests. */
export class MemoryMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  async send(message: MailMessage): Promise<void> {
    this.sent.push(message);
  }
}

const translators = new Map<Language, TFunction>();

/** A translator fixed to one language, independent of the current request's language. */
export async function translatorFor(language: Language): Promise<TFunction> {
  let t = translators.get(language);
  if (!t) {
    const instance = i18next.createInstance();
    await instance.init({ resources, lng: language, fallbackLng: "en", interpolation: { escapeValue: false } });
    t = instance.t;
    translators.set(language, t);
  }
  return t;
}

export interface EmailContent {
  subject: string;
  /** Opening line. */
  heading: string;
  /** Paragraphs of plain text; escaped for the HTML part. */
  paragraphs: string[];
  /** Optional call to action. */
  action?: { label: string; url: string };
}

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** Who the shop is in its e-mails: the From header and the footer (Settings → Shop details). */
export interface MailSender {
  /** The shop's name in each language. */
  name: { en: string; zh: string };
  address: { en: string; zh: string };
  senderEmail: string;
  supportEmail: string;
}

/** `"Shop name" <sender@…>`, with the characters that would break the header removed. */
export function fromHeader(sender: MailSender): string {
  const name = (sender.name.en || sender.name.zh).replace(/["\\\r\n]/g, "");
  return `"${name}" <${sender.senderEmail}>`;
}

/**
 * Renders one message in `language` from the shop; `build` writes the content with `t` and the
 * shop's name in that language. A customer who answers reaches the shop's support address
 * (Reply-To), whatever address the message is sent from. The outbox stores what this returns
 * (app/models/outbox/queue.server.ts).
 */
export async function renderLocalizedEmail(
  sender: MailSender,
  to: string,
  language: Language,
  build: (t: TFunction, shopName: string) => EmailContent,
): Promise<MailMessage> {
  const t = await translatorFor(language);
  const shopName = sender.name[language] || sender.name.en;
  const content = build(t, shopName);
  const footer = t("email.footer", {
    shop: shopName,
    address: sender.address[language] || sender.address.en,
    email: sender.supportEmail,
  }).replace(/ · (?= · |$)/g, "");
  const text = [
    content.heading,
    "",
    ...content.paragraphs.flatMap((p) => [p, ""]),
    ...(content.action ? [`${content.action.label}: ${content.action.url}`, ""] : []),
    "--",
    footer,
  ].join("\n");
  const html = `<!doctype html><html lang="${HTML_LANG[language]}"><body style="font-family:Arial,sans-serif;color:#1c1917;max-width:560px;margin:0 auto;padding:24px">
<h1 style="font-size:20px">${escapeHtml(content.heading)}</h1>
${content.paragraphs.map((p) => `<p style="line-height:1.5">${escapeHtml(p)}</p>`).join("\n")}
${content.action ? `<p><a href="${escapeHtml(content.action.url)}" style="display:inline-block;background:#4d7c0f;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(content.action.label)}</a></p>` : ""}
<hr style="border:none;border-top:1px solid #e7e5e4"><p style="font-size:12px;color:#78716c">${escapeHtml(footer)}</p>
</body></html>`;
  return {
    from: fromHeader(sender),
    replyTo: sender.supportEmail,
    to,
    subject: content.subject,
    text,
    html,
  };
}

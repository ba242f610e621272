import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { logger } from "~/lib/log.server";
import {
  createMailer,
  escapeHtml,
  fromHeader,
  type Mailer,
  type MailSender,
  MemoryMailer,
  renderLocalizedEmail,
  translatorFor,
} from "~/lib/mail.server";
import en from "~/locales/en/translation";
import zh from "~/locales/zh/translation";
import { DEFAULT_SHOP } from "~/models/settings/shop.server";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-mail-"));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** The shop as the owner set it up (Settings → Shop details): its name, address and e-mails. */
const SHOP: MailSender = {
  name: { en: "Lion Rock Airsoft", zh: "獅子山氣槍" },
  address: { en: "1 Nathan Road, Kowloon", zh: "九龍彌敦道1號" },
  senderEmail: "orders@lionrock.example",
  supportEmail: "help@lionrock.example",
};
const zhFooter = "獅子山氣槍 · 九龍彌敦道1號 · help@lionrock.example";
const enFooter = "Lion Rock Airsoft · 1 Nathan Road, Kowloon · help@lionrock.example";

/** A rendered message handed to a transport, as the outbox does (app/models/outbox/deliver.server.ts). */
async function sendLocalizedEmail(mailer: Mailer, ...args: Parameters<typeof renderLocalizedEmail>): Promise<void> {
  await mailer.send(await renderLocalizedEmail(...args));
}

function emlFiles(): string[] {
  const folder = path.join(dataDir, "mail");
  return fs.existsSync(folder) ? fs.readdirSync(folder).filter((name) => name.endsWith(".eml")) : [];
}

describe("createMailer without SMTP", () => {
  it("writes each message as an .eml file under <dataDir>/mail/ with text and HTML parts", async () => {
    const info = vi.spyOn(logger, "info").mockImplementation(() => {});
    const mailer = createMailer({ smtpUrl: null, dataDir });
    await mailer.send({
      to: "buyer@example.com",
      subject: "Order HT-1001 received",
      text: "Thanks for your order HT-1001.",
      html: "<p>Thanks for your order <strong>HT-1001</strong>.</p>",
    });

    const files = emlFiles();
    expect(files).toHaveLength(1);
    const eml = fs.readFileSync(path.join(dataDir, "mail", files[0] ?? ""), "utf8");
    expect(eml).toMatch(/^Subject: Order HT-1001 received$/m);
    expect(eml).toMatch(/^To: buyer@example\.com$/m);
    expect(eml).toMatch(/^From: .*no-reply@harbourtactical\.hk/m);
    expect(eml).toMatch(/^Content-Type: multipart\/alternative;/m);
    expect(eml).toMatch(/^Content-Type: text\/plain/m);
    expect(eml).toMatch(/^Content-Type: text\/html/m);
    expect(eml).toContain("Thanks for your order HT-1001.");
    expect(eml).toContain("<strong>HT-1001</strong>");
    expect(info).toHaveBeenCalledWith(expect.anything(), expect.stringContaining("Order HT-1001 received"));

    // A second message is a second file (unique names), nothing overwritten.
    await mailer.send({ to: "b@example.com", subject: "Second", text: "two", html: "<p>two</p>" });
    expect(emlFiles()).toHaveLength(2);
    info.mockRestore();
  });

  it("a localized message written to disk keeps its Chinese text", async () => {
    const info = vi.spyOn(logger, "info").mockImplementation(() => {});
    const folder = fs.mkdtempSync(path.join(dataDir, "zh-"));
    const mailer = createMailer({ smtpUrl: null, dataDir: folder });
    await sendLocalizedEmail(mailer, SHOP, "buyer@example.com", "zh", (_t, shop) => ({
      subject: `${shop} 訂單`,
      heading: "多謝惠顧",
      paragraphs: ["已收到付款"],
    }));
    const files = fs.readdirSync(path.join(folder, "mail"));
    expect(files).toHaveLength(1);
    const eml = fs.readFileSync(path.join(folder, "mail", files[0] ?? ""), "utf8");
    // Non-ASCII headers are MIME-encoded; the subject is still there.
    expect(eml).toMatch(/^Subject: =\?UTF-8\?/im);
    expect(eml).toMatch(/charset=utf-8/i);
    // From the shop's sender address, under its name; answers go to its support address.
    expect(eml).toMatch(/^From: "?Lion Rock Airsoft"? <orders@lionrock\.example>$/m);
    expect(eml).toMatch(/^Reply-To: help@lionrock\.example$/m);
    info.mockRestore();
  });
});

describe("renderLocalizedEmail", () => {
  it("uses the Chinese footer and translator in zh and escapes HTML in the HTML part", async () => {
    const mailer = new MemoryMailer();
    await sendLocalizedEmail(mailer, SHOP, "buyer@example.com", "zh", (t, shop) => ({
      subject: `${shop}：${t("email.verifyHeading")} HT-1001`,
      heading: `Order <b>HT-1001</b> & "friends"`,
      paragraphs: [`<script>alert("x")</script>`, "Second & 'third' paragraph"],
      action: { label: "查看訂單", url: `https://shop.test/orders/HT-1001?a=1&b="2"` },
    }));

    expect(mailer.sent).toHaveLength(1);
    const message = mailer.sent[0];
    if (!message) throw new Error("no message");
    expect(message.to).toBe("buyer@example.com");
    // The build callback got a translator fixed to Chinese and the shop's Chinese name.
    expect(message.subject).toBe(`獅子山氣槍：${zh.email.verifyHeading} HT-1001`);
    expect(message.from).toBe('"Lion Rock Airsoft" <orders@lionrock.example>');
    expect(message.replyTo).toBe("help@lionrock.example");

    // The shop's Chinese footer (name, address, support e-mail) in both parts, not the English one.
    expect(message.text).toContain(zhFooter);
    expect(message.html).toContain(escapeHtml(zhFooter));
    expect(message.text).not.toContain(enFooter);
    expect(message.html).not.toContain(enFooter);
    expect(message.text.trimEnd().endsWith(zhFooter)).toBe(true);
    expect(message.html).toContain(`lang="zh-Hant-HK"`);

    // HTML is escaped in the HTML part...
    expect(message.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(message.html).not.toContain("<script>");
    expect(message.html).toContain("Order &lt;b&gt;HT-1001&lt;/b&gt; &amp; &quot;friends&quot;");
    expect(message.html).not.toContain("<b>HT-1001</b>");
    expect(message.html).toContain("Second &amp; &#39;third&#39; paragraph");
    expect(message.html).toContain(`href="https://shop.test/orders/HT-1001?a=1&amp;b=&quot;2&quot;"`);
    // ...and kept verbatim in the plain-text part.
    expect(message.text).toContain(`<script>alert("x")</script>`);
    expect(message.text).toContain(`查看訂單: https://shop.test/orders/HT-1001?a=1&b="2"`);
    expect(message.text.startsWith(`Order <b>HT-1001</b> & "friends"`)).toBe(true);
  });

  it("uses the English footer in en", async () => {
    const mailer = new MemoryMailer();
    await sendLocalizedEmail(mailer, SHOP, "a@example.com", "en", (_t, shop) => ({
      subject: shop,
      heading: "Hello",
      paragraphs: ["Body"],
    }));
    const message = mailer.sent[0];
    expect(message?.subject).toBe("Lion Rock Airsoft");
    expect(message?.text).toContain(enFooter);
    expect(message?.text).not.toContain(zhFooter);
    expect(message?.html).toContain(`lang="en"`);
    expect(message?.html).not.toContain("<a href"); // no action, no button
  });

  it("translators are per language and do not leak into each other", async () => {
    const tZh = await translatorFor("zh");
    const tEn = await translatorFor("en");
    expect(tZh("email.verifyHeading")).toBe(zh.email.verifyHeading);
    expect(tEn("email.verifyHeading")).toBe(en.email.verifyHeading);
    expect(await translatorFor("zh")).toBe(tZh);
  });

  it("leaves out an empty address, and the From name cannot break the header", async () => {
    const mailer = new MemoryMailer();
    const sender = { ...SHOP, name: { en: 'Bad "Name"\r\nBcc: x@evil.test', zh: "" }, address: { en: "", zh: "" } };
    await sendLocalizedEmail(mailer, sender, "a@example.com", "zh", () => ({
      subject: "s",
      heading: "h",
      paragraphs: [],
    }));
    const message = mailer.sent[0];
    expect(message?.text.trimEnd().endsWith('Bad "Name"\r\nBcc: x@evil.test · help@lionrock.example')).toBe(true);
    expect(message?.from).toBe('"Bad NameBcc: x@evil.test" <orders@lionrock.example>');
    expect(fromHeader(DEFAULT_SHOP)).toBe('"Harbour Tactical" <no-reply@harbourtactical.hk>');
  });
});

describe("escapeHtml", () => {
  it("escapes the five HTML-significant characters", () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;",
    );
    expect(escapeHtml("&lt;")).toBe("&amp;lt;");
  });
});

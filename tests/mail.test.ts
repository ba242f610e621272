import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createMailer, escapeHtml, MemoryMailer, sendLocalizedEmail, translatorFor } from "~/lib/mail.server";
import en from "~/locales/en/translation";
import zh from "~/locales/zh/translation";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-mail-"));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function emlFiles(): string[] {
  const folder = path.join(dataDir, "mail");
  return fs.existsSync(folder) ? fs.readdirSync(folder).filter((name) => name.endsWith(".eml")) : [];
}

describe("createMailer without SMTP", () => {
  it("writes each message as an .eml file under <dataDir>/mail/ with text and HTML parts", async () => {
    const info = vi.spyOn(console, "info").mockImplementation(() => {});
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
    expect(info).toHaveBeenCalledWith(expect.stringContaining("Order HT-1001 received"));

    // A second message is a second file (unique names), nothing overwritten.
    await mailer.send({ to: "b@example.com", subject: "Second", text: "two", html: "<p>two</p>" });
    expect(emlFiles()).toHaveLength(2);
    info.mockRestore();
  });

  it("a localized message written to disk keeps its Chinese text", async () => {
    const info = vi.spyOn(console, "info").mockImplementation(() => {});
    const folder = fs.mkdtempSync(path.join(dataDir, "zh-"));
    const mailer = createMailer({ smtpUrl: null, dataDir: folder });
    await sendLocalizedEmail(mailer, "buyer@example.com", "zh", (t) => ({
      subject: `${t("meta.siteName")} 訂單`,
      heading: "多謝惠顧",
      paragraphs: ["已收到付款"],
    }));
    const files = fs.readdirSync(path.join(folder, "mail"));
    expect(files).toHaveLength(1);
    const eml = fs.readFileSync(path.join(folder, "mail", files[0] ?? ""), "utf8");
    // Non-ASCII headers are MIME-encoded; the subject is still there.
    expect(eml).toMatch(/^Subject: =\?UTF-8\?/im);
    expect(eml).toMatch(/charset=utf-8/i);
    info.mockRestore();
  });
});

describe("sendLocalizedEmail", () => {
  it("uses the Chinese footer and translator in zh and escapes HTML in the HTML part", async () => {
    const mailer = new MemoryMailer();
    await sendLocalizedEmail(mailer, "buyer@example.com", "zh", (t) => ({
      subject: `${t("meta.siteName")}：訂單 HT-1001`,
      heading: `Order <b>HT-1001</b> & "friends"`,
      paragraphs: [`<script>alert("x")</script>`, "Second & 'third' paragraph"],
      action: { label: "查看訂單", url: `https://shop.test/orders/HT-1001?a=1&b="2"` },
    }));

    expect(mailer.sent).toHaveLength(1);
    const message = mailer.sent[0];
    if (!message) throw new Error("no message");
    expect(message.to).toBe("buyer@example.com");
    // The build callback got a translator fixed to Chinese.
    expect(message.subject).toBe(`${zh.meta.siteName}：訂單 HT-1001`);
    expect(message.subject).not.toContain(en.meta.siteName);

    // Chinese footer in both parts, not the English one.
    expect(message.text).toContain(zh.email.footer);
    expect(message.html).toContain(escapeHtml(zh.email.footer));
    expect(message.text).not.toContain(en.email.footer);
    expect(message.html).not.toContain(en.email.footer);
    expect(message.text.trimEnd().endsWith(zh.email.footer)).toBe(true);
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
    await sendLocalizedEmail(mailer, "a@example.com", "en", (t) => ({
      subject: t("meta.siteName"),
      heading: "Hello",
      paragraphs: ["Body"],
    }));
    const message = mailer.sent[0];
    expect(message?.subject).toBe(en.meta.siteName);
    expect(message?.text).toContain(en.email.footer);
    expect(message?.text).not.toContain(zh.email.footer);
    expect(message?.html).toContain(`lang="en"`);
    expect(message?.html).not.toContain("<a href"); // no action, no button
  });

  it("translators are per language and do not leak into each other", async () => {
    const tZh = await translatorFor("zh");
    const tEn = await translatorFor("en");
    expect(tZh("email.footer")).toBe(zh.email.footer);
    expect(tEn("email.footer")).toBe(en.email.footer);
    expect(await translatorFor("zh")).toBe(tZh);
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

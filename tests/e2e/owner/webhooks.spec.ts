import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { htmlErrors, seriousViolations } from "../a11y";
import { expect, ownerServer, setLanguage, signInAsAdmin, test, waitForReact } from "../fixtures";

/**
 * Settings → Webhooks on a shop of its own (the "owner" projects: the private-address switch is
 * shop-wide): the owner is refused an address on the shop's own network at the field, allows
 * private addresses for a bridge, adds a webhook to a receiver this test runs on 127.0.0.1,
 * presses the test button and sees the delivery in the log — with JavaScript and without.
 */

interface Received {
  event: string;
  id: string;
  deliveryHeader: string;
  signatureOk: boolean;
}

/** A receiver on a free loopback port that checks each delivery's signature (README, "Webhooks"). */
async function startReceiver() {
  const received: Received[] = [];
  let secret = "";
  const server = http.createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      body += chunk;
    });
    request.on("end", () => {
      const header = String(request.headers["x-shop-signature"] ?? "");
      const [, t = "", v1 = ""] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header) ?? [];
      const expected = crypto.createHmac("sha256", secret).update(`${t}.${body}`).digest("hex");
      const parsed = JSON.parse(body) as { event: string; id: string };
      received.push({
        event: parsed.event,
        id: parsed.id,
        deliveryHeader: String(request.headers["x-shop-delivery"]),
        signatureOk: v1 !== "" && crypto.timingSafeEqual(Buffer.from(v1, "hex"), Buffer.from(expected, "hex")),
      });
      response.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    received,
    setSecret: (value: string) => {
      secret = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test("the owner adds a webhook, presses test and sees the delivery in the log", async ({
  page,
  javaScriptEnabled,
  baseURL,
}) => {
  const jsEnabled = javaScriptEnabled !== false;
  const receiver = await startReceiver();
  const hook = `http://127.0.0.1:${receiver.port}/hooks/shop`;
  const ready = async () => {
    if (jsEnabled) await waitForReact(page);
  };
  try {
    await signInAsAdmin(page, "webhooks", ownerServer(jsEnabled));
    await page.goto("/admin/settings");
    const section = page.locator("section[aria-labelledby=webhooks-heading]");
    await expect(section.getByTestId("webhooks-summary")).toContainText(/webhook/);
    await section.getByRole("link", { name: "Manage webhooks" }).click();
    await expect(page).toHaveURL(/\/admin\/settings\/webhooks$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Webhooks");
    await ready();

    // By default an address on the shop's own network is refused at its field, everything kept.
    const add = page.locator("section[aria-labelledby=add-heading]");
    const url = add.getByLabel("Address (URL)");
    await add.getByLabel("Name").fill("Orders chat");
    await url.fill(`https://127.0.0.1:${receiver.port}/hooks/shop`);
    await add.getByLabel(/^Payment confirmed/).check();
    await add.getByRole("button", { name: "Add webhook" }).click();
    await expect(
      add.getByText(
        "127.0.0.1 is the shop's own server. Webhooks go to public addresses only, unless private addresses are allowed below.",
      ),
    ).toBeVisible();
    await expect(url).toHaveAttribute("aria-invalid", "true");
    await expect(url).toHaveValue(`https://127.0.0.1:${receiver.port}/hooks/shop`);
    await expect(add.getByLabel("Name")).toHaveValue("Orders chat");
    await expect(add.getByLabel(/^Payment confirmed/)).toBeChecked();
    await url.fill(hook);
    await add.getByRole("button", { name: "Add webhook" }).click();
    await expect(add.getByText(/^Use an https:\/\/ address\./)).toBeVisible();
    expect(receiver.received).toEqual([]);

    // For a bridge on the owner's own network: the switch.
    await ready();
    await page.getByLabel("Allow http:// and private addresses (for a bridge on your own network)").check();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByRole("status")).toContainText("Webhooks may now use http:// and private addresses.");
    await expect(page.getByTestId("network-state")).toHaveText(
      "Allowed: webhooks may use http:// and private addresses.",
    );

    await ready();
    await add.getByLabel("Name").fill("Orders chat");
    await add.getByLabel("Address (URL)").fill(hook);
    await add.getByLabel(/^Payment confirmed/).check();
    await add.getByLabel(/^Order shipped/).check();
    await add.getByRole("button", { name: "Add webhook" }).click();
    await expect(page).toHaveURL(/\/admin\/settings\/webhooks\/[0-9a-f-]{36}$/);
    await expect(page.getByRole("status")).toContainText("Webhook added.");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Orders chat");
    await expect(page.getByText("No deliveries yet. Send a test delivery to see one here.")).toBeVisible();
    const secret = (await page.getByTestId("webhook-secret").textContent()) ?? "";
    expect(secret).toMatch(/^whsec_/);
    receiver.setSecret(secret);

    // The test button: a ping through the outbox, in the log once the receiver has answered.
    await ready();
    await page.getByRole("button", { name: "Send a test delivery" }).click();
    await expect(page.getByRole("status")).toContainText("A test delivery is on its way.");
    await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(1);
    const [ping] = receiver.received;
    expect(ping).toMatchObject({ event: "ping", signatureOk: true });
    expect(ping?.deliveryHeader).toBe(ping?.id);
    const log = page.getByTestId("webhook-delivery");
    await expect(async () => {
      await page.getByRole("link", { name: "Refresh" }).click();
      await expect(log.first().getByTestId("delivery-status")).toHaveText("Delivered", { timeout: 1000 });
    }).toPass({ timeout: 10_000 });
    await expect(log).toHaveCount(1);
    await expect(log.first().getByRole("heading")).toHaveText("Test (ping)");
    await expect(log.first().getByTestId("delivery-id")).toHaveText(ping?.id ?? "");
    await expect(log.first().getByTestId("attempt-status")).toHaveText("HTTP 200");
    expect(await seriousViolations(page, jsEnabled)).toEqual([]);
    expect(await htmlErrors(await (await page.request.get(page.url())).text())).toEqual([]);

    // The same page in Chinese.
    await setLanguage(page.context(), baseURL ?? "", "zh");
    await page.reload();
    await expect(page.getByRole("heading", { name: "傳送記錄" })).toBeVisible();
    await expect(log.first().getByTestId("delivery-status")).toHaveText("已送達");
    await expect(log.first().getByTestId("attempt-status")).toHaveText("HTTP 狀態 200");
    await setLanguage(page.context(), baseURL ?? "", "en");

    // Removed: a confirmation first (confirm() with JavaScript, a second step without).
    await page.reload();
    await ready();
    page.once("dialog", (dialog) => dialog.accept());
    await page.getByRole("button", { name: "Remove webhook" }).click();
    if (!jsEnabled) await page.getByRole("alertdialog").getByRole("button", { name: "Remove webhook" }).click();
    await expect(page).toHaveURL(/\/admin\/settings\/webhooks$/);
    await expect(page.getByRole("status")).toContainText("Webhook Orders chat removed.");
    await expect(page.getByTestId("webhook-row")).toHaveCount(0);
  } finally {
    // The switch back off, as the shop started (the other owner specs share this shop).
    await page.goto("/admin/settings/webhooks");
    if (
      await page
        .getByTestId("network-state")
        .textContent()
        .then((text) => text?.startsWith("Allowed"))
    ) {
      await ready();
      await page.getByLabel(/^Allow http:\/\/ and private addresses/).uncheck();
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await expect(page.getByTestId("network-state")).toHaveText(
        "Not allowed: webhooks go to public https:// addresses only.",
      );
    }
    await receiver.close();
  }
});

import jsQR from "jsqr";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { crc16Ccitt, emvAmount, fpsPayload, fpsProxy, fpsQrFor, fpsQrSvg } from "~/lib/fps-qr.server";
import type { PaymentInstructions } from "~/models/payment-accounts.server";

/**
 * The FPS QR code (app/lib/fps-qr.server.ts): the CRC against the standard check value and
 * published payloads, every field of the payload parsed back, and the SVG decoded by a QR reader.
 */

/** EMV's TLV: two-digit ID, two-digit length, value; in order, nothing left over. */
function parseTlv(text: string): [string, string][] {
  const fields: [string, string][] = [];
  let at = 0;
  while (at < text.length) {
    const id = text.slice(at, at + 2);
    const length = Number(text.slice(at + 2, at + 4));
    expect(id).toMatch(/^\d\d$/);
    expect(text.slice(at + 2, at + 4)).toMatch(/^\d\d$/);
    const value = text.slice(at + 4, at + 4 + length);
    expect(value).toHaveLength(length);
    fields.push([id, value]);
    at += 4 + length;
  }
  return fields;
}

function hex4(value: number): string {
  return value.toString(16).toUpperCase().padStart(4, "0");
}

/** The CRC field is last, 4 upper-case hex digits, over everything before it including "6304". */
function expectValidCrc(payload: string) {
  expect(payload.slice(-8, -4)).toBe("6304");
  expect(payload.slice(-4)).toMatch(/^[0-9A-F]{4}$/);
  expect(hex4(crc16Ccitt(payload.slice(0, -4)))).toBe(payload.slice(-4));
}

describe("crc16Ccitt (CRC-16/CCITT-FALSE)", () => {
  it("gives the catalogue check value for '123456789'", () => {
    expect(crc16Ccitt("123456789")).toBe(0x29b1);
    expect(crc16Ccitt("")).toBe(0xffff);
  });

  it("agrees with published EMVCo-format FPS payloads", () => {
    // Odoo's Hong Kong localisation, addons/l10n_hk/tests/test_l10n_hk_emv_qr.py (odoo/odoo):
    // the FPS QR payloads its tests expect, each ending in its CRC.
    const published = [
      "00020101021226330012hk.com.hkicl0313+852-6789123452040000530334454031005802HK5914company_1_data6002HK62170513INV/TEST/00016304A154",
      "00020101021226330012hk.com.hkicl0313+852-678912345204000053033445405100.55802HK5914company_1_data6002HK62170513INV/TEST/000263049E64",
    ];
    for (const payload of published) expectValidCrc(payload);
    expect(crc16Ccitt(published[0]?.slice(0, -4) ?? "")).toBe(0xa154);
  });

  it("works on UTF-8 bytes", () => {
    // "é" is the two bytes C3 A9; 0x7ACB is Python's binascii.crc_hqx(b"\xc3\xa9", 0xFFFF).
    expect(crc16Ccitt("é")).toBe(0x7acb);
  });
});

describe("fpsProxy", () => {
  it("classifies what the bank account form accepts", () => {
    expect(fpsProxy("1648203")).toEqual({ kind: "id", value: "1648203" });
    expect(fpsProxy("164 820 312")).toEqual({ kind: "id", value: "164820312" });
    expect(fpsProxy("9123 4567")).toEqual({ kind: "mobile", value: "+852-91234567" });
    expect(fpsProxy("+852 9123-4567")).toEqual({ kind: "mobile", value: "+852-91234567" });
    expect(fpsProxy("85291234567")).toEqual({ kind: "mobile", value: "+852-91234567" });
    expect(fpsProxy(" pay@shop.example.hk ")).toEqual({ kind: "email", value: "pay@shop.example.hk" });
  });

  it("refuses what it cannot put in a code", () => {
    for (const value of [null, "", "2345 6789", "+44 7700 900123", "1234567890", "12345", "付款@例子.香港", "abc"]) {
      expect(fpsProxy(value)).toBeNull();
    }
    expect(() => fpsPayload({ proxy: "2345 6789", amountCents: 100, merchantName: "Shop" })).toThrow();
  });
});

describe("fpsPayload", () => {
  const cases = [
    { proxy: "1648203", sub: "02", value: "1648203" },
    { proxy: "+852 9123 4567", sub: "03", value: "+852-91234567" },
    { proxy: "pay@harbour.example.hk", sub: "04", value: "pay@harbour.example.hk" },
  ];

  for (const { proxy, sub, value } of cases) {
    it(`writes every field for an FPS ${sub === "02" ? "id" : sub === "03" ? "mobile" : "e-mail"} proxy`, () => {
      const payload = fpsPayload({
        proxy,
        amountCents: 1234_50,
        merchantName: "Harbour Tactical Supplies Limited",
        reference: "ORD-1764000000000-ABCDEF",
      });
      const fields = parseTlv(payload);
      expect(fields.map(([id]) => id)).toEqual(["00", "01", "26", "52", "53", "54", "58", "59", "60", "62", "63"]);
      const get = (id: string) => fields.find(([key]) => key === id)?.[1];
      expect(get("00")).toBe("01");
      expect(get("01")).toBe("12");
      expect(parseTlv(get("26") ?? "")).toEqual([
        ["00", "hk.com.hkicl"],
        [sub, value],
      ]);
      expect(get("52")).toBe("0000");
      expect(get("53")).toBe("344");
      expect(get("54")).toBe("1234.50");
      expect(get("58")).toBe("HK");
      expect(get("59")).toBe("Harbour Tactical Supplies");
      expect(get("60")).toBe("HK");
      expect(parseTlv(get("62") ?? "")).toEqual([["01", "ORD-1764000000000-ABCDEF"]]);
      expect(get("63")).toBe(hex4(crc16Ccitt(payload.slice(0, -4))));
      expectValidCrc(payload);
    });
  }

  it("writes amounts with two decimals from integer cents, and leaves out an absent reference", () => {
    expect(emvAmount(1)).toBe("0.01");
    expect(emvAmount(10)).toBe("0.10");
    expect(emvAmount(100)).toBe("1.00");
    expect(emvAmount(1234_50)).toBe("1234.50");
    expect(emvAmount(99_999_999_99)).toBe("99999999.99");
    expect(() => emvAmount(0)).toThrow();
    expect(() => emvAmount(12.5)).toThrow();
    const payload = fpsPayload({ proxy: "1648203", amountCents: 800_00, merchantName: "港灣 Harbour" });
    const fields = new Map(parseTlv(payload));
    expect(fields.get("54")).toBe("800.00");
    expect(fields.get("59")).toBe("Harbour");
    expect(fields.has("62")).toBe(false);
    expectValidCrc(payload);
    expect(() =>
      fpsPayload({ proxy: "1648203", amountCents: 100, merchantName: "x", reference: "R".repeat(26) }),
    ).toThrow();
  });
});

describe("the QR code", () => {
  async function decode(svg: string): Promise<string | undefined> {
    const { data, info } = await sharp(Buffer.from(svg))
      .resize(400)
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return jsQR(new Uint8ClampedArray(data), info.width, info.height)?.data;
  }

  it("decodes, from a PNG of the SVG, to the payload", async () => {
    const payload = fpsPayload({
      proxy: "pay@harbour.example.hk",
      amountCents: 1234_50,
      merchantName: "Harbour Tactical",
      reference: "ORD-1764000000000-ABCDEF",
    });
    const svg = await fpsQrSvg(payload);
    expect(svg).toMatch(/^<svg role="img" aria-label="FPS QR code" /);
    // Attributes only: nothing the page's Content-Security-Policy would block.
    expect(svg).not.toMatch(/<script|<style|style=|on[a-z]+=/i);
    expect(await decode(svg)).toBe(payload);
  });

  it("is made for HKD payments to a usable FPS id only (fpsQrFor)", async () => {
    const fps: PaymentInstructions = {
      kind: "fps",
      demo: false,
      fpsId: "1648203",
      bank: "HSBC Hong Kong",
      holder: "Harbour Tactical Limited",
      accountNumber: "848-302915-838",
    };
    const qr = await fpsQrFor(fps, 1234_50, "HKD", "ORD-1764000000000-ABCDEF", { merchantName: "Harbour Tactical" });
    expect(qr).toMatchObject({ fpsId: "1648203", amount: "1234.50" });
    const decoded = await decode(qr?.svg ?? "");
    expect(new Map(parseTlv(decoded ?? "")).get("62")).toBe("0124ORD-1764000000000-ABCDEF");
    expect(new Map(parseTlv(decoded ?? "")).get("59")).toBe("Harbour Tactical");
    expect(await fpsQrFor(fps, 1234_50, "GBP")).toBeNull();
    expect(await fpsQrFor({ ...fps, fpsId: null }, 1234_50, "HKD")).toBeNull();
    expect(await fpsQrFor({ ...fps, fpsId: "2345 6789" }, 1234_50, "HKD")).toBeNull();
    expect(await fpsQrFor({ kind: "contact", supportEmail: "a@b.hk" }, 1234_50, "HKD")).toBeNull();
  });
});

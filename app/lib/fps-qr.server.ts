import QRCode from "qrcode";
import type { Currency } from "#db/schema";
import type { PaymentInstructions } from "~/models/payment-accounts.server";

/*
 * The Hong Kong FPS QR code: an EMVCo merchant-presented payload (EMV QRCPS-MPM) as profiled by
 * HKMA's "Common QR Code Specification for Retail Payments in Hong Kong" and HKICL's
 * "Payee-presented QR Code Specification for FPS". What we followed, field by field:
 *   00 "01"             payload format indicator
 *   01 "12"             point of initiation: dynamic (the code carries this order's amount)
 *   26                  merchant account information, FPS template:
 *       00 "hk.com.hkicl"   globally unique identifier of FPS
 *       02 FPS identifier (7 or 9 digits) | 03 mobile "+852-XXXXXXXX" | 04 e-mail
 *   52 "0000"           merchant category code (none given)
 *   53 "344"            currency, ISO 4217 numeric (HKD)
 *   54 "1234.50"        amount, two decimals
 *   58 "HK"             country
 *   59                  merchant name (ASCII, at most 25)
 *   60 "HK"             merchant city
 *   62                  additional data: 01 bill number (the order number), at most 25
 *   63                  CRC-16/CCITT-FALSE over everything before it including "6304", 4 hex digits
 * Each field is ID + two-digit length + value. Odoo's l10n_hk module (addons/l10n_hk) builds the
 * same template (GUID hk.com.hkicl, proxy in 02/03/04, mobile written "+852-67891234", 58/60 "HK");
 * its test payload checks our CRC in tests/fps-qr.test.ts.
 */

/** CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor) over UTF-8 bytes. */
export function crc16Ccitt(text: string): number {
  let crc = 0xffff;
  for (const byte of new TextEncoder().encode(text)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc;
}

export type FpsProxy = { kind: "id" | "mobile" | "email"; value: string };

/** The FPS template's sub-ID for each kind of proxy. */
const PROXY_FIELD: Record<FpsProxy["kind"], string> = { id: "02", mobile: "03", email: "04" };

/** Room left for the proxy in field 26 (99 characters) after "0012hk.com.hkicl" and its own ID and length. */
const MAX_PROXY = 99 - 16 - 4;

/**
 * The FPS proxy an account's "FPS id" names, or null when it cannot go into a QR code. The bank
 * account form accepts digits with spaces or hyphens (optionally "+…") or an e-mail address:
 * - 7 or 9 digits: an FPS identifier (HKICL issues 7-digit ids, and 9-digit ones since);
 * - 8 digits starting 4-9, "852" + those 8, or "+852" + those 8: a Hong Kong mobile number,
 *   written "+852-XXXXXXXX" as the FPS specification asks;
 * - an ASCII e-mail address short enough for the field.
 * Anything else (a landline, a number abroad, 10 digits) is not guessed at.
 */
export function fpsProxy(fpsId: string | null | undefined): FpsProxy | null {
  const text = fpsId?.trim() ?? "";
  if (!text) return null;
  if (text.includes("@")) {
    return /^[!-~]+@[!-~]+\.[!-~]+$/.test(text) && text.length <= MAX_PROXY ? { kind: "email", value: text } : null;
  }
  if (!/^\+?[0-9][0-9 -]*[0-9]$/.test(text)) return null;
  const plus = text.startsWith("+");
  const digits = text.replace(/[^0-9]/g, "");
  const mobile = (local: string) =>
    /^[4-9][0-9]{7}$/.test(local) ? { kind: "mobile" as const, value: `+852-${local}` } : null;
  if (plus) return digits.startsWith("852") ? mobile(digits.slice(3)) : null;
  if (digits.length === 7 || digits.length === 9) return { kind: "id", value: digits };
  if (digits.length === 8) return mobile(digits);
  if (digits.length === 11 && digits.startsWith("852")) return mobile(digits.slice(3));
  return null;
}

/** One EMV field: ID, two-digit length, value. */
function field(id: string, value: string): string {
  if (value.length > 99) throw new Error(`EMV field ${id} is longer than 99 characters`);
  return `${id}${value.length.toString().padStart(2, "0")}${value}`;
}

/** "1234.50" from 123450 cents, built from the integer (no floating point). */
export function emvAmount(amountCents: number): string {
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) throw new Error(`Not an amount in cents: ${amountCents}`);
  const text = `${Math.floor(amountCents / 100)}.${(amountCents % 100).toString().padStart(2, "0")}`;
  if (text.length > 13) throw new Error(`Amount too large for an EMV QR code: ${amountCents}`);
  return text;
}

/** Printable ASCII only, spaces squeezed, cut to `max` (EMV names are "ans" characters). */
function asciiText(text: string, max: number): string {
  return text
    .normalize("NFKD")
    .replace(/[^ -~]/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, max)
    .trim();
}

/**
 * The FPS payload for a payment of `amountCents` HKD to `proxy` (an account's FPS id, as the
 * bank account form takes it). Throws when the proxy cannot be classified (check with
 * `fpsProxy` first) or the reference is not up to 25 ASCII characters.
 */
export function fpsPayload({
  proxy,
  amountCents,
  merchantName,
  reference,
}: {
  proxy: string;
  amountCents: number;
  merchantName: string;
  reference?: string | null;
}): string {
  const target = fpsProxy(proxy);
  if (!target) throw new Error("Not an FPS id, Hong Kong mobile number or e-mail address");
  if (reference && !/^[ -~]{1,25}$/.test(reference)) throw new Error("A bill number is up to 25 ASCII characters");
  const body = [
    field("00", "01"),
    field("01", "12"),
    field("26", field("00", "hk.com.hkicl") + field(PROXY_FIELD[target.kind], target.value)),
    field("52", "0000"),
    field("53", "344"),
    field("54", emvAmount(amountCents)),
    field("58", "HK"),
    field("59", asciiText(merchantName, 25) || "NA"),
    field("60", "HK"),
    reference ? field("62", field("01", reference)) : "",
  ].join("");
  const withCrcField = `${body}6304`;
  return withCrcField + crc16Ccitt(withCrcField).toString(16).toUpperCase().padStart(4, "0");
}

/** The light border around the symbol, in modules: the 4 that ISO/IEC 18004 asks for. */
export const QUIET_ZONE_MODULES = 4;

/**
 * The QR code as SVG markup, with an accessible name: attributes only (no style, no script), so
 * it sits inline in the page under its Content-Security-Policy. The symbol keeps its full quiet
 * zone inside the SVG, so a reader finds it whatever the page puts around it.
 */
export async function fpsQrSvg(payload: string, label = "FPS QR code"): Promise<string> {
  const key = `${label}\n${payload}`;
  const kept = drawn.get(key);
  if (kept !== undefined) return kept;
  const symbol = await QRCode.toString(payload, {
    type: "svg",
    errorCorrectionLevel: "M",
    margin: QUIET_ZONE_MODULES,
  });
  const name = label.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`);
  const svg = symbol.replace(/^<svg /, `<svg role="img" aria-label="${name}" `);
  drawn.set(key, svg);
  if (drawn.size > DRAWN_CODES) drawn.delete(drawn.keys().next().value as string);
  return svg;
}

/**
 * Codes drawn lately, by label and payload (amount, order number): the payment page is shown
 * again for the same code (a refused payment, a reload, the order page) and drawing one is a
 * twentieth of the page's CPU (decision 069). A few KB each.
 */
const drawn = new Map<string, string>();
const DRAWN_CODES = 200;

export interface FpsQr {
  /** Inline SVG markup of the QR code. */
  svg: string;
  /** The FPS id as the shop's settings show it (for copying by hand). */
  fpsId: string;
  /** The amount as the payload carries it, "1234.50". */
  amount: string;
}

/**
 * The FPS QR code for paying `amountCents` under these instructions, or null when there is none
 * to show: not HKD, not FPS, or an FPS id the format cannot carry. `reference` is the order
 * number (on the payment page, the one the order will have: reserved at checkout);
 * `merchantName` the shop's English name.
 */
export async function fpsQrFor(
  instructions: PaymentInstructions,
  amountCents: number,
  currency: Currency,
  reference?: string | null,
  options: { merchantName?: string; label?: string } = {},
): Promise<FpsQr | null> {
  if (currency !== "HKD" || instructions.kind !== "fps" || !instructions.fpsId) return null;
  if (!fpsProxy(instructions.fpsId) || !Number.isSafeInteger(amountCents) || amountCents <= 0) return null;
  const payload = fpsPayload({
    proxy: instructions.fpsId,
    amountCents,
    merchantName: options.merchantName ?? instructions.holder,
    reference,
  });
  return {
    svg: await fpsQrSvg(payload, options.label),
    fpsId: instructions.fpsId,
    amount: emvAmount(amountCents),
  };
}

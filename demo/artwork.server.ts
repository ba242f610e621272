import sharp from "sharp";
import type { ArtKind } from "../db/seed/catalogue";

/**
 * Demo artwork, drawn as SVG and encoded to WebP with sharp: studio-style product shots, category
 * tiles and a dark hero banner. No text is drawn (fonts may be missing on the server), nothing is
 * downloaded. Every item is a flat silhouette in its variant's colour with a soft shadow, a sheen
 * and a few darker details, all drawn in a local 1000-unit space and fitted into the frame.
 */

export const PRODUCT_IMAGE_SIZE = 800;
export const CATEGORY_IMAGE_SIZE = { width: 1200, height: 800 } as const;
export const HERO_IMAGE_SIZE = { width: 2400, height: 1000 } as const;
export const BLOG_IMAGE_SIZE = { width: 1600, height: 900 } as const;

const WEBP = { quality: 80, effort: 2 } as const;

// ---------------------------------------------------------------------------------------------
// Colours

type Rgb = [number, number, number];

const NAMED_COLOURS: Record<string, string> = {
  black: "#2c2f33",
  tan: "#c2a77a",
  "olive drab": "#5c6139",
  grey: "#80858b",
  gray: "#80858b",
  "coyote brown": "#84674a",
  "ranger green": "#4b5842",
  "dark earth": "#7b6347",
  wood: "#7a5232",
  white: "#e4e4e0",
  red: "#9b2f2a",
  blue: "#2f4f7a",
  green: "#4f6b3a",
};

/** Colour of "Default" variants, per kind of item. */
const DEFAULT_TONES: Partial<Record<ArtKind, string>> = {
  "bb-bottle": "#ecebe4",
  "bb-bag": "#3f6d4c",
  battery: "#323b47",
  "pistol-spring": "#34373b",
};

const MULTICAM_TONE = "#a2936d";

function toRgb(hex: string): Rgb {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

function toHex([r, g, b]: Rgb): string {
  const part = (c: number) =>
    Math.round(Math.min(255, Math.max(0, c)))
      .toString(16)
      .padStart(2, "0");
  return `#${part(r)}${part(g)}${part(b)}`;
}

function mix(a: string, b: string, t: number): string {
  const x = toRgb(a);
  const y = toRgb(b);
  return toHex([x[0] + (y[0] - x[0]) * t, x[1] + (y[1] - x[1]) * t, x[2] + (y[2] - x[2]) * t]);
}

/** amount < 0 darkens towards black, > 0 lightens towards white. */
function shade(hex: string, amount: number): string {
  return amount < 0 ? mix(hex, "#000000", -amount) : mix(hex, "#ffffff", amount);
}

/** A stable colour for names the table does not know (an operator may add "Sand" later). */
function hashedTone(name: string): string {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  const hue = hash % 360;
  const [r, g, b] = hslToRgb(hue, 0.25, 0.42);
  return toHex([r, g, b]);
}

function hslToRgb(h: number, s: number, l: number): Rgb {
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return [f(0) * 255, f(8) * 255, f(4) * 255];
}

interface Palette {
  /** Paint of the silhouette: a colour or the camouflage pattern. */
  fill: string;
  /** A plain colour representing the fill, for details. */
  tone: string;
  dark: string;
  deep: string;
  light: string;
  metal: string;
  steel: string;
  /** Prefix for ids defined by this item (patterns, gradients). */
  id: string;
  defs: string;
}

function palette(art: ArtKind, color: string, id: string): Palette {
  const key = color.trim().toLowerCase();
  const camo = key === "multi-terrain camo";
  const tone = camo
    ? MULTICAM_TONE
    : key === "default"
      ? (DEFAULT_TONES[art] ?? "#2f3236")
      : (NAMED_COLOURS[key] ?? hashedTone(key));
  return {
    fill: camo ? `url(#${id}-camo)` : tone,
    tone,
    dark: shade(tone, -0.32),
    deep: shade(tone, -0.55),
    light: shade(tone, 0.3),
    metal: "#25282c",
    steel: "#5b6067",
    id,
    defs: camo ? camoPattern(`${id}-camo`) : "",
  };
}

function camoPattern(id: string): string {
  // Irregular tan, brown and green blobs with thin dark "branches", tiled every 180 units.
  return `<pattern id="${id}" patternUnits="userSpaceOnUse" width="180" height="180">
<rect width="180" height="180" fill="${MULTICAM_TONE}"/>
<path d="M-4,26 C14,8 46,22 58,10 C72,0 92,18 84,36 C78,52 52,48 40,60 C26,72 4,62 -4,48 Z" fill="#7b7150"/>
<path d="M176,26 C194,8 226,22 238,10 L240,60 C226,72 184,62 176,48 Z" fill="#7b7150"/>
<path d="M104,8 C122,-2 150,6 156,22 C162,36 144,40 150,54 C154,66 132,70 122,58 C112,46 96,36 98,22 Z" fill="#c7b893"/>
<path d="M112,96 C130,84 160,92 170,110 C180,128 164,140 168,156 C170,170 146,176 134,164 C124,152 108,150 104,134
C100,118 98,104 112,96 Z" fill="#5e5a3b"/>
<path d="M18,106 C34,96 58,104 62,120 C66,134 50,136 54,150 C58,164 38,170 26,160 C14,150 4,138 8,124 Z"
fill="#8a6f4c"/>
<path d="M66,70 C76,64 90,70 88,82 C86,92 74,92 70,100 C64,108 52,100 54,90 C56,80 58,74 66,70 Z" fill="#3f4a2e"/>
<path d="M140,60 C150,56 162,62 160,72 C158,80 148,80 142,78 C134,76 132,64 140,60 Z" fill="#d9cba8"/>
<path d="M30,0 L34,0 L48,28 L44,30 Z M96,120 L100,116 L130,150 L126,153 Z M150,170 L154,168 L170,180 L164,180 Z"
fill="#4b4330"/>
</pattern>`;
}

// ---------------------------------------------------------------------------------------------
// SVG helpers (numbers are rounded so the markup stays small)

const num = (value: number) => Math.round(value * 10) / 10;
const attrs = (extra: string) => (extra ? ` ${extra}` : "");
const fill = (color: string) => `fill="${color}"`;
const line = (color: string, width: number) =>
  `fill="none" stroke="${color}" stroke-width="${width}" stroke-linecap="round" stroke-linejoin="round"`;
const EVENODD = `fill-rule="evenodd"`;

function R(x: number, y: number, w: number, h: number, rx = 0, extra = ""): string {
  const radius = rx ? ` rx="${num(rx)}"` : "";
  return `<rect x="${num(x)}" y="${num(y)}" width="${num(w)}" height="${num(h)}"${radius}${attrs(extra)}/>`;
}

function P(d: string, extra = ""): string {
  return `<path d="${d}"${attrs(extra)}/>`;
}

function C(cx: number, cy: number, r: number, extra = ""): string {
  return `<circle cx="${num(cx)}" cy="${num(cy)}" r="${num(r)}"${attrs(extra)}/>`;
}

function E(cx: number, cy: number, rx: number, ry: number, extra = ""): string {
  return `<ellipse cx="${num(cx)}" cy="${num(cy)}" rx="${num(rx)}" ry="${num(ry)}"${attrs(extra)}/>`;
}

function G(transform: string, ...children: string[]): string {
  return `<g transform="${transform}">${children.join("")}</g>`;
}

function repeat(count: number, draw: (i: number) => string): string {
  return Array.from({ length: count }, (_, i) => draw(i)).join("");
}

/** Deterministic pseudo-random numbers, so every seed draws the same pictures. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---------------------------------------------------------------------------------------------
// Items. `body` shapes carry no fill of their own (they inherit the variant paint, the shadow and
// the sheen); `detail` is drawn on top with explicit colours.

type Box = [x0: number, y0: number, x1: number, y1: number];

interface Item {
  box: Box;
  body: string;
  detail: string;
  defs?: string;
  /** Centre of the close-up shot; the middle of the box when absent. */
  focus?: [number, number];
}

function triggerGuard(x: number, y: number, w = 84, h = 40): string {
  const half = w / 2;
  return P(
    `M${x},${y} h${w} v8 q-6,${h - 6} -${half},${h} h-${half} z ` +
      `M${x + 12},${y + 10} v${h - 18} h${half - 12} q${half - 14},0 ${half - 6},${-(h - 18)} z`,
    EVENODD,
  );
}

function rifleGrip(x: number, y: number, len = 104): string {
  return P(`M${x},${y} h48 l-16,${len} q-4,12 -18,10 l-28,-6 q-11,-3 -8,-15 z`);
}

function railTeeth(x: number, y: number, length: number, color: string, step = 13): string {
  return repeat(Math.max(0, Math.floor((length - 6) / step)), (i) => R(x + 4 + i * step, y, 7, 5, 1, fill(color)));
}

function scopeOnRail(p: Palette, x: number, y: number, len: number): { body: string; detail: string } {
  const bodyParts = [
    R(x + 30, y + 12, len - 60, 26, 12),
    P(`M${x + 8},${y + 6} l40,2 v34 l-40,2 q-8,0 -8,-8 v-22 q0,-8 8,-8 z`),
    P(`M${x + len - 70},${y + 12} l30,-12 h36 q6,0 6,6 v42 q0,6 -6,6 h-36 l-30,-14 z`),
    R(x + len / 2 - 16, y - 8, 30, 22, 3),
    R(x + 70, y + 36, 22, 22, 2),
    R(x + len - 110, y + 36, 22, 22, 2),
  ].join("");
  const detailParts = [
    bodyParts.replaceAll("/>", ` ${fill(p.metal)}/>`),
    R(x + 30, y + 16, len - 60, 5, 2, `${fill("#ffffff")} opacity=".14"`),
    E(x + len + 2, y + 25, 5, 22, fill("#3d5a78")),
    R(x + len / 2 - 16, y - 4, 30, 4, 1, fill("#4a4f56")),
  ].join("");
  return { body: bodyParts, detail: detailParts };
}

interface CarbineOpts {
  stock: "collapsible" | "fixed" | "precision";
  hg: number;
  barrel: number;
  carry?: boolean;
  optic?: "scope" | "dot";
  foregrip?: boolean;
  suppressor?: boolean;
  bipod?: boolean;
  roundHandguard?: boolean;
}

function carbine(p: Palette, o: CarbineOpts): Item {
  const hgEnd = 574 + o.hg;
  const bEnd = hgEnd + o.barrel;
  const b: string[] = [];
  const d: string[] = [];
  let x0 = 112;
  if (o.stock === "collapsible") {
    b.push(R(250, 452, 110, 28, 6));
    b.push(
      P("M122,436 L262,428 Q272,428 272,438 L272,504 L190,560 L132,566 Q116,567 116,552 L116,446 Q116,437 122,436 Z"),
    );
    d.push(
      R(112, 440, 12, 122, 5, fill(p.deep)),
      R(150, 452, 90, 10, 5, fill(p.dark)),
      R(196, 516, 44, 9, 4, fill(p.dark)),
    );
  } else if (o.stock === "fixed") {
    x0 = 88;
    b.push(P("M96,440 L352,454 L352,500 L104,578 Q92,580 92,566 L92,450 Q92,440 96,440 Z"));
    d.push(R(88, 442, 12, 134, 5, fill(p.deep)), P("M130,472 L300,478", line(p.dark, 5)));
  } else {
    x0 = 86;
    b.push(
      P(
        "M92,426 L236,424 L246,404 L336,404 Q352,406 352,424 L352,500 L262,516 L214,568 L104,576 " +
          "Q90,576 90,562 L90,438 Q90,426 92,426 Z",
      ),
    );
    d.push(R(86, 428, 12, 146, 5, fill(p.deep)), R(250, 410, 80, 8, 4, fill(p.dark)), C(160, 500, 10, fill(p.dark)));
  }
  b.push(P("M350,468 L570,468 L570,516 L548,532 L372,532 Q352,532 350,512 Z"));
  b.push(R(346, 418, 230, 54, 6));
  if (o.carry) b.push(P("M366,418 L378,370 L540,370 L552,418 L528,418 L522,392 L396,392 L390,418 Z"));
  else b.push(R(352, 404, 218, 16, 3));
  b.push(rifleGrip(392, 528), triggerGuard(438, 526, 66, 36));
  b.push(P("M506,530 L572,530 Q578,600 612,668 L550,690 Q518,612 506,530 Z"));
  if (o.roundHandguard) b.push(R(574, 424, o.hg, 54, 24));
  else b.push(R(574, 422, o.hg, 58, 8));
  if (!o.carry && !o.roundHandguard) b.push(R(578, 408, o.hg - 8, 16, 3));
  if (o.carry) b.push(P(`M${hgEnd + 24},446 l10,-54 h14 l10,54 z`));
  b.push(R(hgEnd, 443, o.barrel, 16, 3));
  let x1 = bEnd + 34;
  if (o.suppressor) {
    b.push(R(bEnd - 10, 428, 170, 46, 16));
    x1 = bEnd + 160;
  } else {
    b.push(R(bEnd, 436, 34, 30, 4));
  }
  const y1 = 692;
  if (o.foregrip) {
    const fx = 574 + Math.round(o.hg * 0.5);
    b.push(P(`M${fx},478 h42 l-4,100 q-2,12 -14,12 h-10 q-12,0 -14,-12 z`));
    d.push(repeat(3, (i) => R(fx + 6, 510 + i * 22, 28, 6, 3, fill(p.dark))));
  }
  if (o.bipod) {
    const bx = hgEnd - 60;
    b.push(R(bx, 478, 46, 20, 5), R(bx - 150, 494, 190, 14, 6), R(bx - 160, 486, 36, 26, 8));
    d.push(R(bx - 150, 494, 190, 14, 6, fill(p.metal)), R(bx - 160, 486, 36, 26, 8, fill("#111315")));
  }
  let y0 = o.carry ? 370 : 404;
  if (o.optic === "scope") {
    const optic = scopeOnRail(p, 372, 336, 260);
    b.push(optic.body);
    d.push(optic.detail);
    y0 = 326;
  } else if (o.optic === "dot") {
    const dot = [R(476, 360, 84, 40, 12), R(466, 392, 104, 14, 3)].join("");
    b.push(dot);
    d.push(R(476, 360, 84, 40, 12, fill(p.metal)), R(466, 392, 104, 14, 3, fill(p.metal)));
    d.push(E(560, 380, 5, 16, fill("#4a6a5a")), C(500, 364, 8, fill("#3a3e44")));
    y0 = 356;
  }
  // Details
  if (!o.carry) d.push(railTeeth(352, 404, 218, p.deep));
  if (!o.carry && !o.roundHandguard) d.push(railTeeth(578, 408, o.hg - 8, p.deep));
  if (o.roundHandguard) {
    d.push(repeat(Math.floor((o.hg - 30) / 26), (i) => R(592 + i * 26, 436, 12, 30, 6, fill(p.dark))));
  } else {
    d.push(repeat(Math.floor((o.hg - 40) / 52), (i) => R(598 + i * 52, 444, 34, 14, 7, fill(p.dark))));
  }
  d.push(
    R(470, 432, 66, 18, 3, fill(p.dark)),
    P("M478,441 L528,441", line(p.deep, 3)),
    R(336, 424, 16, 14, 3, fill(p.deep)),
    P("M502,532 L576,532", line(p.dark, 4)),
    P("M528,604 L585,597 M536,636 L596,628", line(p.dark, 4)),
    C(418, 490, 7, fill(p.deep)),
    P("M462,532 q8,12 0,24", line(p.deep, 6)),
    P("M398,560 L430,562 M394,586 L426,588", line(p.dark, 4)),
    R(hgEnd, 443, o.barrel, 16, 3, fill(p.metal)),
    R(hgEnd, 446, o.barrel, 3, 1, `${fill("#ffffff")} opacity=".18"`),
  );
  if (o.suppressor) {
    d.push(
      R(bEnd - 10, 428, 170, 46, 16, fill(p.metal)),
      R(bEnd + 4, 434, 140, 8, 4, `${fill("#ffffff")} opacity=".15"`),
    );
  } else {
    d.push(R(bEnd, 436, 34, 30, 4, fill(p.metal)), R(bEnd + 8, 441, 18, 5, 2, fill("#0d0e10")));
    d.push(R(bEnd + 8, 456, 18, 5, 2, fill("#0d0e10")));
  }
  if (o.carry)
    d.push(P("M404,392 L520,392", line(p.dark, 4)), P(`M${hgEnd + 34},420 L${hgEnd + 44},420`, line(p.deep, 4)));
  return { box: [x0, y0, x1, y1], body: b.join(""), detail: d.join(""), focus: [470, 500] };
}

function ak(p: Palette): Item {
  const b = [
    P("M95,452 L332,462 L332,508 L105,574 Q92,576 92,560 L92,462 Q92,452 95,452 Z"),
    P("M325,440 L592,440 L592,508 L325,508 Z"),
    P("M330,440 Q336,420 362,418 L566,420 L592,440 Z"),
    rifleGrip(406, 506, 100),
    triggerGuard(452, 506, 80, 36),
    P("M492,506 L560,506 Q580,600 652,664 L598,702 Q518,620 492,506 Z"),
    P("M592,446 L738,446 L738,502 L600,508 Z"),
    R(592, 420, 192, 20, 8),
    R(736, 458, 164, 14, 2),
    P("M842,458 L852,416 L870,416 L874,458 Z"),
    R(896, 452, 38, 26, 4),
  ].join("");
  const d = [
    P("M330,440 Q336,420 362,418 L566,420 L592,440 Z", fill(p.metal)),
    R(325, 440, 267, 68, 0, fill(p.metal)),
    R(325, 446, 267, 4, 0, `${fill("#ffffff")} opacity=".12"`),
    triggerGuard(452, 506, 80, 36).replace("/>", ` ${fill(p.metal)}/>`),
    P("M492,506 L560,506 Q580,600 652,664 L598,702 Q518,620 492,506 Z", fill(p.metal)),
    P("M512,560 L568,552 M530,610 L590,598 M556,650 L618,634", line("#3a3e44", 4)),
    R(592, 420, 192, 20, 8, fill(p.metal)),
    R(736, 458, 164, 14, 2, fill(p.metal)),
    P("M842,458 L852,416 L870,416 L874,458 Z", fill(p.metal)),
    R(896, 452, 38, 26, 4, fill(p.metal)),
    R(470, 452, 90, 14, 3, fill("#101214")),
    P("M372,462 L460,456", line("#3f444b", 6)),
    P("M620,466 L720,466 M620,486 L720,486", line(p.dark, 4)),
    P("M130,480 L300,488", line(p.dark, 4)),
    R(88, 456, 10, 118, 4, fill(p.deep)),
  ].join("");
  return { box: [88, 414, 934, 704], body: b, detail: d, focus: [480, 500] };
}

function bullpup(p: Palette): Item {
  const b = [
    P("M150,440 L612,428 L642,470 L642,522 L520,532 L420,532 L300,562 L170,562 Q150,562 150,542 Z"),
    R(138, 438, 18, 126, 6),
    rifleGrip(472, 526, 104),
    P("M520,528 L604,528 Q614,602 562,612 L508,612 L512,592 L552,592 Q582,590 582,548 L520,548 Z"),
    P("M250,552 L312,552 Q320,622 342,682 L286,698 Q262,628 250,552 Z"),
    R(300, 410, 310, 20, 3),
    R(640, 470, 170, 16, 3),
    R(806, 463, 40, 30, 5),
  ].join("");
  const d = [
    railTeeth(300, 410, 310, p.deep),
    R(138, 438, 18, 126, 6, fill(p.deep)),
    P("M190,470 L400,464", line(p.dark, 6)),
    R(330, 470, 70, 18, 4, fill(p.dark)),
    P("M560,448 L630,446 L630,470 L560,474 Z", fill(p.dark)),
    P("M268,600 L318,594 M276,640 L330,632", line(p.dark, 4)),
    R(640, 470, 170, 16, 3, fill(p.metal)),
    R(806, 463, 40, 30, 5, fill(p.metal)),
    P("M504,534 q8,14 0,30", line(p.deep, 6)),
  ].join("");
  return { box: [138, 408, 846, 700], body: b, detail: d, focus: [420, 500] };
}

function sniper(p: Palette): Item {
  const scope = scopeOnRail(p, 292, 372, 380);
  const b = [
    P(
      "M88,462 Q90,450 104,450 L150,452 L340,478 L420,474 L702,472 L712,480 L712,508 L430,514 L398,560 " +
        "Q388,576 372,572 L356,566 L372,522 L320,524 L220,566 L104,574 Q88,574 88,560 Z",
    ),
    R(705, 478, 245, 15, 3),
    scope.body,
    P("M372,478 L390,478 L404,520 Q414,530 406,540 Q394,548 386,536 Z"),
    triggerGuard(426, 512, 70, 34),
  ].join("");
  const d = [
    R(84, 452, 12, 122, 5, fill(p.deep)),
    P("M150,470 L330,492", line(p.dark, 5)),
    R(705, 478, 245, 15, 3, fill(p.metal)),
    repeat(6, (i) => R(740 + i * 28, 481, 16, 4, 2, fill("#3b4046"))),
    scope.detail,
    P("M372,478 L390,478 L404,520 Q414,530 406,540 Q394,548 386,536 Z", fill(p.metal)),
    C(400, 534, 11, fill(p.steel)),
    P("M470,490 L690,488", line(p.dark, 4)),
    P("M376,530 L392,552", line(p.dark, 3)),
  ].join("");
  return { box: [84, 360, 950, 578], body: b, detail: d, focus: [420, 470] };
}

function smg(p: Palette): Item {
  const b = [
    P("M130,440 L336,448 L336,500 L146,562 Q130,566 130,550 Z M160,464 L306,468 L306,486 L160,530 Z", EVENODD),
    R(330, 430, 292, 60, 10),
    R(342, 416, 262, 16, 3),
    rifleGrip(400, 486, 100),
    triggerGuard(448, 486, 76, 36),
    P("M536,486 L582,486 L588,640 L540,642 Z"),
    P("M616,488 h40 l-4,96 q-2,12 -14,12 h-8 q-12,0 -14,-12 z"),
    R(620, 440, 112, 42, 8),
    R(730, 452, 60, 18, 3),
    R(786, 447, 30, 28, 4),
  ].join("");
  const d = [
    railTeeth(342, 416, 262, p.deep),
    R(440, 444, 70, 16, 3, fill(p.dark)),
    repeat(3, (i) => R(640 + i * 30, 450, 18, 24, 6, fill(p.dark))),
    P("M546,520 L580,520 M548,560 L582,560 M550,600 L584,600", line(p.dark, 4)),
    R(730, 452, 60, 18, 3, fill(p.metal)),
    R(786, 447, 30, 28, 4, fill(p.metal)),
    P("M476,490 q8,14 0,26", line(p.deep, 6)),
    repeat(3, (i) => R(622, 514 + i * 22, 28, 6, 3, fill(p.dark))),
  ].join("");
  return { box: [130, 414, 816, 644], body: b, detail: d, focus: [480, 500] };
}

interface PistolOpts {
  slide: number;
  style: "polymer" | "1911";
  grip?: number;
  mag?: number;
  comp?: boolean;
  dot?: boolean;
  magwell?: boolean;
}

function pistol(p: Palette, o: PistolOpts): Item {
  const x1 = 250 + o.slide;
  const top = o.style === "1911" ? 390 : 380;
  const grip = o.grip ?? 240;
  const gy = 470 + grip;
  const lean = Math.round(grip * 0.16);
  const b: string[] = [];
  const d: string[] = [];
  b.push(
    P(
      `M262,${top} L${x1 - 8},${top} Q${x1},${top} ${x1},${top + 8} L${x1},462 L250,462 ` +
        `L250,${top + 12} Q250,${top} 262,${top} Z`,
    ),
  );
  b.push(R(262, 456, x1 - 290, 38, 6));
  b.push(P("M430,488 h120 v10 q-4,62 -70,64 h-50 z M446,500 v40 h36 q46,0 52,-40 z", EVENODD));
  b.push(
    P(
      `M292,470 L418,470 L${418 - lean},${gy} Q${414 - lean},${gy + 16} ${394 - lean},${gy + 14} ` +
        `L${302 - lean},${gy + 4} Q${286 - lean},${gy + 2} ${290 - lean},${gy - 16} Z`,
    ),
  );
  b.push(P("M250,460 Q224,468 234,490 L296,484 Z"));
  const my = gy;
  const ext = o.mag ?? 0;
  if (ext > 0)
    b.push(
      P(
        `M${300 - lean},${my - 30} L${412 - lean},${my - 16} ` +
          `L${404 - lean},${my + ext} L${290 - lean},${my + ext - 14} Z`,
      ),
    );
  b.push(
    P(
      `M${286 - lean},${my + ext - 6} L${420 - lean},${my + ext + 10} ` +
        `L${416 - lean},${my + ext + 30} L${282 - lean},${my + ext + 16} Z`,
    ),
  );
  if (o.magwell)
    b.push(
      P(`M${272 - lean},${my - 24} L${432 - lean},${my - 6} L${426 - lean},${my + 30} L${266 - lean},${my + 12} Z`),
    );
  let xEnd = x1;
  if (o.comp) {
    b.push(R(x1 - 4, top - 6, 74, 98, 10));
    xEnd = x1 + 70;
    d.push(
      R(x1 - 4, top - 6, 74, 98, 10, fill(p.metal)),
      repeat(3, (i) => R(x1 + 12 + i * 18, top - 2, 10, 26, 4, fill("#0e0f11"))),
    );
  }
  let y0 = top - 16;
  if (o.dot) {
    b.push(P(`M322,${top} L330,${top - 52} L420,${top - 52} L432,${top} Z`));
    d.push(P(`M322,${top} L330,${top - 52} L420,${top - 52} L432,${top} Z`, fill(p.metal)));
    d.push(
      P(`M344,${top - 40} L410,${top - 40} L414,${top - 8} L338,${top - 8} Z`, fill("#3c5a70")),
      C(392, top - 24, 4, fill("#ff4a3a")),
    );
    y0 = top - 56;
  }
  // Details
  d.push(repeat(7, (i) => R(272 + i * 12, top + 12, 5, 462 - top - 24, 2, fill(p.dark))));
  d.push(R(x1 - 250, top + 8, 120, 22, 3, fill(p.dark)), R(x1 - 244, top + 12, 96, 10, 2, fill(p.metal)));
  d.push(R(x1 - 32, top - 12, 14, 14, 2, fill(p.deep)), R(262, top - 14, 26, 16, 2, fill(p.deep)));
  d.push(R(x1 - 8, 404, 10, 34, 3, fill("#101214")));
  d.push(R(x1 - 140, 482, 110, 5, 2, fill(p.dark)));
  d.push(P("M470,500 q10,16 0,34", line(p.deep, 7)));
  d.push(P(`M262,${top + 2} L${x1 - 8},${top + 2}`, `${line("#ffffff", 3)} opacity=".18"`));
  if (o.style === "1911") {
    b.push(P(`M236,${top + 6} L252,${top - 16} L266,${top - 10} L262,${top + 8} Z`));
    const panel = P(
      `M302,492 L404,492 L${398 - lean},${gy - 30} L${298 - lean + 12},${gy - 40} Z`,
      fill(mix(p.tone, "#5b3a22", 0.55)),
    );
    d.push(panel, C(352 - lean / 4, 520, 6, fill(p.steel)), C(350 - lean, gy - 60, 6, fill(p.steel)));
  } else {
    const dots = `url(#${p.id}-grip)`;
    d.push(P(`M304,500 L404,500 L${396 - lean},${gy - 30} L${296 - lean + 14},${gy - 40} Z`, fill(dots)));
  }
  const defs = gripPattern(`${p.id}-grip`, p.dark);
  const x0 = Math.min(226, 250 - lean + 20);
  return { box: [x0, y0, xEnd, my + ext + 32], body: b.join(""), detail: d.join(""), defs, focus: [400, 470] };
}

function gripPattern(id: string, color: string): string {
  const dot = C(7, 7, 3, fill(color));
  return `<pattern id="${id}" patternUnits="userSpaceOnUse" width="14" height="14">${dot}</pattern>`;
}

function revolver(p: Palette): Item {
  const b = [
    R(470, 396, 300, 40, 6),
    R(470, 436, 262, 26, 6),
    P("M330,400 L480,392 L480,470 L440,500 L380,500 L330,470 Z"),
    R(360, 404, 122, 76, 14),
    P("M340,440 Q300,450 280,520 Q262,600 282,660 Q290,680 312,680 L360,676 Q376,600 380,520 L392,480 Z"),
    P("M322,404 L300,378 Q296,370 306,368 L342,398 Z"),
    P("M380,490 h92 q-4,60 -56,62 h-36 z M396,500 v40 h18 q38,0 42,-40 z", EVENODD),
    P("M742,396 l8,-20 h16 l4,20 z"),
  ].join("");
  const d = [
    R(360, 404, 122, 76, 14, fill(p.dark)),
    repeat(4, (i) => R(372 + i * 26, 414, 14, 56, 7, fill(p.deep))),
    P("M480,404 L770,404", `${line("#ffffff", 4)} opacity=".2"`),
    R(764, 404, 8, 26, 2, fill("#0e0f11")),
    P("M300,520 Q296,590 312,650 L352,648 Q362,590 366,520 Z", fill(mix(p.tone, "#5b3a22", 0.6))),
    C(334, 580, 5, fill(p.steel)),
    P("M420,500 q10,16 0,32", line(p.deep, 7)),
    P("M492,450 L720,450", line(p.dark, 3)),
  ].join("");
  return { box: [278, 366, 772, 682], body: b, detail: d, focus: [440, 480] };
}

interface ShotgunOpts {
  stock: "full" | "collapsible" | "none";
  barrel: number;
  shield?: boolean;
  shells?: boolean;
}

function shotgun(p: Palette, o: ShotgunOpts): Item {
  const end = 540 + o.barrel;
  const b: string[] = [];
  const d: string[] = [];
  let x0 = 74;
  if (o.stock === "full") {
    b.push(P("M74,450 Q74,438 88,438 L342,434 L342,496 L300,504 L140,580 L90,586 Q74,588 74,572 Z"));
    d.push(R(70, 442, 12, 144, 5, fill(p.deep)), P("M120,470 L320,462", line(p.dark, 5)));
  } else if (o.stock === "collapsible") {
    x0 = 112;
    b.push(R(240, 452, 110, 28, 6));
    b.push(
      P("M122,436 L252,428 Q262,428 262,438 L262,504 L180,560 L132,566 Q116,567 116,552 L116,446 Q116,437 122,436 Z"),
    );
    b.push(rifleGrip(370, 490, 104));
    d.push(R(112, 440, 12, 122, 5, fill(p.deep)), R(150, 452, 80, 10, 5, fill(p.dark)));
  } else {
    x0 = 300;
    b.push(rifleGrip(344, 490, 110));
    d.push(P("M330,540 L366,542 M326,570 L362,572", line(p.dark, 4)));
  }
  b.push(R(340, 430, 200, 64, 8));
  b.push(triggerGuard(420, 492, 80, 36));
  b.push(R(540, 434, o.barrel, 22, 4));
  b.push(R(540, 460, o.barrel - 60, 24, 8));
  const pumpX = o.barrel > 250 ? 600 : 560;
  b.push(R(pumpX, 452, 160, 48, 14));
  b.push(C(end - 8, 432, 5));
  d.push(
    R(340, 430, 200, 64, 8, fill(p.metal)),
    R(352, 440, 176, 4, 2, `${fill("#ffffff")} opacity=".14"`),
    R(390, 452, 80, 18, 3, fill("#121316")),
    R(540, 434, o.barrel, 22, 4, fill(p.metal)),
    R(540, 460, o.barrel - 60, 24, 8, fill(p.steel)),
    R(pumpX, 452, 160, 48, 14, fill(p.fill)),
    repeat(7, (i) => R(pumpX + 14 + i * 19, 456, 8, 40, 4, fill(p.dark))),
    P("M448,496 q10,14 0,28", line(p.deep, 6)),
    R(end - 4, 436, 6, 18, 2, fill("#0e0f11")),
  );
  if (o.shield) {
    b.push(R(560, 420, o.barrel - 40, 22, 6));
    d.push(R(560, 420, o.barrel - 40, 22, 6, fill(p.metal)));
    d.push(repeat(Math.floor((o.barrel - 60) / 26), (i) => C(578 + i * 26, 431, 6, fill("#0e0f11"))));
  }
  if (o.shells) {
    d.push(repeat(4, (i) => R(360 + i * 26, 498 + (i % 2) * 4, 18, 42, 5, fill("#b3352c"))));
    d.push(repeat(4, (i) => R(360 + i * 26, 530 + (i % 2) * 4, 18, 12, 2, fill("#c9a24a"))));
  }
  return { box: [x0, 418, end, 620], body: b.join(""), detail: d.join(""), focus: [440, 480] };
}

function doubleBarrel(p: Palette): Item {
  const b = [
    P("M74,452 Q74,440 88,440 L370,438 L372,492 L320,500 L140,580 L90,586 Q74,588 74,572 Z"),
    R(360, 424, 110, 72, 10),
    R(466, 414, 420, 26, 6),
    R(466, 442, 420, 26, 6),
    P("M480,466 L700,466 L690,500 L500,504 Z"),
    triggerGuard(400, 494, 76, 36),
  ].join("");
  const d = [
    R(70, 444, 12, 142, 5, fill(p.deep)),
    P("M110,476 L340,468", line(p.dark, 4)),
    P("M120,520 Q220,500 330,486", line(p.dark, 3)),
    R(360, 424, 110, 72, 10, fill(p.steel)),
    P("M380,446 Q410,430 440,446 Q420,470 384,470 Z", fill("#7d838a")),
    R(466, 414, 420, 26, 6, fill(p.metal)),
    R(466, 442, 420, 26, 6, fill(p.metal)),
    R(466, 418, 420, 4, 2, `${fill("#ffffff")} opacity=".2"`),
    P("M500,480 L680,480", line(p.dark, 4)),
    P("M430,498 q10,14 0,28", line(p.deep, 6)),
    C(880, 412, 5, fill("#c9a24a")),
  ].join("");
  return { box: [70, 406, 886, 600], body: b, detail: d, focus: [420, 470] };
}

function opticScope(p: Palette, len: number, bell: number): Item {
  const x = 300;
  const end = x + len;
  const mid = x + len / 2 - 20;
  const b = [
    R(x, 466, len, 46, 20),
    P(`M250,456 L${x + 30},460 L${x + 30},518 L250,522 Q236,522 236,510 L236,468 Q236,456 250,456 Z`),
    P(
      `M${end - 50},466 L${end + 10},${466 - bell} L${end + 70},${466 - bell} Q${end + 80},${466 - bell} ${end + 80},` +
        `${476 - bell} L${end + 80},${502 + bell} Q${end + 80},${512 + bell} ${end + 70},${512 + bell} L${end + 10},` +
        `${512 + bell} L${end - 50},512 Z`,
    ),
    R(mid, 418, 52, 50, 6),
    R(mid - 4, 410, 60, 16, 4),
    R(x + 80, 508, 42, 54, 6),
    R(end - 130, 508, 42, 54, 6),
    R(x + 40, 556, len - 60, 22, 4),
    R(x + 2, 436, 12, 32, 3),
  ].join("");
  const d = [
    repeat(6, (i) => R(mid + 4 + i * 8, 412, 4, 12, 1, fill(p.deep))),
    C(mid + 26, 490, 16, fill(p.dark)),
    R(x, 472, len, 6, 3, `${fill("#ffffff")} opacity=".16"`),
    E(end + 80, 489, 6, 22 + bell, fill("#3b6f8f")),
    E(end + 80, 482, 3, 10, `${fill("#ffffff")} opacity=".5"`),
    R(x + 88, 520, 26, 8, 3, fill(p.deep)),
    R(end - 122, 520, 26, 8, 3, fill(p.deep)),
    railTeeth(x + 40, 572, len - 60, p.deep, 16),
    repeat(5, (i) => R(244, 462 + i * 12, 60, 4, 2, fill(p.dark))),
  ].join("");
  return { box: [236, 404, end + 80, 580], body: b, detail: d };
}

function redDot(p: Palette): Item {
  const b = [
    P("M360,430 Q360,396 394,396 L596,396 Q630,396 630,430 L630,540 L360,540 Z"),
    R(330, 536, 330, 40, 6),
    R(470, 370, 56, 30, 6),
    C(430, 468, 24),
    E(640, 468, 40, 84),
  ].join("");
  const lens = `url(#${p.id}-lens)`;
  const d = [
    E(640, 468, 40, 84, fill(p.dark)),
    E(646, 468, 28, 68, fill(lens)),
    C(646, 462, 6, `${fill("#ff3b2f")} opacity=".95"`),
    C(646, 462, 14, `${fill("#ff3b2f")} opacity=".25"`),
    R(360, 404, 270, 8, 4, `${fill("#ffffff")} opacity=".15"`),
    repeat(5, (i) => R(474 + i * 10, 374, 4, 22, 1, fill(p.deep))),
    C(430, 468, 24, fill(p.dark)),
    C(430, 468, 10, fill(p.deep)),
    railTeeth(334, 566, 322, p.deep, 18),
    R(350, 544, 40, 20, 4, fill(p.steel)),
  ].join("");
  const defs = `<radialGradient id="${p.id}-lens" cx="40%" cy="35%" r="70%">
<stop offset="0" stop-color="#7fb0c9"/><stop offset=".5" stop-color="#2c5670"/><stop offset="1" stop-color="#122a3a"/>
</radialGradient>`;
  return { box: [330, 366, 680, 578], body: b, detail: d, defs };
}

function rifleMagazine(p: Palette): Item {
  const mag = "M440,250 L556,250 L560,330 Q574,520 630,720 L522,752 Q458,540 446,330 Z";
  const base = "M514,744 L636,712 L646,740 L522,774 Z";
  const offsets: [number, number][] = [
    [-150, 20],
    [0, 0],
    [150, 20],
  ];
  const at = ([dx, dy]: [number, number], ...children: string[]) => G(`translate(${dx} ${dy})`, ...children);
  const body = offsets.map((o) => at(o, P(mag), P(base), R(452, 230, 92, 24, 4))).join("");
  const detail = offsets
    .map((o) =>
      at(
        o,
        P(base, fill(p.deep)),
        R(452, 230, 92, 24, 4, fill(p.metal)),
        C(480, 226, 12, fill("#f0efe8")),
        C(512, 222, 12, fill("#e6e4dc")),
        P("M460,360 L566,356 M466,440 L580,432 M478,520 L596,508 M494,600 L612,586", line(p.dark, 5)),
        R(452, 262, 14, 400, 7, `${fill("#ffffff")} opacity=".15"`),
      ),
    )
    .join("");
  return { box: [270, 196, 800, 800], body, detail };
}

function pistolMagazine(p: Palette): Item {
  const body = G(
    "rotate(-10 500 480)",
    R(440, 200, 120, 520, 14),
    R(424, 708, 152, 44, 12),
    P("M446,200 L454,172 L546,172 L554,200 Z"),
  );
  const detail = G(
    "rotate(-10 500 480)",
    R(424, 708, 152, 44, 12, fill(p.deep)),
    P("M446,200 L454,172 L546,172 L554,200 Z", fill(p.metal)),
    C(486, 170, 12, fill("#d9b45a")),
    C(514, 168, 12, fill("#e6c46a")),
    repeat(5, (i) => C(500, 290 + i * 80, 9, fill(p.deep))),
    R(450, 210, 12, 490, 6, `${fill("#ffffff")} opacity=".14"`),
    C(500, 730, 12, fill("#b08a3c")),
  );
  return { box: [360, 150, 660, 780], body, detail };
}

const BBS: [number, number][] = [
  [300, 792],
  [334, 806],
  [270, 812],
  [676, 798],
  [708, 782],
  [724, 810],
  [648, 812],
];

function bbSpheres(id: string): { body: string; detail: string } {
  return {
    body: BBS.map(([x, y]) => C(x, y, 15)).join(""),
    detail: BBS.map(([x, y]) => C(x, y, 15, fill(`url(#${id}-bb)`))).join(""),
  };
}

function bbDefs(id: string): string {
  return `<radialGradient id="${id}-bb" cx="35%" cy="30%" r="70%">
<stop offset="0" stop-color="#ffffff"/><stop offset=".6" stop-color="#e3e2dc"/><stop offset="1" stop-color="#a9a8a2"/>
</radialGradient>`;
}

function bbBottle(p: Palette): Item {
  const bbs = bbSpheres(p.id);
  const bottle =
    "M380,330 Q380,300 410,296 L590,296 Q620,300 620,330 L620,780 Q620,806 592,806 L408,806 Q380,806 380,780 Z";
  const body = [P(bottle), R(400, 232, 200, 72, 12), bbs.body].join("");
  const detail = [
    R(400, 232, 200, 72, 12, fill("#23272c")),
    repeat(9, (i) => R(410 + i * 21, 240, 8, 56, 3, fill("#363b42"))),
    R(380, 440, 240, 230, 0, fill("#2d5e8c")),
    R(380, 470, 240, 14, 0, fill("#e0b23a")),
    C(500, 580, 46, fill("#f2f1ea")),
    C(500, 580, 30, fill(`url(#${p.id}-bb)`)),
    R(392, 320, 18, 460, 9, `${fill("#ffffff")} opacity=".35"`),
    bbs.detail,
  ].join("");
  return { box: [255, 232, 740, 828], body, detail, defs: bbDefs(p.id) };
}

function bbBag(p: Palette): Item {
  const bbs = bbSpheres(p.id);
  const bag = "M330,250 L670,250 L690,780 Q690,802 668,802 L332,802 Q310,802 310,780 Z";
  const body = [P(bag), bbs.body].join("");
  const detail = [
    R(334, 284, 332, 14, 4, fill(p.dark)),
    R(334, 264, 332, 8, 3, fill(p.deep)),
    R(390, 500, 220, 220, 26, fill("#dcdcd4")),
    repeat(16, (i) => C(420 + (i % 4) * 52, 530 + Math.floor(i / 4) * 52, 20, fill(`url(#${p.id}-bb)`))),
    P("M420,380 Q500,330 580,380 Q500,430 420,380 Z", fill("#a7c47a")),
    P("M430,380 L570,380", line("#3f6d4c", 4)),
    R(344, 310, 14, 460, 7, `${fill("#ffffff")} opacity=".2"`),
    bbs.detail,
  ].join("");
  return { box: [255, 250, 740, 828], body, detail, defs: bbDefs(p.id) };
}

function battery(_p: Palette): Item {
  const body = [R(250, 430, 460, 120, 24)].join("");
  const detail = [
    R(330, 444, 300, 92, 8, fill("#e0b23a")),
    R(350, 470, 180, 14, 4, fill("#2a2d31")),
    R(350, 496, 120, 10, 4, fill("#2a2d31")),
    R(560, 462, 50, 50, 6, fill("#ffffff")),
    R(260, 436, 440, 10, 5, `${fill("#ffffff")} opacity=".18"`),
    P("M710,466 C770,466 780,420 830,420", line("#c8322b", 10)),
    P("M710,486 C780,486 790,440 830,440", line("#1b1c1e", 10)),
    R(826, 404, 56, 52, 8, fill("#2b2e33")),
    P("M710,520 C760,530 770,590 820,600", line("#e8e8e8", 5)),
    P("M710,530 C754,540 764,600 820,612", line("#1b1c1e", 5)),
    R(816, 590, 34, 30, 4, fill("#f0f0ec")),
  ].join("");
  return { box: [250, 400, 884, 624], body, detail };
}

function sling(p: Palette): Item {
  const loop = "M300,300 C200,420 220,700 420,760 C620,820 800,680 760,480 C730,340 560,250 420,280";
  const body = [
    P(loop, `fill="none" stroke-width="42" stroke-linecap="round"`),
    P("M250,420 C230,520 260,640 340,710", `fill="none" stroke-width="70" stroke-linecap="round"`),
  ].join("");
  const detail = [
    P("M250,420 C230,520 260,640 340,710", line(p.dark, 4)),
    P(loop, `${line("#ffffff", 3)} opacity=".2" stroke-dasharray="14 10"`),
    G("rotate(-30 420 280)", R(390, 262, 64, 40, 8, fill(p.metal)), R(404, 272, 36, 20, 4, fill(p.tone))),
    G("rotate(40 730 620)", R(700, 600, 62, 40, 8, fill(p.metal)), R(714, 610, 34, 20, 4, fill(p.tone))),
    C(300, 300, 26, fill(p.steel)),
    C(300, 300, 12, fill(p.metal)),
  ].join("");
  return { box: [190, 230, 800, 810], body, detail };
}

function foregrip(p: Palette): Item {
  const body = [
    P("M440,400 L560,400 L555,700 Q552,740 512,740 L488,740 Q448,740 445,700 Z"),
    R(380, 356, 240, 54, 8),
  ].join("");
  const detail = [
    repeat(6, (i) => R(456, 450 + i * 40, 88, 10, 5, fill(p.dark))),
    railTeeth(384, 356, 232, p.deep, 16),
    C(400, 392, 10, fill(p.steel)),
    C(600, 392, 10, fill(p.steel)),
    E(500, 738, 40, 8, fill(p.deep)),
    R(446, 404, 10, 300, 5, `${fill("#ffffff")} opacity=".15"`),
  ].join("");
  return { box: [380, 350, 620, 748], body, detail };
}

function suppressor(p: Palette): Item {
  const body = [R(160, 466, 46, 48, 6), R(200, 430, 560, 120, 26), R(744, 426, 40, 128, 14)].join("");
  const detail = [
    R(160, 466, 46, 48, 6, fill(p.steel)),
    repeat(4, (i) => R(164 + i * 10, 468, 4, 44, 1, fill(p.metal))),
    R(214, 444, 530, 16, 8, `${fill("#ffffff")} opacity=".2"`),
    P("M300,434 L300,546 M660,434 L660,546", line(p.dark, 4)),
    R(744, 426, 40, 128, 14, fill(p.dark)),
    E(784, 490, 6, 18, fill("#0d0e10")),
  ].join("");
  return { box: [160, 420, 790, 560] as Box, body, detail };
}

function bipod(p: Palette): Item {
  const leg = (angle: number, cx: number) =>
    G(
      `rotate(${angle} ${cx} 380)`,
      R(cx - 16, 370, 32, 300, 10),
      R(cx - 12, 660, 24, 90, 8),
      R(cx - 22, 740, 44, 40, 14),
    );
  const body = [leg(24, 470), leg(-24, 530), R(400, 300, 200, 70, 10), C(500, 370, 34)].join("");
  const legDetail = (angle: number, cx: number) =>
    G(
      `rotate(${angle} ${cx} 380)`,
      R(cx - 12, 660, 24, 90, 8, fill(p.steel)),
      repeat(4, (i) => C(cx, 676 + i * 18, 4, fill(p.metal))),
      R(cx - 22, 740, 44, 40, 14, fill("#151618")),
    );
  const detail = [
    legDetail(24, 470),
    legDetail(-24, 530),
    railTeeth(400, 300, 200, p.deep, 16),
    C(500, 370, 34, fill(p.dark)),
    C(500, 370, 14, fill(p.steel)),
    R(560, 320, 30, 36, 6, fill(p.steel)),
  ].join("");
  return { box: [290, 296, 710, 790], body, detail };
}

function plateCarrier(p: Palette, pro: boolean): Item {
  const b = [
    P("M340,210 L420,210 L436,332 L350,340 Z"),
    P("M660,210 L580,210 L564,332 L650,340 Z"),
    P(
      "M300,320 Q300,300 320,296 L420,300 Q500,336 580,300 L680,296 Q700,300 700,320 L700,700 Q700,722 680,722 " +
        "L320,722 Q300,722 300,700 Z",
    ),
    P("M302,440 L214,452 Q204,454 204,466 L204,680 Q204,692 216,692 L302,700 Z"),
    P("M698,440 L786,452 Q796,454 796,466 L796,680 Q796,692 784,692 L698,700 Z"),
  ];
  const d = [
    P("M350,220 L416,220", line(p.dark, 4)),
    P("M584,220 L650,220", line(p.dark, 4)),
    repeat(6, (i) => R(316, 460 + i * 40, 368, 10, 2, fill(p.dark))),
    repeat(5, (i) => R(316 + i * 92, 456, 4, 220, 0, fill(p.tone))),
    repeat(5, (i) => R(212, 476 + i * 40, 84, 8, 2, fill(p.dark))),
    repeat(5, (i) => R(704, 476 + i * 40, 84, 8, 2, fill(p.dark))),
    R(400, 350, 200, 84, 10, fill(p.dark)),
    R(460, 372, 80, 40, 6, fill(p.deep)),
    P("M320,300 L420,304 Q500,340 580,304 L680,300", `${line("#ffffff", 4)} opacity=".2"`),
  ];
  if (pro) {
    b.push(repeat(3, (i) => R(330 + i * 116, 520, 108, 190, 12)));
    b.push(P("M440,252 Q500,220 560,252 L560,280 Q500,252 440,280 Z"));
    d.push(
      repeat(3, (i) => R(330 + i * 116, 520, 108, 190, 12, fill(p.fill))),
      repeat(3, (i) => R(350 + i * 116, 500, 68, 40, 6, fill(p.metal))),
      repeat(3, (i) => P(`M${340 + i * 116},${540} L${428 + i * 116},${540}`, line(p.deep, 8))),
      repeat(3, (i) => R(340 + i * 116, 600, 88, 8, 2, fill(p.dark))),
      P("M440,252 Q500,220 560,252", line(p.deep, 6)),
      R(210, 560, 30, 60, 6, fill("#1b1c1e")),
      R(760, 560, 30, 60, 6, fill("#1b1c1e")),
    );
  }
  return { box: [204, 200, 796, 724], body: b.join(""), detail: d.join("") };
}

function chestRig(p: Palette): Item {
  const b = [
    P("M300,440 L380,200 L430,200 L370,440 Z"),
    P("M700,440 L620,200 L570,200 L630,440 Z"),
    R(460, 260, 80, 30, 6),
    R(210, 420, 580, 260, 22),
  ].join("");
  const d = [
    R(460, 260, 80, 30, 6, fill(p.dark)),
    repeat(4, (i) => R(236 + i * 134, 410, 80, 50, 6, fill(p.metal))),
    repeat(4, (i) => R(226 + i * 134, 440, 118, 220, 14, fill(p.fill))),
    repeat(4, (i) => P(`M${232 + i * 134},462 L${338 + i * 134},462`, line(p.deep, 8))),
    repeat(4, (i) => R(240 + i * 134, 540, 90, 8, 2, fill(p.dark))),
    repeat(4, (i) => R(240 + i * 134, 590, 90, 8, 2, fill(p.dark))),
    P("M330,440 L396,210 M670,440 L604,210", line(p.dark, 4)),
  ].join("");
  return { box: [210, 196, 790, 684], body: b, detail: d };
}

function helmet(p: Palette): Item {
  const shell =
    "M210,610 Q190,420 320,318 Q460,215 632,268 Q796,318 812,500 L812,520 L640,520 Q600,520 590,560 L580,610 Z";
  const body = [P(shell), G("rotate(-32 740 320)", R(700, 296, 80, 56, 10))].join("");
  const detail = [
    P("M300,470 Q460,420 640,455 L640,490 Q460,455 300,505 Z", fill(p.dark)),
    repeat(8, (i) => R(320 + i * 38, 460 - i * 2 - (i > 4 ? (i - 4) * 3 : 0), 18, 10, 3, fill(p.deep))),
    R(380, 320, 160, 90, 16, fill(p.dark)),
    G("rotate(-32 740 320)", R(700, 296, 80, 56, 10, fill(p.metal)), R(716, 310, 48, 28, 4, fill("#3a3e44"))),
    P("M260,560 Q240,420 340,340", `${line("#ffffff", 6)} opacity=".22"`),
    P("M430,590 Q480,660 560,700", line("#1b1c1e", 10)),
    P("M590,560 Q600,640 570,700", line("#1b1c1e", 10)),
    R(548, 690, 44, 22, 6, fill("#3a3e44")),
    P("M250,380 Q400,260 600,280", `${line(p.deep, 3)} stroke-dasharray="12 10"`),
  ].join("");
  return { box: [190, 240, 812, 716], body, detail };
}

function faceMask(p: Palette): Item {
  const shape = "M260,380 Q500,300 740,380 L720,560 Q680,700 500,740 Q320,700 280,560 Z";
  const body = [P(shape), R(120, 420, 150, 26, 10), R(730, 420, 150, 26, 10)].join("");
  const detail = [
    P(shape, fill(`url(#${p.id}-mesh)`)),
    P(shape, `${line(p.deep, 14)}`),
    R(120, 420, 150, 26, 10, fill("#1b1c1e")),
    R(730, 420, 150, 26, 10, fill("#1b1c1e")),
    P("M300,400 Q500,340 700,400", `${line("#ffffff", 4)} opacity=".25"`),
  ].join("");
  const defs = `<pattern id="${p.id}-mesh" patternUnits="userSpaceOnUse" width="22" height="22">
${C(11, 11, 6, fill(p.deep))}</pattern>`;
  return { box: [120, 330, 880, 742], body, detail, defs };
}

function glove(p: Palette): { body: string; detail: string } {
  const body = [
    P("M360,520 Q350,700 420,770 L600,770 Q660,700 650,520 Z"),
    R(370, 260, 64, 300, 32),
    R(440, 220, 66, 330, 33),
    R(512, 236, 64, 320, 32),
    R(582, 290, 60, 270, 30),
    G("rotate(-38 360 560)", R(330, 420, 62, 220, 31)),
    R(410, 740, 200, 110, 14),
  ].join("");
  const detail = [
    R(376, 470, 264, 60, 24, fill(p.dark)),
    repeat(4, (i) => R(382 + i * 68, 330, 48, 34, 14, fill(p.dark))),
    R(410, 760, 200, 86, 12, fill(p.deep)),
    R(440, 780, 140, 40, 8, fill(p.dark)),
    P("M400,620 Q500,600 620,620", line(p.deep, 4)),
  ].join("");
  return { body, detail };
}

function gloves(p: Palette): Item {
  const one = glove(p);
  const body = [
    G("translate(-110 20) rotate(-10 500 560)", one.body),
    G("translate(230 50) rotate(12 500 560) scale(-1 1) translate(-1000 0)", one.body),
  ];
  const detail = [
    G("translate(-110 20) rotate(-10 500 560)", one.detail),
    G("translate(230 50) rotate(12 500 560) scale(-1 1) translate(-1000 0)", one.detail),
  ];
  return { box: [200, 190, 930, 890], body: body.join(""), detail: detail.join("") };
}

function pouch(p: Palette): Item {
  const body = [R(230, 420, 540, 300, 16), repeat(3, (i) => R(268 + i * 172, 340, 118, 100, 8))].join("");
  const detail = [
    repeat(3, (i) => R(268 + i * 172, 340, 118, 100, 8, fill(p.metal))),
    repeat(3, (i) => R(278 + i * 172, 352, 98, 8, 3, fill("#3d4248"))),
    repeat(3, (i) => P(`M${260 + i * 172},440 L${394 + i * 172},440`, line(p.deep, 10))),
    repeat(2, (i) => R(408 + i * 172, 420, 14, 300, 0, fill(p.dark))),
    repeat(4, (i) => R(244, 500 + i * 50, 512, 12, 2, fill(p.dark))),
    R(240, 428, 520, 10, 5, `${fill("#ffffff")} opacity=".18"`),
    repeat(3, (i) => C(326 + i * 172, 700, 8, fill(p.steel))),
  ].join("");
  return { box: [230, 340, 770, 720], body, detail };
}

function belt(p: Palette): Item {
  const band = "M150,420 Q500,560 850,420 L850,530 Q500,670 150,530 Z";
  const body = [P(band), R(240, 500, 110, 140, 14), R(650, 500, 110, 140, 14)].join("");
  const detail = [
    P("M150,440 Q500,580 850,440", line(p.dark, 5)),
    P("M150,510 Q500,650 850,510", line(p.dark, 5)),
    R(440, 530, 120, 80, 12, fill(p.metal)),
    R(462, 548, 76, 44, 6, fill("#4a4f56")),
    R(240, 500, 110, 140, 14, fill(p.fill)),
    R(650, 500, 110, 140, 14, fill(p.fill)),
    R(250, 500, 90, 30, 8, fill(p.dark)),
    R(660, 500, 90, 30, 8, fill(p.dark)),
    P("M160,425 Q500,565 840,425", `${line("#ffffff", 4)} opacity=".2"`),
  ].join("");
  return { box: [150, 420, 850, 640], body, detail };
}

function kneePads(p: Palette): Item {
  const pad = "M380,260 Q500,200 620,260 L640,520 Q500,600 360,520 Z";
  const one = (t: string) => G(t, P(pad), R(300, 300, 400, 40, 12), R(300, 450, 400, 40, 12));
  const oneDetail = (t: string) =>
    G(
      t,
      R(300, 300, 400, 40, 12, fill("#1d1f22")),
      R(300, 450, 400, 40, 12, fill("#1d1f22")),
      P(pad, fill(p.fill)),
      P("M420,300 Q500,260 580,300 L590,470 Q500,520 410,470 Z", fill(p.dark)),
      P("M430,310 Q500,276 570,310", `${line("#ffffff", 5)} opacity=".25"`),
    );
  const a = "translate(-150 40)";
  const b2 = "translate(170 160) scale(.9)";
  return {
    box: [150, 200, 870, 720],
    body: one(a) + one(b2),
    detail: oneDetail(a) + oneDetail(b2),
  };
}

function rifleBag(p: Palette): Item {
  const body = [R(120, 360, 760, 280, 40), P("M420,360 Q500,280 580,360", `fill="none" stroke-width="22"`)].join("");
  const detail = [
    P("M150,380 L850,380", `${line(p.deep, 6)} stroke-dasharray="10 6"`),
    repeat(3, (i) => R(200 + i * 190, 450, 160, 160, 18, fill(p.dark))),
    repeat(3, (i) => R(210 + i * 190, 460, 140, 30, 8, fill(p.deep))),
    repeat(3, (i) => R(220 + i * 190, 540, 120, 8, 2, fill(p.deep))),
    R(140, 366, 720, 10, 5, `${fill("#ffffff")} opacity=".18"`),
    R(838, 420, 20, 80, 6, fill(p.metal)),
  ].join("");
  return { box: [120, 300, 880, 640], body, detail };
}

function hardCase(p: Palette): Item {
  const body = [
    R(150, 300, 700, 420, 30),
    P("M420,300 L430,246 L570,246 L580,300 L555,300 L550,272 L450,272 L445,300 Z"),
  ].join("");
  const detail = [
    R(150, 470, 700, 20, 0, fill(p.deep)),
    repeat(4, (i) => R(190 + i * 180, 320, 120, 130, 12, fill(p.dark))),
    repeat(3, (i) => R(250 + i * 220, 448, 60, 60, 8, fill(p.metal))),
    repeat(3, (i) => R(262 + i * 220, 460, 36, 20, 4, fill("#4a4f56"))),
    repeat(4, (i) => R(190 + i * 180, 530, 120, 160, 12, fill(p.dark))),
    R(160, 306, 680, 10, 5, `${fill("#ffffff")} opacity=".15"`),
    C(186, 690, 10, fill(p.metal)),
    C(814, 690, 10, fill(p.metal)),
  ].join("");
  return { box: [150, 246, 850, 720], body, detail };
}

function backpack(p: Palette): Item {
  const body = [
    P("M300,260 Q300,180 380,170 L620,170 Q700,180 700,260 L720,780 Q720,810 690,810 L310,810 Q280,810 280,780 Z"),
    P("M430,170 Q500,110 570,170", `fill="none" stroke-width="18"`),
    R(250, 420, 40, 300, 14),
    R(710, 420, 40, 300, 14),
  ].join("");
  const detail = [
    R(350, 470, 300, 270, 30, fill(p.dark)),
    repeat(4, (i) => R(366, 520 + i * 50, 268, 10, 2, fill(p.deep))),
    R(350, 260, 300, 150, 28, fill(p.dark)),
    P("M370,280 L630,280", `${line(p.deep, 5)} stroke-dasharray="10 6"`),
    R(250, 420, 40, 300, 14, fill(p.deep)),
    R(710, 420, 40, 300, 14, fill(p.deep)),
    repeat(2, (i) => R(290 + i * 400, 520, 20, 60, 4, fill(p.metal))),
    P("M320,250 Q330,190 390,184", `${line("#ffffff", 5)} opacity=".25"`),
  ].join("");
  return { box: [250, 110, 750, 812], body, detail };
}

function holster(p: Palette): Item {
  const shell = "M380,300 L640,300 Q660,300 660,320 L660,640 Q660,700 620,720 L470,740 Q420,740 410,700 L380,320 Z";
  const body = [
    R(440, 330, 160, 260, 20),
    P("M420,304 L560,304 L596,120 Q600,98 578,96 L470,88 Q450,88 448,108 Z"),
    P(shell),
  ].join("");
  const detail = [
    P("M420,304 L560,304 L596,120 Q600,98 578,96 L470,88 Q450,88 448,108 Z", fill("#24272b")),
    P("M466,280 L544,280 L566,130 L480,122 Z", fill(`url(#${p.id}-grip)`)),
    P("M400,330 L640,330", line(p.dark, 6)),
    R(600, 360, 40, 70, 10, fill(p.deep)),
    C(540, 520, 14, fill(p.steel)),
    C(540, 620, 14, fill(p.steel)),
    P("M400,340 L430,700", `${line("#ffffff", 5)} opacity=".2"`),
    P("M470,740 L620,720", line(p.dark, 5)),
  ].join("");
  const defs = gripPattern(`${p.id}-grip`, "#3a3e44");
  return { box: [380, 86, 660, 742], body, detail, defs };
}

function flashlight(p: Palette): Item {
  const body = [
    R(240, 460, 80, 70, 12),
    R(300, 468, 330, 54, 8),
    P("M620,450 L700,418 L762,418 Q772,418 772,428 L772,562 Q772,572 762,572 L700,572 L620,540 Z"),
    R(540, 520, 130, 44, 6),
  ].join("");
  const detail = [
    repeat(14, (i) => R(330 + i * 16, 472, 8, 46, 2, fill(p.dark))),
    R(240, 460, 80, 70, 12, fill(p.dark)),
    E(772, 495, 14, 70, fill(`url(#${p.id}-beam)`)),
    E(772, 495, 8, 52, fill("#fffbe8")),
    R(300, 472, 330, 6, 3, `${fill("#ffffff")} opacity=".2"`),
    railTeeth(544, 552, 122, p.deep, 16),
    P("M240,495 C180,495 160,560 120,600", line("#1b1c1e", 10)),
  ].join("");
  const defs = `<radialGradient id="${p.id}-beam"><stop offset="0" stop-color="#ffffff"/>
<stop offset="1" stop-color="#ffe9a8"/></radialGradient>`;
  return { box: [120, 412, 790, 600], body, detail, defs };
}

function goggles(p: Palette): Item {
  const frame =
    "M230,360 Q500,320 770,360 Q820,380 810,470 Q800,580 690,600 Q600,610 560,560 Q500,520 440,560 " +
    "Q400,610 310,600 Q200,580 190,470 Q180,380 230,360 Z";
  const lens =
    "M250,388 Q500,354 750,388 Q784,404 778,470 Q770,556 686,570 Q614,578 580,540 Q500,490 420,540 " +
    "Q386,578 314,570 Q230,556 222,470 Q216,404 250,388 Z";
  const body = [P("M110,430 Q500,380 890,430 L890,500 Q500,450 110,500 Z"), P(frame)].join("");
  const detail = [
    P("M110,430 Q500,380 890,430 L890,500 Q500,450 110,500 Z", fill(p.dark)),
    P(frame, fill(p.fill)),
    P(lens, fill(`url(#${p.id}-lens)`)),
    P("M280,400 Q420,380 520,384 L420,520 Q330,430 280,400 Z", `${fill("#ffffff")} opacity=".16"`),
    repeat(6, (i) => R(330 + i * 60, 340, 34, 10, 5, fill(p.deep))),
  ].join("");
  const defs = `<linearGradient id="${p.id}-lens" x1="0" y1="0" x2="0" y2="1">
<stop offset="0" stop-color="#5e7a8c"/><stop offset=".55" stop-color="#22323e"/><stop offset="1" stop-color="#3b4f5c"/>
</linearGradient>`;
  return { box: [110, 330, 890, 610], body, detail, defs };
}

function glasses(p: Palette): Item {
  const lensL = "M250,420 Q260,380 320,380 L470,384 Q500,390 496,430 Q486,530 400,548 Q290,560 258,500 Z";
  const lensR = "M750,420 Q740,380 680,380 L530,384 Q500,390 504,430 Q514,530 600,548 Q710,560 742,500 Z";
  const body = [
    P("M240,380 Q500,350 760,380 L760,420 Q500,392 240,420 Z"),
    P(lensL),
    P(lensR),
    P("M250,400 L120,440 L110,470", `fill="none" stroke-width="18"`),
    P("M750,400 L880,440 L890,470", `fill="none" stroke-width="18"`),
  ].join("");
  const detail = [
    P(lensL, fill(`url(#${p.id}-lens)`)),
    P(lensR, fill(`url(#${p.id}-lens)`)),
    P("M280,400 Q360,392 420,396 L330,520 Q280,460 280,400 Z", `${fill("#ffffff")} opacity=".18"`),
    P("M720,400 Q650,392 600,396 L680,500 Q720,460 720,400 Z", `${fill("#ffffff")} opacity=".12"`),
    P("M470,440 Q500,420 530,440", line(p.deep, 6)),
  ].join("");
  const defs = `<linearGradient id="${p.id}-lens" x1="0" y1="0" x2="1" y2="1">
<stop offset="0" stop-color="#6a5a8a"/><stop offset=".5" stop-color="#1f2a38"/><stop offset="1" stop-color="#3a5668"/>
</linearGradient>`;
  return { box: [100, 350, 900, 560], body, detail, defs };
}

function combatShirt(p: Palette): Item {
  const torso = "M360,220 Q420,250 500,250 Q580,250 640,220 L700,240 L700,780 L300,780 L300,240 Z";
  const body = [
    P(torso),
    P("M300,240 L200,280 L120,600 L204,626 L300,380 Z"),
    P("M700,240 L800,280 L880,600 L796,626 L700,380 Z"),
  ].join("");
  const torsoTone = mix(p.tone, "#8c8f86", 0.35);
  const detail = [
    P(torso, fill(torsoTone)),
    P("M360,220 Q420,250 500,250 Q580,250 640,220 L640,280 Q580,300 500,300 Q420,300 360,280 Z", fill(p.fill)),
    P("M500,250 L500,380", line("#1b1c1e", 6)),
    R(210, 330, 70, 80, 10, fill(p.dark)),
    R(720, 330, 70, 80, 10, fill(p.dark)),
    R(128, 580, 84, 40, 6, fill(p.deep)),
    R(788, 580, 84, 40, 6, fill(p.deep)),
    P("M330,300 L330,760 M670,300 L670,760", `${line(shade(torsoTone, -0.2), 3)} stroke-dasharray="8 8"`),
    R(300, 756, 400, 24, 4, fill(shade(torsoTone, -0.15))),
  ].join("");
  return { box: [120, 218, 880, 782], body, detail };
}

function cap(p: Palette): Item {
  const crown = "M280,560 Q270,330 470,300 Q680,290 700,540 Z";
  const body = [P(crown), P("M640,520 Q780,520 880,580 Q860,612 820,612 L640,580 Z")].join("");
  const detail = [
    R(520, 380, 120, 80, 12, fill(p.dark)),
    C(470, 302, 14, fill(p.dark)),
    P("M470,304 Q420,420 400,560 M470,304 Q560,420 600,548", line(p.dark, 3)),
    P("M650,540 Q770,540 866,590", `${line(p.deep, 3)} stroke-dasharray="8 6"`),
    P("M300,500 Q300,380 420,330", `${line("#ffffff", 5)} opacity=".2"`),
    P("M280,560 L700,540", line(p.deep, 8)),
  ].join("");
  return { box: [270, 286, 880, 614], body, detail };
}

function twinPistols(p: Palette): Item {
  const one = pistol(p, { slide: 440, style: "polymer" });
  const [x0, y0, x1, y1] = one.box;
  return {
    box: [x0 - 80, y0 - 120, x1 + 90, y1 + 80],
    body: G("translate(-80 -110)", one.body) + G("translate(90 80)", one.body),
    detail: G("translate(-80 -110)", one.detail) + G("translate(90 80)", one.detail),
    defs: one.defs,
  };
}

const ITEMS: Record<ArtKind, (p: Palette) => Item> = {
  "carbine-cqb": (p) => carbine(p, { stock: "collapsible", hg: 230, barrel: 40, optic: "dot", foregrip: true }),
  "carbine-entry": (p) => carbine(p, { stock: "collapsible", hg: 250, barrel: 90 }),
  "carbine-gbb": (p) => carbine(p, { stock: "collapsible", hg: 290, barrel: 30, suppressor: true, optic: "dot" }),
  "carbine-spring": (p) => carbine(p, { stock: "fixed", hg: 220, barrel: 100, carry: true, roundHandguard: true }),
  ak: (p) => ak(p),
  bullpup: (p) => bullpup(p),
  sniper: (p) => sniper(p),
  dmr: (p) => carbine(p, { stock: "precision", hg: 300, barrel: 150, optic: "scope", bipod: true }),
  smg: (p) => smg(p),
  "pistol-polymer": (p) => pistol(p, { slide: 470, style: "polymer" }),
  "pistol-1911": (p) => pistol(p, { slide: 500, style: "1911", grip: 230 }),
  "pistol-compact": (p) => pistol(p, { slide: 400, style: "polymer", grip: 190 }),
  "pistol-target": (p) => pistol(p, { slide: 600, style: "polymer" }),
  "pistol-auto": (p) => pistol(p, { slide: 470, style: "polymer", mag: 130 }),
  "pistol-race": (p) => pistol(p, { slide: 480, style: "1911", comp: true, dot: true, magwell: true }),
  "pistol-spring": (p) => twinPistols(p),
  "pistol-electric": (p) => pistol(p, { slide: 430, style: "polymer", grip: 220, mag: 20 }),
  revolver: (p) => revolver(p),
  "shotgun-pump": (p) => shotgun(p, { stock: "full", barrel: 360 }),
  "shotgun-tactical": (p) => shotgun(p, { stock: "collapsible", barrel: 320, shield: true }),
  "shotgun-breacher": (p) => shotgun(p, { stock: "none", barrel: 230 }),
  "shotgun-gas": (p) => shotgun(p, { stock: "full", barrel: 380, shells: true }),
  "shotgun-double": (p) => doubleBarrel(p),
  scope: (p) => opticScope(p, 380, 8),
  "scope-long": (p) => opticScope(p, 460, 22),
  "red-dot": (p) => redDot(p),
  "magazine-rifle": (p) => rifleMagazine(p),
  "magazine-pistol": (p) => pistolMagazine(p),
  "bb-bottle": (p) => bbBottle(p),
  "bb-bag": (p) => bbBag(p),
  battery: (p) => battery(p),
  sling: (p) => sling(p),
  foregrip: (p) => foregrip(p),
  suppressor: (p) => suppressor(p),
  bipod: (p) => bipod(p),
  "plate-carrier": (p) => plateCarrier(p, false),
  "plate-carrier-pro": (p) => plateCarrier(p, true),
  "chest-rig": (p) => chestRig(p),
  helmet: (p) => helmet(p),
  "face-mask": (p) => faceMask(p),
  gloves: (p) => gloves(p),
  pouch: (p) => pouch(p),
  belt: (p) => belt(p),
  "knee-pads": (p) => kneePads(p),
  "rifle-bag": (p) => rifleBag(p),
  "hard-case": (p) => hardCase(p),
  backpack: (p) => backpack(p),
  holster: (p) => holster(p),
  flashlight: (p) => flashlight(p),
  goggles: (p) => goggles(p),
  glasses: (p) => glasses(p),
  "combat-shirt": (p) => combatShirt(p),
  cap: (p) => cap(p),
};

// ---------------------------------------------------------------------------------------------
// Placing an item in a scene

interface Placement {
  art: ArtKind;
  color: string;
  /** Centre of the item's box in scene units. */
  cx: number;
  cy: number;
  /** The item fits inside this width and height. */
  width: number;
  height: number;
  rotate?: number;
  mirror?: boolean;
  /** Zoom around the item's focus point (close-ups). */
  zoom?: number;
  /** Shadow strength 0..1. */
  shadow?: number;
  /** Light edge on dark backgrounds. */
  rim?: boolean;
  /** Soft contact shadow on the floor below the item. */
  floor?: boolean;
  opacity?: number;
}

let sceneIds = 0;

function placeItem(pl: Placement): { defs: string; svg: string } {
  sceneIds = (sceneIds + 1) % 1_000_000;
  const id = `i${sceneIds}`;
  const p = palette(pl.art, pl.color, id);
  const item = ITEMS[pl.art](p);
  const [x0, y0, x1, y1] = item.box;
  const bw = x1 - x0;
  const bh = y1 - y0;
  const fit = Math.min(pl.width / bw, pl.height / bh) * (pl.zoom ?? 1);
  const [fx, fy] = pl.zoom && pl.zoom > 1 && item.focus ? item.focus : [(x0 + x1) / 2, (y0 + y1) / 2];
  const mirror = pl.mirror ? -1 : 1;
  const transform =
    `translate(${num(pl.cx)} ${num(pl.cy)}) rotate(${pl.rotate ?? 0}) ` +
    `scale(${num(fit * mirror * 1000) / 1000} ${num(fit * 1000) / 1000}) translate(${num(-fx)} ${num(-fy)})`;
  const px = (value: number) => num(value / fit);
  const shadow = pl.shadow ?? 0.3;
  const defs = [
    p.defs,
    item.defs ?? "",
    `<g id="${id}-b">${item.body}</g>`,
    `<linearGradient id="${id}-sheen" gradientUnits="userSpaceOnUse" x1="0" y1="${y0}" x2="0" y2="${y1}">`,
    `<stop offset="0" stop-color="#ffffff" stop-opacity=".22"/>`,
    `<stop offset=".45" stop-color="#ffffff" stop-opacity="0"/>`,
    `<stop offset="1" stop-color="#000000" stop-opacity=".22"/></linearGradient>`,
  ].join("");
  const parts: string[] = [];
  if (pl.floor) {
    const fh = bh * fit;
    const fw = bw * fit;
    const floorY = pl.cy + Math.min(fh / 2, 330) + 26;
    parts.push(E(pl.cx, floorY, fw * 0.5, 26 + fh * 0.04, `fill="url(#floor-shadow)" opacity="${num(shadow * 1.6)}"`));
  }
  const use = (paint: string, extra = "") => `<use href="#${id}-b" fill="${paint}" stroke="${paint}"${attrs(extra)}/>`;
  // A soft drop shadow from stacked, widening outlines: far cheaper to render than a blur filter.
  const layers = [28, 18, 9, 2];
  const dropShadow = layers
    .map(
      (width) =>
        `<use href="#${id}-b" fill="#000" stroke="#000" stroke-width="${px(width)}" stroke-linejoin="round" ` +
        `opacity="${num((shadow / layers.length) * 100) / 100}" transform="translate(${px(8)} ${px(16)})"/>`,
    )
    .join("");
  const inner = [
    dropShadow,
    pl.rim ? use("#c9d3dc", `opacity=".55" transform="translate(${px(-3)} ${px(-3)})"`) : "",
    use(p.fill),
    use(`url(#${id}-sheen)`),
    item.detail,
  ].join("");
  const opacity = pl.opacity !== undefined ? ` opacity="${pl.opacity}"` : "";
  parts.push(`<g transform="${transform}"${opacity}>${inner}</g>`);
  return { defs, svg: parts.join("") };
}

function svgDocument(width: number, height: number, defs: string, content: string, outWidth = width): string {
  const outHeight = Math.round((outWidth * height) / width);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${outWidth}" height="${outHeight}" ` +
    `viewBox="0 0 ${width} ${height}">` +
    `<defs><radialGradient id="floor-shadow"><stop offset="0" stop-color="#000" stop-opacity=".5"/>` +
    `<stop offset=".55" stop-color="#000" stop-opacity=".22"/><stop offset="1" stop-color="#000" stop-opacity="0"/>` +
    `</radialGradient>` +
    `${defs}</defs>${content}</svg>`
  );
}

async function toWebp(svg: string): Promise<Buffer> {
  // Every picture is opaque: dropping the alpha channel makes encoding cheaper and files smaller.
  return sharp(Buffer.from(svg)).removeAlpha().webp(WEBP).toBuffer();
}

// ---------------------------------------------------------------------------------------------
// Product shots: five looks, so a gallery's images differ by angle, zoom and backdrop.

interface Shot {
  backdrop: [string, string];
  rotate: number;
  zoom: number;
  mirror: boolean;
  dark: boolean;
}

const SHOTS: Shot[] = [
  { backdrop: ["#f7f8f9", "#d2d6da"], rotate: 0, zoom: 1, mirror: false, dark: false },
  { backdrop: ["#f8f3ea", "#d8cbb4"], rotate: -9, zoom: 0.92, mirror: false, dark: false },
  { backdrop: ["#eef2f5", "#c4ced7"], rotate: 0, zoom: 1.75, mirror: false, dark: false },
  { backdrop: ["#3d434a", "#14171a"], rotate: 6, zoom: 0.95, mirror: false, dark: true },
  { backdrop: ["#eff2ea", "#cbd4c2"], rotate: 4, zoom: 0.9, mirror: true, dark: false },
];

function productSvg(art: ArtKind, color: string, index: number): string {
  const shot = SHOTS[index % SHOTS.length] ?? SHOTS[0];
  if (!shot) throw new Error("no shots defined");
  const item = placeItem({
    art,
    color,
    cx: 500,
    cy: 470,
    width: 800,
    height: 600,
    rotate: shot.rotate,
    mirror: shot.mirror,
    zoom: shot.zoom,
    shadow: shot.dark ? 0.55 : 0.3,
    rim: shot.dark,
    floor: shot.zoom <= 1,
  });
  const [top, bottom] = shot.backdrop;
  const defs = [
    // A vertical studio "sweep": a light band above the item, darker at the top and the floor. A
    // linear gradient renders several times faster than a full-frame radial one.
    `<linearGradient id="bg" x1="0" y1="0" x2="0" y2="1">`,
    `<stop offset="0" stop-color="${mix(top, bottom, 0.45)}"/><stop offset=".38" stop-color="${top}"/>`,
    `<stop offset=".72" stop-color="${bottom}"/>`,
    `<stop offset="1" stop-color="${shade(bottom, shot.dark ? -0.45 : -0.1)}"/></linearGradient>`,
    item.defs,
  ].join("");
  const content = [`<rect width="1000" height="1000" fill="url(#bg)"/>`, item.svg].join("");
  return svgDocument(1000, 1000, defs, content, PRODUCT_IMAGE_SIZE);
}

// ---------------------------------------------------------------------------------------------
// Category tiles and the hero

interface Scene {
  backdrop: [string, string];
  accent: string;
  items: Omit<Placement, "shadow" | "rim">[];
}

const CATEGORY_SCENES: Record<string, Scene> = {
  rifles: {
    backdrop: ["#2c3238", "#101316"],
    accent: "#c8893a",
    items: [
      { art: "sniper", color: "Tan", cx: 600, cy: 300, width: 980, height: 260, rotate: -4 },
      { art: "carbine-cqb", color: "Black", cx: 620, cy: 540, width: 900, height: 300, rotate: -4 },
    ],
  },
  pistols: {
    backdrop: ["#33302b", "#121110"],
    accent: "#d19a4a",
    items: [
      { art: "pistol-1911", color: "Grey", cx: 420, cy: 420, width: 560, height: 440, rotate: -12 },
      { art: "pistol-polymer", color: "Black", cx: 780, cy: 440, width: 560, height: 440, rotate: 8, mirror: true },
      { art: "magazine-pistol", color: "Black", cx: 980, cy: 600, width: 160, height: 260, rotate: 20 },
    ],
  },
  shotguns: {
    backdrop: ["#3a2f2a", "#140f0d"],
    accent: "#c25a3a",
    items: [
      { art: "shotgun-pump", color: "Black", cx: 600, cy: 320, width: 980, height: 260, rotate: -6 },
      { art: "shotgun-tactical", color: "Olive Drab", cx: 600, cy: 560, width: 900, height: 260, rotate: -6 },
    ],
  },
  accessories: {
    backdrop: ["#2b3338", "#0f1315"],
    accent: "#4a9ac2",
    items: [
      { art: "scope", color: "Black", cx: 420, cy: 270, width: 600, height: 240, rotate: -6 },
      { art: "red-dot", color: "Tan", cx: 900, cy: 300, width: 300, height: 220 },
      { art: "magazine-rifle", color: "Tan", cx: 360, cy: 560, width: 360, height: 340, rotate: -8 },
      { art: "bb-bottle", color: "Default", cx: 700, cy: 560, width: 260, height: 320 },
      { art: "battery", color: "Default", cx: 960, cy: 590, width: 300, height: 180, rotate: 10 },
    ],
  },
  "tactical-gear": {
    backdrop: ["#2e3329", "#10120e"],
    accent: "#8fa35a",
    items: [
      { art: "plate-carrier", color: "Multi-Terrain Camo", cx: 520, cy: 420, width: 560, height: 560 },
      { art: "helmet", color: "Tan", cx: 880, cy: 330, width: 380, height: 320, rotate: -6 },
      { art: "gloves", color: "Olive Drab", cx: 900, cy: 620, width: 300, height: 260, rotate: 10 },
    ],
  },
  "new-arrivals": {
    backdrop: ["#26303a", "#0c1014"],
    accent: "#e0b23a",
    items: [
      { art: "bullpup", color: "Olive Drab", cx: 560, cy: 380, width: 820, height: 360, rotate: -5 },
      { art: "flashlight", color: "Tan", cx: 880, cy: 620, width: 400, height: 160, rotate: -5 },
    ],
  },
  "bags-cases": {
    backdrop: ["#2f3130", "#111211"],
    accent: "#a3885a",
    items: [
      { art: "rifle-bag", color: "Olive Drab", cx: 520, cy: 500, width: 760, height: 360, rotate: -4 },
      { art: "backpack", color: "Multi-Terrain Camo", cx: 900, cy: 400, width: 380, height: 520 },
    ],
  },
  "holsters-flashlight": {
    backdrop: ["#2a2d33", "#0d0e11"],
    accent: "#f0d27a",
    items: [
      { art: "holster", color: "Tan", cx: 420, cy: 400, width: 380, height: 560, rotate: -8 },
      { art: "flashlight", color: "Black", cx: 820, cy: 420, width: 560, height: 240, rotate: -10 },
    ],
  },
  eyewear: {
    backdrop: ["#27303a", "#0b0f13"],
    accent: "#6aa7d8",
    items: [
      { art: "goggles", color: "Tan", cx: 560, cy: 340, width: 720, height: 280, rotate: -4 },
      { art: "glasses", color: "Black", cx: 640, cy: 590, width: 560, height: 200, rotate: 4 },
    ],
  },
  "tactical-apparel": {
    backdrop: ["#2c3130", "#0f1211"],
    accent: "#9aa77a",
    items: [
      { art: "combat-shirt", color: "Multi-Terrain Camo", cx: 520, cy: 420, width: 560, height: 560 },
      { art: "cap", color: "Olive Drab", cx: 900, cy: 560, width: 340, height: 240, rotate: -6 },
    ],
  },
};

/** Faint diagonal lines: one path (a rotated pattern fill is very slow to render in librsvg). */
function hatch(width: number, height: number): string {
  const step = 34;
  let d = "";
  for (let x = -height; x < width; x += step) d += `M${x},${height} L${x + height * 0.7},0 `;
  return P(d.trim(), `fill="none" stroke="#ffffff" stroke-opacity=".03" stroke-width="2"`);
}

function darkScene(
  width: number,
  height: number,
  backdrop: [string, string],
  accent: string,
  items: Omit<Placement, "shadow" | "rim">[],
  seed: number,
): string {
  const placed = items.map((item) => placeItem({ ...item, shadow: 0.6, rim: true }));
  const rand = random(seed);
  const dust = repeat(60, () =>
    C(rand() * width, rand() * height, 1 + rand() * 2.5, `fill="#ffffff" opacity="${num(0.04 + rand() * 0.12)}"`),
  );
  const contours = repeat(7, (i) => {
    const y = height * (0.15 + i * 0.12);
    const a = 30 + rand() * 40;
    return P(
      `M0,${num(y)} C${num(width * 0.25)},${num(y - a)} ${num(width * 0.45)},${num(y + a)} ` +
        `${num(width * 0.7)},${num(y)} ` +
        `S${num(width * 1.05)},${num(y - a)} ${num(width * 1.1)},${num(y + a / 2)}`,
      `fill="none" stroke="${accent}" stroke-opacity=".07" stroke-width="2"`,
    );
  });
  // A single radial layer is the backdrop, the accent glow and the vignette at once (every
  // full-frame gradient layer costs real render time).
  const defs = [
    `<radialGradient id="bg" gradientUnits="userSpaceOnUse" cx="${num(width * 0.7)}" cy="${num(height * 0.3)}" `,
    `r="${num(Math.max(width, height) * 0.85)}">`,
    `<stop offset="0" stop-color="${mix(backdrop[0], accent, 0.35)}"/>`,
    `<stop offset=".45" stop-color="${backdrop[0]}"/><stop offset=".8" stop-color="${backdrop[1]}"/>`,
    `<stop offset="1" stop-color="${shade(backdrop[1], -0.5)}"/></radialGradient>`,
    ...placed.map((item) => item.defs),
  ].join("");
  const content = [
    `<rect width="${width}" height="${height}" fill="url(#bg)"/>`,
    hatch(width, height),
    contours,
    ...placed.map((item) => item.svg),
    dust,
  ].join("");
  return svgDocument(width, height, defs, content);
}

function categorySvg(slug: string): string {
  const scene = CATEGORY_SCENES[slug] ?? CATEGORY_SCENES.accessories;
  if (!scene) throw new Error("no category scene");
  const { width, height } = CATEGORY_IMAGE_SIZE;
  let seed = 7;
  for (const char of slug) seed = (seed * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  return darkScene(width, height, scene.backdrop, scene.accent, scene.items, seed);
}

function heroSvg(): string {
  const { width, height } = HERO_IMAGE_SIZE;
  // The left side stays dark and empty for the heading; the gear sits on the right.
  const items: Omit<Placement, "shadow" | "rim">[] = [
    { art: "plate-carrier-pro", color: "Ranger Green", cx: 1560, cy: 430, width: 560, height: 640, opacity: 0.75 },
    { art: "helmet", color: "Coyote Brown", cx: 2120, cy: 300, width: 380, height: 300, rotate: -10, opacity: 0.9 },
    { art: "carbine-cqb", color: "Black", cx: 1780, cy: 690, width: 1150, height: 420, rotate: -7 },
  ];
  const svg = darkScene(width, height, ["#1d2226", "#07090a"], "#c8893a", items, 2400);
  const shade = [
    `<linearGradient id="left" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#050607" stop-opacity=".92"/>`,
    `<stop offset=".45" stop-color="#050607" stop-opacity=".55"/>`,
    `<stop offset=".7" stop-color="#050607" stop-opacity="0"/>`,
    `</linearGradient>`,
  ].join("");
  return svg
    .replace("</defs>", `${shade}</defs>`)
    .replace("</svg>", `<rect width="${width}" height="${height}" fill="url(#left)"/></svg>`);
}

function blogSvg(scene: "loadout" | "platforms"): string {
  const { width, height } = BLOG_IMAGE_SIZE;
  const items: Placement[] =
    scene === "loadout"
      ? [
          { art: "plate-carrier", color: "Ranger Green", cx: 430, cy: 450, width: 560, height: 620 },
          { art: "carbine-entry", color: "Black", cx: 1120, cy: 300, width: 760, height: 240, rotate: -3 },
          { art: "magazine-rifle", color: "Black", cx: 950, cy: 640, width: 280, height: 300 },
          { art: "goggles", color: "Black", cx: 1290, cy: 650, width: 380, height: 160, rotate: 8 },
        ]
      : [
          { art: "pistol-polymer", color: "Black", cx: 420, cy: 300, width: 460, height: 340, rotate: -6 },
          { art: "carbine-cqb", color: "Tan", cx: 1060, cy: 330, width: 860, height: 300, rotate: -4 },
          { art: "shotgun-pump", color: "Black", cx: 800, cy: 660, width: 1100, height: 260, rotate: -2 },
        ];
  const placed = items.map((item) => placeItem({ ...item, shadow: 0.35 }));
  const board: [string, string] = scene === "loadout" ? ["#c9b58e", "#a8936b"] : ["#d9dcdf", "#aeb4ba"];
  const rand = random(scene === "loadout" ? 11 : 23);
  const grain = repeat(220, () =>
    R(
      rand() * width,
      rand() * height,
      1 + rand() * 3,
      1 + rand() * 3,
      0,
      `fill="#000" opacity="${num(rand() * 0.05)}"`,
    ),
  );
  const defs = [
    `<radialGradient id="bg" cx="45%" cy="40%" r="80%"><stop offset="0" stop-color="${board[0]}"/>`,
    `<stop offset=".7" stop-color="${board[1]}"/><stop offset="1" stop-color="${shade(board[1], -0.3)}"/>`,
    `</radialGradient>`,
    `<pattern id="grid" patternUnits="userSpaceOnUse" width="80" height="80">`,
    `<path d="M80,0 L0,0 L0,80" fill="none" stroke="#000" stroke-opacity=".06" stroke-width="2"/></pattern>`,
    ...placed.map((item) => item.defs),
  ].join("");
  const content = [
    `<rect width="${width}" height="${height}" fill="url(#bg)"/>`,
    `<rect width="${width}" height="${height}" fill="url(#grid)"/>`,
    grain,
    ...placed.map((item) => item.svg),
  ].join("");
  return svgDocument(width, height, defs, content);
}

// ---------------------------------------------------------------------------------------------
// Public API: WebP buffers, cached for the life of the process.

const cache = new Map<string, Promise<Buffer>>();

function cached(key: string, render: () => string): Promise<Buffer> {
  const hit = cache.get(key);
  if (hit) return hit;
  const promise = toWebp(render());
  cache.set(key, promise);
  promise.catch(() => cache.delete(key));
  return promise;
}

/** Product shot `index` (0..4) of an item in one colour; shots differ in angle, zoom and backdrop. */
export function renderProductImage(art: ArtKind, color: string, index: number): Promise<Buffer> {
  return cached(`product|${art}|${color}|${index}`, () => productSvg(art, color, index));
}

/** A 1200x800 tile for a category slug (unknown slugs get the accessories scene). */
export function renderCategoryImage(slug: string): Promise<Buffer> {
  return cached(`category|${slug}`, () => categorySvg(slug));
}

/** The 2400x1000 home hero: dark, with gear on the right and room for the heading on the left. */
export function renderHeroImage(): Promise<Buffer> {
  return cached("hero", () => heroSvg());
}

/** A 1600x900 blog illustration. */
export function renderBlogImage(scene: "loadout" | "platforms"): Promise<Buffer> {
  return cached(`blog|${scene}`, () => blogSvg(scene));
}

/** The SVG behind a product shot, for tests and previews. */
export function productImageSvg(art: ArtKind, color: string, index: number): string {
  return productSvg(art, color, index);
}

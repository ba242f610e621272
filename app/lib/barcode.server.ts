import { toSVG } from "bwip-js/node";

/**
 * A Code 128 barcode of `text` (an order number) as SVG markup, drawn on the server by bwip-js
 * so it prints without JavaScript: bars only (the page prints the number as text beneath, where
 * it can be read, copied and found in a PDF), a quiet zone of ten modules each side as the
 * symbology asks, and an accessible name. Attributes only, no style or script: it sits inline
 * under the page's Content-Security-Policy.
 */
export function code128Svg(text: string, label = text): string {
  const svg = toSVG({ bcid: "code128", text, height: 12, paddingwidth: 10, paddingheight: 1 });
  const name = label.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`);
  return svg.replace(/^<svg /, `<svg role="img" aria-label="${name}" preserveAspectRatio="xMidYMid meet" `);
}

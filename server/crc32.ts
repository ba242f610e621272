/**
 * CRC-32 of a stored page put together with joints that change with every answer (the nonce, the
 * visitor's header and data: server/page-slots.ts), without reading the page again. CRC-32 is
 * linear, so the CRC of A followed by B is the CRC of A shifted by B's length, XOR the CRC of B:
 * zlib's crc32_combine, whose polynomial arithmetic (multmodp, x2nmodp) is below. Each stored
 * piece's CRC and length are kept; an answer combines them with the joints' CRCs (a few hundred
 * bytes read), one small multiplication per piece.
 */

const POLY = 0xedb88320;

/** a(x) * b(x) modulo the CRC-32 polynomial, in zlib's reflected representation. */
export function multmodp(a: number, b: number): number {
  if (a === 0 || b === 0) return 0;
  let m = 0x80000000;
  let p = 0;
  let factor = b;
  for (;;) {
    if (a & m) {
      p ^= factor;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    factor = factor & 1 ? (factor >>> 1) ^ POLY : factor >>> 1;
  }
  return p >>> 0;
}

/** X2N[k] = x^(2^k) modulo the polynomial. */
const X2N: number[] = [];
for (let k = 0, p = 1 << 30; k < 32; k++, p = multmodp(p, p)) X2N.push(p);

/** x^(8n): what appending n bytes multiplies a CRC's linear part by (zlib's crc32_combine_gen). */
export function crc32Shift(n: number): number {
  let p = 0x80000000;
  for (let k = 3; n > 0; n = Math.floor(n / 2), k++) if (n % 2 === 1) p = multmodp(X2N[k % 32] as number, p);
  return p;
}

/**
 * The CRC-32 of A followed by B from `crcA`, `crcB` and B's length (zlib's crc32_combine);
 * `shiftB`, when given, is `crc32Shift(lengthB)` worked out once.
 */
export function crc32Combine(crcA: number, crcB: number, lengthB: number, shiftB = crc32Shift(lengthB)): number {
  return (multmodp(shiftB, crcA >>> 0) ^ crcB) >>> 0;
}

import zlib from "node:zlib";

/**
 * CRC-32 of a stored page whose nonce changes with every answer, without reading the page again
 * (server/page-cache.ts). CRC-32 is linear: the CRC of the page with the new nonce is the CRC of
 * the page with zeros in its place, XOR the nonce's own contribution shifted by the bytes after
 * each place. Shifts are the polynomial arithmetic of zlib's crc32_combine (multmodp, x2nmodp),
 * done once when the page is stored; each answer costs the CRC of 24 bytes and one multiplication.
 */

const POLY = 0xedb88320;

/** a(x) * b(x) modulo the CRC-32 polynomial, in zlib's reflected representation. */
function multmodp(a: number, b: number): number {
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

/** x^(8n): what appending n zero bytes multiplies a CRC's linear part by. */
function zeroBytesShift(n: number): number {
  let p = 0x80000000;
  for (let k = 3; n > 0; n = Math.floor(n / 2), k++) if (n % 2 === 1) p = multmodp(X2N[k % 32] as number, p);
  return p;
}

export interface CrcTemplate {
  /** CRC-32 of the page with zeros where the nonces go. */
  base: number;
  /** The sum of the shifts of every nonce place. */
  shift: number;
  /** CRC-32 of as many zero bytes as a nonce has. */
  zeroJoint: number;
  jointLength: number;
}

/** The template of `pieces` joined by a joint of `jointLength` bytes (one between each two pieces). */
export function crcTemplate(pieces: readonly Buffer[], jointLength: number): CrcTemplate {
  const zeros = Buffer.alloc(jointLength);
  let base = 0;
  let shift = 0;
  let after = pieces.reduce((sum, piece) => sum + piece.length, 0) + jointLength * (pieces.length - 1);
  pieces.forEach((piece, i) => {
    if (i > 0) {
      base = zlib.crc32(zeros, base);
      after -= jointLength;
      shift ^= zeroBytesShift(after);
    }
    base = zlib.crc32(piece, base);
    after -= piece.length;
  });
  return { base: base >>> 0, shift: shift >>> 0, zeroJoint: zlib.crc32(zeros) >>> 0, jointLength };
}

/** CRC-32 of the page with `joint` in every place; `joint` must have the template's length. */
export function crcWithJoint(template: CrcTemplate, joint: Buffer): number {
  if (joint.length !== template.jointLength) throw new Error("the joint must be as long as the template's");
  const linear = (zlib.crc32(joint) ^ template.zeroJoint) >>> 0;
  return (template.base ^ multmodp(template.shift, linear)) >>> 0;
}

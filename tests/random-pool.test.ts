import { describe, expect, it } from "vitest";
import { pooledRandomBytes } from "../server/random-pool";

describe("pooledRandomBytes (per-response nonces, decision 078)", () => {
  it("hands out bytes of the asked length, never the same twice, across refills of the pool", () => {
    const seen = new Set<string>();
    // 16-byte nonces well past several 4 KB refills.
    for (let i = 0; i < 2_000; i++) {
      const bytes = pooledRandomBytes(16);
      expect(bytes.length).toBe(16);
      seen.add(bytes.toString("hex"));
    }
    expect(seen.size).toBe(2_000);
  });

  it("answers a copy: changing it changes no later answer, and bytes look random", () => {
    const first = pooledRandomBytes(32);
    first.fill(0);
    const later = Buffer.concat(Array.from({ length: 64 }, () => pooledRandomBytes(32)));
    // 2 KB of CSPRNG output: every byte value shows up, none dominates.
    const counts = new Map<number, number>();
    for (const byte of later) counts.set(byte, (counts.get(byte) ?? 0) + 1);
    expect(counts.size).toBeGreaterThan(200);
    expect(Math.max(...counts.values())).toBeLessThan(40);
  });

  it("a request larger than the pool comes straight from the CSPRNG", () => {
    const big = pooledRandomBytes(10_000);
    expect(big.length).toBe(10_000);
    expect(new Set(big).size).toBeGreaterThan(200);
  });
});

import { describe, expect, it } from "vitest";
import { CARD_DESCRIPTION_WIDTH, clipText } from "~/models/products/cards.server";

/** A card shows two lines of its description: what is sent is cut to about that (decision 068). */
describe("a card's description", () => {
  it("keeps a short text whole", () => {
    expect(clipText("A short one.", CARD_DESCRIPTION_WIDTH)).toBe("A short one.");
  });

  it("cuts Latin text at a word end near 112 letters, with an ellipsis", () => {
    const text =
      "A polymer-frame gas blowback pistol with a metal slide, crisp trigger and adjustable hop-up. Around 300 FPS on green gas.";
    const clipped = clipText(text, CARD_DESCRIPTION_WIDTH);
    expect(clipped).toBe(
      "A polymer-frame gas blowback pistol with a metal slide, crisp trigger and adjustable hop-up. Around 300 FPS on…",
    );
  });

  it("counts a Chinese character as two letters, so mixed text keeps its Latin words", () => {
    const chinese =
      "聚合物槍身配金屬滑套嘅 GBB 手槍，扳機爽脆，Hop-up 可調。使用綠氣初速約 300 FPS，完全符合香港 2 焦耳槍口能量上限，新手老手都啱用。";
    const clipped = clipText(chinese, CARD_DESCRIPTION_WIDTH);
    expect(clipped.endsWith("…")).toBe(true);
    expect(clipped).toContain("300 FPS");
    // 112 letter widths: well under 112 characters of Chinese.
    expect([...clipped].length).toBeLessThan(80);
  });
});

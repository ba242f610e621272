import { describe, expect, it } from "vitest";
import { formatPersonName } from "~/lib/person-name";

describe("formatPersonName", () => {
  it("writes a Chinese name family name first without a space", () => {
    expect(formatPersonName("大文", "陳")).toBe("陳大文");
    expect(formatPersonName(" 小明 ", "黃")).toBe("黃小明");
    expect(formatPersonName("太郎", "山田")).toBe("山田太郎");
    expect(formatPersonName("민준", "김")).toBe("김민준");
  });

  it("writes a Latin name given name first with a space", () => {
    expect(formatPersonName("Tai Man", "Chan")).toBe("Tai Man Chan");
    expect(formatPersonName("Emma", "Watson")).toBe("Emma Watson");
  });

  it("keeps the Western order when only one part is in Chinese script", () => {
    expect(formatPersonName("David", "陳")).toBe("David 陳");
  });

  it("shows the part there is when the other is empty", () => {
    expect(formatPersonName("大文", "")).toBe("大文");
    expect(formatPersonName(null, "Chan")).toBe("Chan");
    expect(formatPersonName(" ", undefined)).toBe("");
  });
});

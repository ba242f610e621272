import { describe, expect, it } from "vitest";
import { safeRedirect } from "~/lib/redirect";

describe("safeRedirect keeps same-origin paths", () => {
  it.each([
    ["/checkout?x=1#y", "/checkout?x=1#y"],
    ["/", "/"],
    ["/account/orders/HT-1001", "/account/orders/HT-1001"],
    ["/zh/products?category=rifles&page=2", "/zh/products?category=rifles&page=2"],
    ["/search?q=%E6%9E%AA", "/search?q=%E6%9E%AA"],
  ])("%s → %s", (to, expected) => {
    expect(safeRedirect(to)).toBe(expected);
    expect(safeRedirect(to, "/account")).toBe(expected);
  });

  it("normalises dot segments within the site", () => {
    expect(safeRedirect("/a/../checkout")).toBe("/checkout");
  });
});

describe("safeRedirect refuses everything else", () => {
  it.each([
    ["protocol-relative", "//evil.com"],
    ["protocol-relative with path", "//evil.com/checkout"],
    ["backslash", "/\\evil.com"],
    ["backslash later", "/foo\\..\\..\\evil.com"],
    ["absolute https", "https://evil.com"],
    ["absolute http", "http://evil.com/checkout"],
    ["scheme-relative https", "https:evil.com"],
    ["javascript", "javascript:alert(1)"],
    ["data", "data:text/html,<script>alert(1)</script>"],
    ["relative", "checkout"],
    ["encoded CRLF", "/%0d%0aSet-Cookie"],
    ["encoded CRLF, upper case", "/%0D%0ASet-Cookie:%20a=b"],
    ["tab", "/\t/evil.com"],
    ["tab in path", "/check\tout"],
    ["newline", "/checkout\nSet-Cookie: a=b"],
    ["carriage return", "/checkout\r\nLocation: https://evil.com"],
    ["NUL", "/checkout\0"],
    ["DEL", "/checkout\u007f"],
    ["very long", `/${"a".repeat(5000)}`],
    ["empty", ""],
    ["leading space", " /checkout"],
    ["dot segment to protocol-relative", "/.//evil.com"],
    ["dot-dot segment to protocol-relative", "/..//evil.com"],
    ["parent segment to protocol-relative", "/a/..//evil.com"],
  ])("%s", (_label, to) => {
    expect(safeRedirect(to)).toBe("/");
    expect(safeRedirect(to, "/account")).toBe("/account");
  });

  it.each([[null], [undefined], [123], [{}], [["/checkout"]], [new File(["/checkout"], "x.txt")]])(
    "non-string %s",
    (to) => {
      expect(safeRedirect(to as unknown as string, "/fallback")).toBe("/fallback");
    },
  );

  it("never returns something a browser would treat as another origin", () => {
    const attempts = [
      "//evil.com",
      "/\\evil.com",
      "/.//evil.com",
      "/./\\evil.com",
      "/..//evil.com",
      "/%2e//evil.com",
      "/%2e%2e//evil.com",
      "/a/../..//evil.com",
      "/x/./..//evil.com",
      "///evil.com",
      "/\t/evil.com",
    ];
    for (const to of attempts) {
      const result = safeRedirect(to);
      const resolved = new URL(result, "https://shop.test/some/page");
      expect(resolved.origin, `${JSON.stringify(to)} → ${result}`).toBe("https://shop.test");
      expect(result.startsWith("//"), `${JSON.stringify(to)} → ${result}`).toBe(false);
    }
  });

  it("accepts up to 2000 characters", () => {
    const long = `/${"a".repeat(1999)}`;
    expect(safeRedirect(long)).toBe(long);
    expect(safeRedirect(`${long}a`)).toBe("/");
  });
});

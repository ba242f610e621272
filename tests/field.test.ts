import { type ComponentProps, createElement, type ReactElement, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Field } from "~/components/ui/field";
import { I18nProvider, type Messages } from "~/lib/i18n";
import resources from "~/locales";

/** `Field` wires its own label, error id, `aria-invalid` and `aria-describedby` onto its control. */

const REQUIRED = resources.en.translation.checkout.errors.required;

function render(node: ReactNode): string {
  return renderToString(
    createElement(I18nProvider, { language: "en", messages: resources.en.translation as Messages }, node),
  );
}

/** A `Field` around one control (passed as React's children argument). */
function field(options: Omit<ComponentProps<typeof Field>, "children">, control: ReactElement) {
  return createElement(Field, options as ComponentProps<typeof Field>, control);
}

/** An attribute of the first tag named `tag` (the markup is React's: double quotes, escaped). */
function attribute(html: string, tag: string, name: string): string | null {
  const element = new RegExp(`<${tag}\\b[^>]*>`).exec(html)?.[0] ?? "";
  return new RegExp(`\\s${name}="([^"]*)"`).exec(element)?.[1] ?? null;
}

/** The text inside the element with this id. */
function textOf(html: string, id: string): string {
  const match = new RegExp(`<(\\w+)[^>]*\\sid="${id}"[^>]*>(.*?)</\\1>`).exec(html);
  return match ? (match[2] ?? "").replace(/<[^>]+>/g, "") : `(no #${id})`;
}

/** The control's wiring: its id, what the label points at, aria-invalid and what describes it. */
function wiring(html: string) {
  const describedBy = attribute(html, "input", "aria-describedby")?.split(" ") ?? [];
  return {
    id: attribute(html, "input", "id"),
    labelFor: attribute(html, "label", "for"),
    invalid: attribute(html, "input", "aria-invalid"),
    describedBy,
    descriptions: describedBy.map((id) => textOf(html, id)),
  };
}

describe("Field", () => {
  it("marks a bare control invalid and describes it by its errors and hint", () => {
    const html = render(
      field(
        {
          label: "Colour",
          htmlFor: "variant-0-color",
          hint: "As shoppers see it",
          errors: ["checkout.errors.required"],
        },
        createElement("input", { name: "color" }),
      ),
    );
    const { id, labelFor, invalid, describedBy, descriptions } = wiring(html);
    expect(id).toBe("variant-0-color");
    expect(labelFor).toBe("variant-0-color");
    expect(invalid).toBe("true");
    expect(describedBy).toEqual(["variant-0-color-error", "variant-0-color-hint"]);
    expect(descriptions).toEqual([REQUIRED, "As shoppers see it"]);
  });

  it("says nothing of errors when there are none, but keeps the hint", () => {
    const withHint = wiring(
      render(
        field(
          {
            label: "Stock",
            htmlFor: "stock",
            hint: "Units on hand",
          },
          createElement("input"),
        ),
      ),
    );
    expect(withHint.invalid).toBeNull();
    expect(withHint.describedBy).toEqual(["stock-hint"]);
    expect(withHint.descriptions).toEqual(["Units on hand"]);
    const bare = wiring(render(field({ label: "Name", htmlFor: "name" }, createElement("input"))));
    expect(bare).toMatchObject({ id: "name", labelFor: "name", invalid: null, describedBy: [] });
  });

  it("keeps what the caller wired (Conform's props) and merges without repeats", () => {
    const html = render(
      field(
        {
          label: "E-mail",
          htmlFor: "f-email",
          errors: ["checkout.errors.required"],
          errorId: "f-email-error",
          hint: "Work",
        },
        createElement("input", {
          id: "f-email",
          "aria-invalid": true,
          "aria-describedby": "f-email-error extra",
        }),
      ),
    );
    const { id, invalid, describedBy } = wiring(html);
    expect(id).toBe("f-email");
    expect(invalid).toBe("true");
    expect(describedBy).toEqual(["f-email-error", "extra", "f-email-hint"]);
    expect(html.match(/id="f-email-error"/g)).toHaveLength(1);
    expect(textOf(html, "f-email-error")).toBe(REQUIRED);
  });
});

import type { ComponentProps } from "react";

/** The receipt's file input, `#receipt` (a JPEG, PNG or WebP photo; required): payment, and a replacement on the order page. */
export function ReceiptInput(props: Omit<ComponentProps<"input">, "id" | "name" | "type" | "accept" | "required">) {
  return <input id="receipt" name="receipt" type="file" accept="image/jpeg,image/png,image/webp" required {...props} />;
}

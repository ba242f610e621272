import type { ButtonHTMLAttributes, ReactNode } from "react";
import { Link, type LinkProps } from "react-router";

/**
 * The shop's buttons, so the look lives in one place. `primary` is the one action of a form or
 * page; `secondary` sits beside it; `danger` removes something; `quietDanger` removes something
 * next to a page's main action without competing with it (Clear Cart). `size` "lg" for
 * checkout-sized actions, "sm" for rows of a table.
 */
export type ButtonVariant = "primary" | "secondary" | "danger" | "quietDanger";
export type ButtonSize = "sm" | "md" | "lg";

const VARIANTS: Record<ButtonVariant, string> = {
  primary: "bg-brand-600 text-white hover:bg-brand-700",
  secondary: "border border-stone-300 bg-white text-stone-800 hover:bg-stone-100",
  danger: "bg-red-700 text-white hover:bg-red-800",
  quietDanger: "border border-red-300 bg-white text-red-700 hover:bg-red-50",
};

const SIZES: Record<ButtonSize, string> = {
  sm: "px-3 py-1.5 text-sm",
  md: "px-4 py-2",
  lg: "px-5 py-3",
};

/** The classes of a button (for a `<Link>` or `<a>` that looks like one). */
export function buttonClass(variant: ButtonVariant = "primary", size: ButtonSize = "md", extra = ""): string {
  return `inline-flex items-center justify-center gap-2 rounded-md font-semibold disabled:cursor-not-allowed disabled:opacity-60 ${VARIANTS[variant]} ${SIZES[size]} ${extra}`.trim();
}

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: ButtonVariant;
  size?: ButtonSize;
  children: ReactNode;
};

/** A button; `type` defaults to "submit" (every button of ours sends a form). */
export function Button({ variant = "primary", size = "md", className = "", type = "submit", ...props }: ButtonProps) {
  return <button type={type} className={buttonClass(variant, size, className)} {...props} />;
}

/** A link that looks like a button (Shop Now, Continue Shopping). */
export function ButtonLink({
  variant = "primary",
  size = "md",
  className = "",
  ...props
}: LinkProps & { variant?: ButtonVariant; size?: ButtonSize }) {
  return <Link className={buttonClass(variant, size, className)} {...props} />;
}

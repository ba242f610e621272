import { Link, type LinkProps } from "react-router";

/** A link inside text, in the brand colour and underlined until hovered ("Remove demo data →"). */
export function TextLink({ className = "", ...props }: LinkProps) {
  return <Link className={`text-brand-700 underline hover:no-underline ${className}`.trim()} {...props} />;
}

import type { ReactNode } from "react";
import { Link } from "react-router";

/** "← Orders": the way back to the page above this one, above the page's heading. */
export function BackLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <p className="text-sm">
      <Link to={to} className="text-brand-700 underline underline-offset-2 hover:no-underline">
        ← {children}
      </Link>
    </p>
  );
}

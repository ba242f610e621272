import type { ReactNode } from "react";

/** An admin screen's heading: its title, one line on what it is for, and its main action on the right. */
export function AdminPageHeader({ title, intro, children }: { title: string; intro?: string; children?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-3">
      <div>
        <h1 className="text-2xl font-bold">{title}</h1>
        {intro ? <p className="mt-1 text-sm text-stone-600">{intro}</p> : null}
      </div>
      {children}
    </div>
  );
}

import type { ReactNode } from "react";

const LAYOUTS = {
  // An empty state in the middle of the page: nothing in the cart, no order to pay for.
  centered: {
    box: "mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-20 text-center",
    text: "text-stone-600",
  },
  // A notice where a form would stand: a link that cannot be used any more.
  page: { box: "mx-auto max-w-md px-4 py-12", text: "mt-2 text-stone-600" },
} as const;

/** A page that only says something: its heading, a sentence, and the one way on. */
export function MessagePanel({
  title,
  text,
  action,
  layout = "centered",
}: {
  title: ReactNode;
  text: ReactNode;
  action: ReactNode;
  layout?: keyof typeof LAYOUTS;
}) {
  const classes = LAYOUTS[layout];
  return (
    <div className={classes.box}>
      <h1 className="text-2xl font-bold">{title}</h1>
      <p className={classes.text}>{text}</p>
      {action}
    </div>
  );
}

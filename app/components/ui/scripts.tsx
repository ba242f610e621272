import { Children, cloneElement, isValidElement, type ReactElement, type ReactNode } from "react";
import { Scripts as RouterScripts } from "react-router";

/*
 * React Router's <Scripts> with its route manifest on one line (decision 071). Its module script
 * inlines the manifest of the page's routes pretty-printed, two spaces an indent and a line a
 * key: about 1.3 KB of every page's HTML is that white space. This renders React Router's own
 * elements and, on the server, sends the same JSON without it. The browser keeps the server's
 * script as it came (React does not hydrate a script's `dangerouslySetInnerHTML`), so it does
 * nothing there.
 */

const MANIFEST = /(window\.__reactRouterManifest = )(\{[\s\S]*?\n\});/;

type ScriptProps = Parameters<typeof RouterScripts>[0];
type HtmlProps = { dangerouslySetInnerHTML?: { __html?: unknown }; children?: ReactNode };

/** `html` with its manifest's JSON on one line; unchanged when it has none (or not as expected). */
export function compactManifest(html: string): string {
  const match = MANIFEST.exec(html);
  if (!match) return html;
  try {
    const json = JSON.stringify(JSON.parse(match[2] as string));
    return `${html.slice(0, match.index)}${match[1]}${json};${html.slice(match.index + match[0].length)}`;
  } catch {
    return html;
  }
}

function compacted(node: ReactNode): ReactNode {
  if (!isValidElement<HtmlProps>(node)) return node;
  const html = node.props.dangerouslySetInnerHTML?.__html;
  if (typeof html === "string") {
    const compact = compactManifest(html);
    return compact === html ? node : cloneElement(node, { dangerouslySetInnerHTML: { __html: compact } });
  }
  if (node.props.children === undefined) return node;
  return cloneElement(node, undefined, ...Children.toArray(node.props.children).map(compacted));
}

/** Use in place of React Router's <Scripts>, with the same props. */
export function Scripts(props: ScriptProps) {
  // React Router's component called as a function: its hooks are this component's, in the same order every render.
  const elements = RouterScripts(props) as ReactElement | null;
  return typeof document === "undefined" ? compacted(elements) : elements;
}

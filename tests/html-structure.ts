/**
 * Content rules of HTML that html-validate (tests/e2e/a11y.ts) does not check and the Nu HTML
 * Checker does: a description list holds either name-value groups of bare `dt`/`dd` elements
 * or `div` elements each wrapping one group — never a mix of both (the admin order page's
 * customer details once did, issue 25). Works on the server's HTML as React writes it.
 */

export interface StructureProblem {
  rule: "dl-content";
  message: string;
  /** The `<dl …>` start tag where the problem is. */
  at: string;
}

const VOID = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "source",
  "track",
  "wbr",
]);
/** Script-supporting elements, allowed anywhere among a list's children. */
const SCRIPTING = new Set(["script", "template"]);

interface Node {
  name: string;
  start: string;
  children: Node[];
}

/** The element tree of `html` (names and children only; text, comments and raw text skipped). */
function elementTree(html: string): Node {
  const root: Node = { name: "#root", start: "", children: [] };
  const stack: Node[] = [root];
  const source = html.replace(/<!--[\s\S]*?-->/g, "").replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1>/gi, "<$1></$1>");
  for (const match of source.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9-]*)\b[^>]*>/g)) {
    const [tag, closing, rawName] = match;
    const name = (rawName ?? "").toLowerCase();
    if (closing) {
      const at = stack.findLastIndex((node) => node.name === name);
      if (at > 0) stack.length = at;
      continue;
    }
    const node: Node = { name, start: tag, children: [] };
    stack.at(-1)?.children.push(node);
    if (!VOID.has(name) && !tag.endsWith("/>")) stack.push(node);
  }
  return root;
}

/** One or more `dt` followed by one or more `dd`: one group, or (`repeated`) several in a row. */
function isGroupSequence(names: string[], repeated: boolean): boolean {
  const text = `${names.join(",")},`;
  return repeated ? /^(?:(?:dt,)+(?:dd,)+)+$/.test(text) : /^(?:dt,)+(?:dd,)+$/.test(text);
}

/** Every `<dl>` whose children break the content model, with the reason. */
export function dlContentProblems(html: string): StructureProblem[] {
  const problems: StructureProblem[] = [];
  const visit = (node: Node) => {
    if (node.name === "dl") {
      const children = node.children.filter((child) => !SCRIPTING.has(child.name));
      const names = children.map((child) => child.name);
      const report = (message: string) => problems.push({ rule: "dl-content", message, at: node.start });
      if (names.includes("div")) {
        if (names.some((name) => name !== "div")) {
          report(`a <dl> mixes <div> groups with bare <${names.find((name) => name !== "div")}> children`);
        }
        for (const div of children.filter((child) => child.name === "div")) {
          const inner = div.children.filter((child) => !SCRIPTING.has(child.name)).map((child) => child.name);
          if (!isGroupSequence(inner, false)) report(`a <div> in a <dl> holds ${inner.join(", ") || "no"} elements`);
        }
      } else if (names.length > 0 && !isGroupSequence(names, true)) {
        report(`a <dl>'s children are ${names.join(", ")}: not dt… then dd… groups`);
      }
    }
    for (const child of node.children) visit(child);
  };
  visit(elementTree(html));
  return problems;
}

/**
 * A small strict XML reader for tests (the project has no XML parser among its dependencies):
 * elements, attributes, text, CDATA, comments, the prolog; entities limited to XML's five and
 * numeric references. It throws on anything not well-formed — a tag left open or closed out of
 * order, a raw "<" or "&" in text, an unknown entity, a character XML forbids, two roots — so a
 * test that reads a document through it also checks that the document is XML.
 */

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The element's own text (its children's not included), entities decoded. */
  text: string;
}

const NAME = /^[A-Za-z_][\w.:-]*/;
const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decode(raw: string, at: number): string {
  if (/[<]/.test(raw)) throw new Error(`raw "<" at ${at}`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: XML forbids these characters
  if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/.test(raw)) throw new Error(`forbidden character at ${at}`);
  return raw.replace(/&([^;]*);|&/g, (match, entity: string | undefined) => {
    if (entity === undefined) throw new Error(`raw "&" at ${at}`);
    if (entity in ENTITIES) return ENTITIES[entity] as string;
    const numeric = /^#(x[0-9A-Fa-f]+|\d+)$/.exec(entity);
    if (!numeric) throw new Error(`unknown entity ${match} at ${at}`);
    const digits = numeric[1] as string;
    return String.fromCodePoint(digits.startsWith("x") ? Number.parseInt(digits.slice(1), 16) : Number(digits));
  });
}

/** The document's root element; throws when the document is not well-formed. */
export function parseXml(source: string): XmlElement {
  let i = 0;
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  const skipSpace = () => {
    while (i < source.length && /\s/.test(source[i] as string)) i++;
  };
  if (source.startsWith("<?xml")) {
    const end = source.indexOf("?>");
    if (end < 0) throw new Error("unterminated XML declaration");
    i = end + 2;
  }
  while (i < source.length) {
    const lt = source.indexOf("<", i);
    const text = source.slice(i, lt < 0 ? source.length : lt);
    if (stack.length === 0) {
      if (text.trim() !== "") throw new Error(`text outside the root at ${i}`);
    } else {
      (stack.at(-1) as XmlElement).text += decode(text, i);
    }
    if (lt < 0) break;
    i = lt;
    if (source.startsWith("<!--", i)) {
      const end = source.indexOf("-->", i);
      if (end < 0) throw new Error("unterminated comment");
      i = end + 3;
    } else if (source.startsWith("<![CDATA[", i)) {
      const end = source.indexOf("]]>", i);
      if (end < 0 || stack.length === 0) throw new Error("bad CDATA");
      (stack.at(-1) as XmlElement).text += source.slice(i + 9, end);
      i = end + 3;
    } else if (source.startsWith("</", i)) {
      const name = NAME.exec(source.slice(i + 2))?.[0];
      const open = stack.pop();
      if (!name || !open || open.name !== name) throw new Error(`</${name}> closes <${open?.name}> at ${i}`);
      i += 2 + name.length;
      skipSpace();
      if (source[i] !== ">") throw new Error(`bad end tag at ${i}`);
      i++;
    } else {
      const name = NAME.exec(source.slice(i + 1))?.[0];
      if (!name) throw new Error(`bad tag at ${i}`);
      i += 1 + name.length;
      const element: XmlElement = { name, attributes: {}, children: [], text: "" };
      for (;;) {
        const before = i;
        skipSpace();
        if (source.startsWith("/>", i) || source[i] === ">") break;
        if (i === before) throw new Error(`attributes need a space at ${i}`);
        const attribute = NAME.exec(source.slice(i))?.[0];
        if (!attribute) throw new Error(`bad attribute at ${i}`);
        i += attribute.length;
        skipSpace();
        if (source[i] !== "=") throw new Error(`attribute without a value at ${i}`);
        i++;
        skipSpace();
        const quote = source[i];
        if (quote !== '"' && quote !== "'") throw new Error(`unquoted attribute at ${i}`);
        const end = source.indexOf(quote, i + 1);
        if (end < 0) throw new Error("unterminated attribute");
        if (attribute in element.attributes) throw new Error(`attribute ${attribute} twice`);
        element.attributes[attribute] = decode(source.slice(i + 1, end), i);
        i = end + 1;
      }
      const parent = stack.at(-1);
      if (parent) parent.children.push(element);
      else if (root) throw new Error("a second root element");
      else root = element;
      if (source.startsWith("/>", i)) i += 2;
      else {
        i++;
        stack.push(element);
      }
    }
  }
  if (stack.length > 0) throw new Error(`<${stack.at(-1)?.name}> is never closed`);
  if (!root) throw new Error("no root element");
  return root;
}

/** The children of `element` named `name`. */
export function childrenNamed(element: XmlElement, name: string): XmlElement[] {
  return element.children.filter((child) => child.name === name);
}

/** The text of the first child named `name`; undefined when there is none. */
export function childText(element: XmlElement, name: string): string | undefined {
  return childrenNamed(element, name)[0]?.text;
}

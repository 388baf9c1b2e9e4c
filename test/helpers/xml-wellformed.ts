/**
 * A small XML 1.0 well-formedness check for the SVG export's tests (Node has no DOMParser): one root element,
 * tags nested and closed, attributes quoted and not repeated, only the five predefined entities and character
 * references, no character XML cannot hold, no `<` or `&` loose in text. Returns the elements, in document order.
 */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  /** Its text content directly inside it, entities decoded. */
  text: string;
  depth: number;
}

const NAME = '[A-Za-z_:][-A-Za-z0-9_:.]*';
const ATTR = new RegExp(`\\s+(${NAME})\\s*=\\s*("[^"<]*"|'[^'<]*')`, 'y');
const INVALID =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(s: string, at: number): string {
  if (/&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.test(s)) {
    throw new Error(`at ${at}: a loose "&" or an unknown entity in ${JSON.stringify(s.slice(0, 60))}`);
  }
  return s.replace(/&(#x[0-9a-fA-F]+|#\d+|\w+);/g, (_, e: string) =>
    e[0] === '#' ? String.fromCodePoint(e[1] === 'x' ? parseInt(e.slice(2), 16) : Number(e.slice(1))) : ENTITIES[e],
  );
}

export function checkWellFormed(xml: string): XmlElement[] {
  if (INVALID.test(xml)) {
    throw new Error(`a character XML cannot hold at ${xml.search(INVALID)}`);
  }
  let i = 0;
  if (xml.startsWith('<?xml')) {
    i = xml.indexOf('?>') + 2;
  }
  const stack: XmlElement[] = [];
  const all: XmlElement[] = [];
  let roots = 0;
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    const chunk = xml.slice(i, lt < 0 ? xml.length : lt);
    if (chunk.trim()) {
      if (!stack.length) {
        throw new Error(`at ${i}: text outside the root element`);
      }
      stack[stack.length - 1].text += decode(chunk, i);
    }
    if (lt < 0) {
      break;
    }
    i = lt;
    if (xml.startsWith('<!--', i)) {
      const end = xml.indexOf('-->', i);
      if (end < 0) {
        throw new Error(`at ${i}: an unclosed comment`);
      }
      i = end + 3;
      continue;
    }
    const close = new RegExp(`</(${NAME})\\s*>`, 'y');
    close.lastIndex = i;
    const c = close.exec(xml);
    if (c) {
      const open = stack.pop();
      if (!open || open.name !== c[1]) {
        throw new Error(`at ${i}: </${c[1]}> closes ${open ? `<${open.name}>` : 'nothing'}`);
      }
      i = close.lastIndex;
      continue;
    }
    const start = new RegExp(`<(${NAME})`, 'y');
    start.lastIndex = i;
    const s = start.exec(xml);
    if (!s) {
      throw new Error(`at ${i}: a loose "<"`);
    }
    i = start.lastIndex;
    const attrs: Record<string, string> = {};
    for (;;) {
      ATTR.lastIndex = i;
      const a = ATTR.exec(xml);
      if (!a) {
        break;
      }
      if (a[1] in attrs) {
        throw new Error(`at ${i}: attribute ${a[1]} twice`);
      }
      attrs[a[1]] = decode(a[2].slice(1, -1), i);
      i = ATTR.lastIndex;
    }
    const end = /\s*(\/?)>/y;
    end.lastIndex = i;
    const e = end.exec(xml);
    if (!e) {
      throw new Error(`at ${i}: a malformed tag <${s[1]}`);
    }
    i = end.lastIndex;
    if (!stack.length && roots++) {
      throw new Error(`at ${lt}: a second root element`);
    }
    const el: XmlElement = { name: s[1], attrs, text: '', depth: stack.length };
    all.push(el);
    if (!e[1]) {
      stack.push(el);
    }
  }
  if (stack.length) {
    throw new Error(`<${stack[stack.length - 1].name}> is never closed`);
  }
  if (!roots) {
    throw new Error('no root element');
  }
  return all;
}

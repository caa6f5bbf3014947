// The XML of 云文档's WebDAV (RFC 4918): a small strict, namespace-aware reader for request
// bodies (PROPFIND now; PROPPATCH and LOCK later) and escaping for the answers. No DTD is read
// (a DOCTYPE is refused: no entity expansion, no external fetch); well-formedness errors and
// undeclared or empty prefixes are refused, which RFC 4918 §8.2 asks to answer 400.

export interface XmlElement {
  /** namespace name ('' for none) */
  ns: string;
  /** local name */
  name: string;
  attrs: Map<string, string>;
  children: XmlElement[];
  /** the element's own text (character data and CDATA, entities decoded) */
  text: string;
}

export class XmlError extends Error {}

const MAX_DEPTH = 64;
const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const NAME = /^[A-Za-z_\u00C0-\uFFFF][\w.\-\u00B7\u00C0-\uFFFF]*(:[A-Za-z_\u00C0-\uFFFF][\w.\-\u00B7\u00C0-\uFFFF]*)?$/;

function decodeEntities(text: string): string {
  return text.replace(/&([^;&\s]*);?/g, (whole, ref: string) => {
    if (!whole.endsWith(';')) throw new XmlError('未结束的实体引用');
    if (ref in PREDEFINED) return PREDEFINED[ref];
    const m = /^#(x[0-9a-fA-F]{1,6}|[0-9]{1,7})$/.exec(ref);
    if (!m) throw new XmlError(`未知的实体 &${ref};`);
    const code = m[1][0] === 'x' ? parseInt(m[1].slice(1), 16) : Number(m[1]);
    if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) throw new XmlError('无效的字符引用');
    return String.fromCodePoint(code);
  });
}

/** Parses a whole document and returns its root element; throws XmlError when it is not well-formed. */
export function parseXml(source: string): XmlElement {
  const src = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  let i = 0;
  const fail = (what: string): never => {
    throw new XmlError(`XML 格式错误（位置 ${i}）：${what}`);
  };
  const startsWith = (s: string) => src.startsWith(s, i);
  const skipSpace = () => {
    while (i < src.length && /\s/.test(src[i])) i++;
  };
  /** comments, processing instructions and white space between markup */
  const skipMisc = () => {
    for (;;) {
      skipSpace();
      if (startsWith('<!--')) {
        const end = src.indexOf('-->', i + 4);
        if (end < 0) fail('注释未结束');
        i = end + 3;
      } else if (startsWith('<?')) {
        const end = src.indexOf('?>', i + 2);
        if (end < 0) fail('处理指令未结束');
        i = end + 2;
      } else {
        return;
      }
    }
  };

  skipMisc();
  if (startsWith('<!DOCTYPE') || startsWith('<!doctype')) fail('不接受 DOCTYPE');
  if (!startsWith('<')) fail('缺少根元素');

  const readName = (): string => {
    const start = i;
    while (i < src.length && !/[\s/>=<"']/.test(src[i])) i++;
    const name = src.slice(start, i);
    if (!NAME.test(name)) fail(`无效的名称“${name}”`);
    return name;
  };

  const element = (scope: Map<string, string>, depth: number): XmlElement => {
    if (depth > MAX_DEPTH) fail('嵌套过深');
    i++; // '<'
    const qname = readName();
    const rawAttrs: [string, string][] = [];
    let selfClosing = false;
    for (;;) {
      const before = i;
      skipSpace();
      if (startsWith('/>')) {
        i += 2;
        selfClosing = true;
        break;
      }
      if (startsWith('>')) {
        i++;
        break;
      }
      if (i === before) fail('属性之间缺少空白');
      const attr = readName();
      skipSpace();
      if (src[i] !== '=') fail('属性缺少 =');
      i++;
      skipSpace();
      const quote = src[i];
      if (quote !== '"' && quote !== "'") fail('属性值缺少引号');
      const end = src.indexOf(quote, i + 1);
      if (end < 0) fail('属性值未结束');
      const value = src.slice(i + 1, end);
      if (value.includes('<')) fail('属性值中不能有 <');
      if (rawAttrs.some(([n]) => n === attr)) fail(`属性“${attr}”重复`);
      rawAttrs.push([attr, decodeEntities(value)]);
      i = end + 1;
    }
    let own = scope;
    for (const [n, v] of rawAttrs) {
      if (n === 'xmlns' || n.startsWith('xmlns:')) {
        if (own === scope) own = new Map(scope);
        if (n === 'xmlns') own.set('', v);
        else {
          if (v === '') fail(`前缀“${n.slice(6)}”不能绑定到空的命名空间`);
          own.set(n.slice(6), v);
        }
      }
    }
    const colon = qname.indexOf(':');
    const prefix = colon < 0 ? '' : qname.slice(0, colon);
    const ns = own.get(prefix);
    if (ns === undefined && prefix !== '') fail(`未声明的命名空间前缀“${prefix}”`);
    const attrs = new Map<string, string>();
    for (const [n, v] of rawAttrs) if (n !== 'xmlns' && !n.startsWith('xmlns:')) attrs.set(n, v);
    const node: XmlElement = { ns: ns ?? '', name: colon < 0 ? qname : qname.slice(colon + 1), attrs, children: [], text: '' };
    if (selfClosing) return node;
    for (;;) {
      if (i >= src.length) fail(`元素“${qname}”未结束`);
      if (startsWith('</')) {
        i += 2;
        const closing = readName();
        if (closing !== qname) fail(`结束标记“${closing}”与“${qname}”不匹配`);
        skipSpace();
        if (src[i] !== '>') fail('结束标记缺少 >');
        i++;
        return node;
      }
      if (startsWith('<!--')) {
        const end = src.indexOf('-->', i + 4);
        if (end < 0) fail('注释未结束');
        i = end + 3;
      } else if (startsWith('<![CDATA[')) {
        const end = src.indexOf(']]>', i + 9);
        if (end < 0) fail('CDATA 未结束');
        node.text += src.slice(i + 9, end);
        i = end + 3;
      } else if (startsWith('<?')) {
        const end = src.indexOf('?>', i + 2);
        if (end < 0) fail('处理指令未结束');
        i = end + 2;
      } else if (startsWith('<!')) {
        fail('不接受的标记');
      } else if (src[i] === '<') {
        node.children.push(element(own, depth + 1));
      } else {
        const end = src.indexOf('<', i);
        const stop = end < 0 ? src.length : end;
        const text = src.slice(i, stop);
        if (text.includes(']]>')) fail('文本中不能有 ]]>');
        node.text += decodeEntities(text);
        i = stop;
      }
    }
  };

  const root = element(new Map(), 0);
  skipMisc();
  if (i < src.length) fail('根元素之后还有内容');
  return root;
}

/** Characters XML 1.0 cannot carry at all (old names may hold control characters): dropped. */
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** Text or attribute content, escaped. */
export function escapeXml(text: string): string {
  return text.replace(NOT_XML, '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

export const DAV_NS = 'DAV:';

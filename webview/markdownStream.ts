/**
 * Streaming markdown, rendered block by block into a live element. A streamed message only
 * grows at its end, so the blocks before the last one (paragraphs, lists, fences...) are settled:
 * each is lexed, rendered and sanitised once, and its DOM is left alone while the text grows.
 * Every update re-lexes from the last settled block before the growing one, so a block that the
 * new text turns out to continue (a list gaining an item, a paragraph becoming a table) is
 * rendered again as one; only blocks whose source changed are replaced. Every block goes through
 * the same renderer and sanitiser as `renderMarkdown`.
 *
 * Reference-link definitions (`[id]: url`) can change how any block renders, above or below
 * them: when the text's set of definitions changes, the whole text is rendered again. When the
 * message completes, `settle` checks the blocks against the whole text once (see there), so a
 * finished message shows exactly what `renderMarkdown` gives without being rendered again.
 */
import type { Token } from 'marked';
import { blockHtml, lexBlocks, renderMarkdown, sanitiseBlockHtml, type LinkDefinitions } from './markdownEngine';

interface Block {
  /** The block's source; the blocks' sources joined are the text shown. */
  raw: string;
  /** The HTML it was rendered from (before sanitising). */
  html: string;
  /** Blank lines between blocks: no output of their own. */
  blank: boolean;
  /** The block's top-level nodes in the element. */
  nodes: ChildNode[];
  /** A reference-link definition's label and target. */
  definition?: { label: string; href: string; title?: string | null };
}

const CARRIAGE_RETURN = /\r\n?/g;

export class MarkdownStream {
  private source = '';
  private blocks: Block[] = [];
  /** The definitions of the text shown, as a comparable string. */
  private definitions = '[]';

  /** Takes over `el`: its children are the rendered blocks from now on. */
  constructor(readonly el: Element) {
    el.replaceChildren();
  }

  /** Shows `text`, re-rendering only the blocks that changed since the last call. */
  update(text: string): void {
    const source = text.includes('\r') ? text.replace(CARRIAGE_RETURN, '\n') : text;
    if (source === this.source) return;
    if (!source.startsWith(this.source)) this.reset();
    const from = this.contextStart();
    let offset = 0;
    for (let i = 0; i < from; i++) offset += this.blocks[i]!.raw.length;
    const rest = source.slice(offset);
    const links = definitionsOf(this.blocks.slice(0, from));
    const tokens = lexBlocks(rest, links);
    if (signature(links) !== this.definitions || spelled(tokens) !== rest.length) {
      this.rebuild(source);
      return;
    }
    let same = 0;
    while (
      same < tokens.length &&
      from + same < this.blocks.length &&
      tokens[same]!.raw === this.blocks[from + same]!.raw
    ) {
      same++;
    }
    const stale = this.blocks.splice(from + same);
    const fresh = tokens.slice(same);
    if (stale.length === 1 && fresh.length > 0) {
      // The usual frame: the growing block grew. Morphing its DOM keeps the unchanged part (a
      // paragraph's element, its earlier spans), so style and layout redo only what is new.
      this.morphInto(stale[0]!, fresh.shift()!);
    } else {
      for (const block of stale) for (const node of block.nodes) node.remove();
    }
    for (const token of fresh) this.append(token);
    this.source = source;
  }

  /**
   * The text is final. Block by block, the view was lexed with a little context only; lexing the
   * whole text once tells whether every block's HTML is what rendering the whole text gives. It
   * nearly always is, and then the DOM stays as it is; otherwise the whole text is rendered again.
   */
  settle(text: string): void {
    this.update(text);
    const links: LinkDefinitions = {};
    const tokens = lexBlocks(this.source, links);
    const exact =
      signature(links) === this.definitions &&
      tokens.length === this.blocks.length &&
      tokens.every((t, i) => t.raw === this.blocks[i]!.raw && blockHtml(t) === this.blocks[i]!.html);
    if (!exact) this.rebuild(this.source);
  }

  /** Renders `source` from scratch, every block lexed in the context of the whole text. */
  private rebuild(source: string): void {
    this.reset();
    const links: LinkDefinitions = {};
    const tokens = lexBlocks(source, links);
    if (spelled(tokens) === source.length) {
      for (const token of tokens) this.append(token);
    } else {
      // The lexer's blocks do not spell out the text: show it as one block rather than risk a gap.
      const nodes = [...renderMarkdown(source).childNodes];
      this.el.append(...nodes);
      this.blocks.push({ raw: source, html: '', blank: false, nodes });
    }
    this.definitions = signature(links);
    this.source = source;
  }

  /** Index of the last settled non-blank block before the growing one: where re-lexing starts. */
  private contextStart(): number {
    let i = this.blocks.length - 2;
    while (i > 0 && this.blocks[i]!.blank) i--;
    return Math.max(0, i);
  }

  private append(token: Token): void {
    const block = blockOf(token);
    const fragment = sanitiseBlockHtml(block.html);
    block.nodes = [...fragment.childNodes];
    this.el.append(fragment);
    this.blocks.push(block);
  }

  /** Replaces the last block, `old`, with `token`'s rendering by morphing its nodes in place. */
  private morphInto(old: Block, token: Token): void {
    const before = this.el.childNodes.length - old.nodes.length;
    const block = blockOf(token);
    morphChildren(this.el, old.nodes[0] ?? null, sanitiseBlockHtml(block.html));
    block.nodes = Array.prototype.slice.call(this.el.childNodes, before) as ChildNode[];
    this.blocks.push(block);
  }

  private reset(): void {
    this.el.replaceChildren();
    this.blocks = [];
    this.source = '';
    this.definitions = '[]';
  }
}

function blockOf(token: Token): Block {
  const block: Block = { raw: token.raw, html: blockHtml(token), blank: token.type === 'space', nodes: [] };
  if (token.type === 'def') block.definition = { label: token.tag, href: token.href, title: token.title };
  return block;
}

/**
 * Makes `target`'s children from `first` on equal to `source`'s children. A node that matches its
 * counterpart (same kind, tag and attributes) is kept and its children morphed, a text node gets
 * the new text; any other node of `source` is moved in. Nodes come only from `source` (already
 * sanitised) or from an earlier rendering that matched it, so the result is `source`'s DOM.
 */
function morphChildren(target: Node, first: ChildNode | null, source: Node): void {
  let t = first;
  for (let s = source.firstChild; s;) {
    const next = s.nextSibling;
    if (t && sameShell(t, s)) {
      if (t.nodeType === TEXT_NODE) {
        if ((t as Text).data !== (s as Text).data) (t as Text).data = (s as Text).data;
      } else {
        morphChildren(t, t.firstChild, s);
      }
      t = t.nextSibling;
    } else {
      target.insertBefore(s, t);
    }
    s = next;
  }
  while (t) {
    const next = t.nextSibling;
    t.remove();
    t = next;
  }
}

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;

function sameShell(a: Node, b: Node): boolean {
  if (a.nodeType !== b.nodeType || a.nodeName !== b.nodeName) return false;
  if (a.nodeType === TEXT_NODE) return true;
  if (a.nodeType !== ELEMENT_NODE) return false;
  const x = (a as Element).attributes;
  const y = (b as Element).attributes;
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) {
    const attr = x[i]!;
    if (y.getNamedItem(attr.name)?.value !== attr.value) return false;
  }
  return true;
}

/** How many characters of source `tokens` cover. */
function spelled(tokens: readonly Token[]): number {
  let n = 0;
  for (const t of tokens) n += t.raw.length;
  return n;
}

/** The definitions made by `blocks`, the first of a label winning as in the lexer. */
function definitionsOf(blocks: readonly Block[]): LinkDefinitions {
  const links: LinkDefinitions = {};
  for (const b of blocks) {
    if (b.definition && !(b.definition.label in links)) {
      links[b.definition.label] = { href: b.definition.href, title: b.definition.title ?? null };
    }
  }
  return links;
}

function signature(links: LinkDefinitions): string {
  return JSON.stringify(
    Object.keys(links)
      .sort()
      .map((k) => [k, links[k]!.href, links[k]!.title ?? null]),
  );
}

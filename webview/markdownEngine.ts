/**
 * Model text → safe DOM. `marked` renders markdown with raw HTML escaped (never passed through),
 * images shown as links and task-list boxes as glyphs; DOMPurify then keeps only a small set of
 * tags and attributes and drops every link that is not http(s). File references become links
 * that open the file in the editor.
 *
 * This module is part of the panel's markdown chunk (markdownChunk.ts), which loads after the
 * first paint: marked and DOMPurify are a third of the panel's code, and marked builds all of its
 * rules' regular expressions when its module runs. Until it is there, model text shows as plain
 * text (markdown.ts).
 */
import createDOMPurify, { type DOMPurify as Purifier } from 'dompurify';
import { Marked, type Links, type Token } from 'marked';
import { linkifyFileRefs } from './fileRefs';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const SAFE_HREF = /^https?:\/\//i;

let markedInstance: Marked | undefined;

function getMarked(): Marked {
  markedInstance ??= new Marked({
    gfm: true,
    breaks: false,
    async: false,
    renderer: {
      html: ({ text }) => escapeHtml(text),
      image: ({ href, text }) =>
        SAFE_HREF.test(href)
          ? `<a href="${escapeHtml(href)}">${escapeHtml(`image: ${text || href}`)}</a>`
          : escapeHtml(`[image: ${text}]`),
      checkbox: ({ checked }) => (checked ? '☑ ' : '☐ '),
    },
  });
  return markedInstance;
}

const ALLOWED_TAGS = [
  'a',
  'p',
  'br',
  'hr',
  'strong',
  'b',
  'em',
  'i',
  'del',
  's',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
];
const ALLOWED_ATTR = ['href', 'title', 'align', 'start', 'class'];

let purifier: Purifier | undefined;

function getPurifier(): Purifier {
  if (purifier) return purifier;
  const p = createDOMPurify(window);
  // Set once: every call then skips parsing the configuration.
  p.setConfig({
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    RETURN_DOM_FRAGMENT: true,
  });
  p.addHook('uponSanitizeAttribute', (node, data) => {
    // Only a code block's language class survives; the panel's own classes cannot be spoofed.
    if (data.attrName === 'class') {
      data.keepAttr = node.nodeName === 'CODE' && /^language-[\w+-]{1,40}$/.test(data.attrValue);
    }
  });
  p.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName !== 'A') return;
    const href = node.getAttribute('href');
    if (href !== null && !SAFE_HREF.test(href.trim())) node.removeAttribute('href');
    if (node.hasAttribute('href')) node.setAttribute('rel', 'noopener noreferrer');
  });
  purifier = p;
  return p;
}

function sanitise(html: string): DocumentFragment {
  // The configuration set above returns a fragment (RETURN_DOM_FRAGMENT).
  const fragment = getPurifier().sanitize(html) as unknown as DocumentFragment;
  linkifyFileRefs(fragment);
  return fragment;
}

/** Renders markdown to a sanitised fragment with file references linked. */
export function renderMarkdown(source: string): DocumentFragment {
  return sanitise(getMarked().parse(source) as string);
}

/** Reference-link definitions (`[id]: url`) seen so far, by normalised label. */
export type LinkDefinitions = Links;

/**
 * Splits markdown into its top-level blocks (paragraphs, lists, fences, blank runs...) with the
 * same lexer `renderMarkdown` uses. `links` holds definitions from earlier text, so a reference
 * in `source` to one of them still resolves; definitions found in `source` are added to it.
 * Each block's `raw` is its source text; together they spell out `source` (line endings as LF).
 */
export function lexBlocks(source: string, links: LinkDefinitions): Token[] {
  const marked = getMarked();
  const lexer = new marked.Lexer(marked.defaults);
  Object.assign(lexer.tokens.links, links);
  const tokens = lexer.lex(source);
  Object.assign(links, tokens.links);
  return tokens;
}

/** The HTML `marked` makes of one block from `lexBlocks`, before sanitising. */
export function blockHtml(block: Token): string {
  return getMarked().parser([block]);
}

/** Sanitises HTML from `blockHtml` into a fragment with file references linked. */
export function sanitiseBlockHtml(html: string): DocumentFragment {
  return html === '' ? document.createDocumentFragment() : sanitise(html);
}

/** One line of inline markdown (tracker descriptions, plan steps): no blocks, same sanitising. */
export function renderInlineMarkdown(source: string): DocumentFragment {
  return sanitise(getMarked().parseInline(source) as string);
}

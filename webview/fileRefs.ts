/**
 * Finds file references such as `src/a.ts:42` in rendered text and turns them into links that
 * ask the host to open the file. A reference needs a directory part (`src/a.ts`) or a line
 * number (`a.ts:42`), so words like "e.g." or "Node.js" stay text.
 */

export interface FileRef {
  path: string;
  line?: number;
  start: number;
  end: number;
}

const FILE_REF =
  /(?<![\w/.:@-])((?:\.{1,2}\/|\/)?(?:[\w@-][\w@.-]*\/)+[\w@-][\w@.-]*\.[A-Za-z]\w{0,9}|[\w@-][\w@.-]*\.[A-Za-z]\w{0,9}(?=:\d))(?::(\d+)(?::\d+)?)?(?![\w/])/g;

export function findFileRefs(text: string): FileRef[] {
  const out: FileRef[] = [];
  for (const m of text.matchAll(FILE_REF)) {
    const line = m[2] === undefined ? undefined : Number(m[2]);
    out.push({
      path: m[1]!,
      ...(line !== undefined && line > 0 ? { line } : {}),
      start: m.index,
      end: m.index + m[0].length,
    });
  }
  return out;
}

/** Class and data attributes of a file link; the panel's click handler reads them. */
export const FILE_LINK_CLASS = 'pw-file-link';

export function createFileLink(doc: Document, ref: Pick<FileRef, 'path' | 'line'>, label: string): HTMLAnchorElement {
  const a = doc.createElement('a');
  a.className = FILE_LINK_CLASS;
  a.href = '#';
  a.dataset.file = ref.path;
  if (ref.line !== undefined) a.dataset.line = String(ref.line);
  a.title = `Open ${ref.path}${ref.line !== undefined ? ` at line ${ref.line}` : ''}`;
  a.textContent = label;
  return a;
}

/** Replaces file references in the text nodes under `root` (outside existing links) with links. */
export function linkifyFileRefs(root: DocumentFragment | Element): void {
  const doc = root.ownerDocument ?? document;
  const walker = doc.createTreeWalker(root, 4 /* NodeFilter.SHOW_TEXT */);
  const texts: Text[] = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!(n.parentElement?.closest('a') ?? null)) texts.push(n as Text);
  }
  for (const node of texts) {
    const text = node.data;
    const refs = findFileRefs(text);
    if (refs.length === 0) continue;
    const frag = doc.createDocumentFragment();
    let at = 0;
    for (const ref of refs) {
      if (ref.start > at) frag.append(text.slice(at, ref.start));
      frag.append(createFileLink(doc, ref, text.slice(ref.start, ref.end)));
      at = ref.end;
    }
    if (at < text.length) frag.append(text.slice(at));
    node.replaceWith(frag);
  }
}

/** The file a click landed on, if it was a file link. */
export function fileLinkTarget(target: EventTarget | null): { path: string; line?: number } | undefined {
  const el = target instanceof Element ? target.closest(`a.${FILE_LINK_CLASS}`) : null;
  if (!(el instanceof HTMLElement) || !el.dataset.file) return undefined;
  const line = Number(el.dataset.line);
  return Number.isInteger(line) && line > 0 ? { path: el.dataset.file, line } : { path: el.dataset.file };
}

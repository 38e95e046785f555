/**
 * The tracker follows the build: the step in progress (else the first pending one) is scrolled into
 * the tracker's own view, never the document's, so the header and the gate stay where they are.
 */
import type { TrackerNode } from '../src/protocol';

/** The path of the deepest step in progress, else of the first pending one. */
export function activePath(items: readonly TrackerNode[]): string | undefined {
  const find = (nodes: readonly TrackerNode[], status: TrackerNode['status']): string | undefined => {
    for (const n of nodes) {
      const inner = find(n.children, status);
      if (inner) return inner;
      if (n.status === status) return n.path;
    }
    return undefined;
  };
  return find(items, 'in_progress') ?? find(items, 'pending');
}

/** Scrolls `container` (only) so that `row` is fully visible; leaves it alone when it already is. */
export function revealRow(container: HTMLElement, row: HTMLElement): void {
  const box = container.getBoundingClientRect();
  const r = row.getBoundingClientRect();
  if (r.top < box.top) container.scrollTop -= box.top - r.top;
  else if (r.bottom > box.bottom) container.scrollTop += Math.min(r.bottom - box.bottom, r.top - box.top);
}

/** Puts a verify result on the panel's tracker item, so the TODO tree shows the latest run. */
import type { LastVerify, Tracker, TrackerNode } from '../../protocol';

export function withLastVerify(tracker: Tracker, path: string, lastVerify: LastVerify): Tracker | undefined {
  let found = false;
  const visit = (nodes: readonly TrackerNode[]): TrackerNode[] =>
    nodes.map((n) => {
      if (n.path === path) {
        found = true;
        return { ...n, lastVerify };
      }
      return n.children.length > 0 ? { ...n, children: visit(n.children) } : n;
    });
  const items = visit(tracker.items);
  return found ? { ...tracker, items } : undefined;
}

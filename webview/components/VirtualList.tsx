/**
 * A small virtualised scroller: only the rows near the viewport are in the DOM. Row heights are
 * measured after render (and again when a row resizes); unmeasured rows use an estimate. Row
 * offsets are kept incrementally, so a streamed token costs work for the rows it changed, not
 * for the whole transcript. Spacer heights are CSS custom properties set through CSSOM, which a
 * strict CSP allows. The list re-renders only when the window of rows must change.
 *
 * Auto-scroll: while "following", every update ends at the bottom. Any upward scroll by the
 * person (wheel, keys, scrollbar) stops following; reaching the bottom again resumes it. The
 * list never moves the scroll position while not following; "Jump to latest" then shows on its own
 * line under the list.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { installRoving } from '../roving';

export interface VirtualListProps<T> {
  items: readonly T[];
  itemKey: (item: T) => string;
  estimate: (item: T) => number;
  renderItem: (item: T) => ComponentChildren;
  label: string;
  initialScrollTop?: number;
  initialFollow?: boolean;
  /** Pixels rendered beyond each edge of the viewport. */
  overscan?: number;
  onScrollChange?: (top: number, follow: boolean) => void;
}

/** Used before the scroller has a size (e.g. not laid out yet). */
const FALLBACK_VIEWPORT = 600;
/** Within this many pixels of the bottom counts as "at the bottom". */
const BOTTOM_SLACK = 24;
const UP_KEYS = new Set(['ArrowUp', 'PageUp', 'Home']);

interface Layout<T> {
  items: readonly T[];
  keys: string[];
  /** tops[i] is the offset of row i; tops[n] the total height. */
  tops: Float64Array;
}

interface Range {
  start: number;
  end: number;
}

/** First index whose row ends after `y`. */
function firstRowEndingAfter(tops: Float64Array, y: number): number {
  let lo = 0;
  let hi = tops.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (tops[mid + 1]! > y) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export function VirtualList<T>(props: VirtualListProps<T>) {
  const { items, itemKey, estimate, renderItem } = props;
  const overscan = props.overscan ?? 400;
  const scroller = useRef<HTMLDivElement>(null);
  const heights = useRef(new Map<string, number>());
  const layout = useRef<Layout<T>>({ items: [], keys: [], tops: new Float64Array(1) });
  const follow = useRef(props.initialFollow ?? true);
  const viewport = useRef({ top: props.initialScrollTop ?? 0, height: 0 });
  const rendered = useRef<Range>({ start: 0, end: 0 });
  const programmaticTop = useRef(-1);
  const restored = useRef(false);
  const observer = useRef<ResizeObserver | null>(null);
  const observed = useRef(new Set<Element>());
  const spacers = useRef({ before: -1, after: -1 });
  const [following, setFollowing] = useState(follow.current);
  const [, setTick] = useState(0);

  /** Recomputes offsets from row `from` on (earlier rows are unchanged). */
  const relayout = (from: number) => {
    const l = layout.current;
    const n = l.items.length;
    if (l.tops.length !== n + 1) {
      const tops = new Float64Array(n + 1);
      tops.set(l.tops.subarray(0, Math.min(from + 1, l.tops.length)));
      l.tops = tops;
    }
    for (let i = from; i < n; i++) {
      l.tops[i + 1] = l.tops[i]! + (heights.current.get(l.keys[i]!) ?? estimate(l.items[i]!));
    }
  };

  /**
   * The rows to render. The window is sticky: it is kept while it still reaches half the
   * overscan beyond both edges of the view and no more than twice the overscan, and only then
   * recomputed with the full overscan. A streamed message that scrolls the view a line at a time
   * then mounts and unmounts rows in batches rather than on most frames.
   */
  const computeRange = (): Range => {
    const { tops, items: current } = layout.current;
    const n = current.length;
    if (n === 0) return { start: 0, end: 0 };
    const vh = viewport.current.height || FALLBACK_VIEWPORT;
    const top = follow.current ? Math.max(0, tops[n]! - vh) : viewport.current.top;
    const span = (margin: number): Range => {
      const start = firstRowEndingAfter(tops, top - margin);
      let end = start;
      while (end < n && tops[end]! < top + vh + margin) end++;
      return { start, end };
    };
    const prev = rendered.current;
    if (prev.end <= n && prev.end > prev.start) {
      const need = span(overscan / 2);
      const most = span(overscan * 2);
      if (prev.start <= need.start && prev.end >= need.end && prev.start >= most.start && prev.end <= most.end) {
        return prev;
      }
    }
    return span(overscan);
  };

  const rerenderIfRangeMoved = () => {
    const r = computeRange();
    if (r.start !== rendered.current.start || r.end !== rendered.current.end) setTick((t) => t + 1);
  };

  const setFollow = (value: boolean) => {
    if (follow.current === value) return;
    follow.current = value;
    setFollowing(value);
  };

  /** Sets the spacers around the rendered window; unchanged values are not written again. */
  const applySpacers = (el: HTMLDivElement) => {
    const { tops, items: current } = layout.current;
    const { start, end } = rendered.current;
    const before = tops[start]!;
    const after = tops[current.length]! - tops[end]!;
    // Each write invalidates style and layout.
    if (spacers.current.before !== before) el.style.setProperty('--pw-before', `${before}px`);
    if (spacers.current.after !== after) el.style.setProperty('--pw-after', `${after}px`);
    spacers.current = { before, after };
  };

  /** Spacers for the rendered window, and the bottom when following. */
  const applyGeometry = (el: HTMLDivElement) => {
    applySpacers(el);
    if (follow.current) {
      const bottom = el.scrollHeight - el.clientHeight;
      if (Math.abs(el.scrollTop - bottom) > 1) {
        el.scrollTop = bottom;
        programmaticTop.current = el.scrollTop;
      }
    }
  };

  /** Records the heights of `rows`; returns the first index whose height changed. */
  const measure = (rows: Iterable<HTMLElement>): number => {
    let first = Number.POSITIVE_INFINITY;
    for (const row of rows) {
      const key = row.dataset.key;
      const h = row.offsetHeight;
      if (key === undefined || h <= 0 || heights.current.get(key) === h) continue;
      heights.current.set(key, h);
      first = Math.min(first, Number(row.dataset.index));
    }
    return first;
  };

  // Bring the offsets up to date with `items`: only rows from the first changed one are redone.
  const l = layout.current;
  if (l.items !== items) {
    const common = Math.min(l.items.length, items.length);
    let from = 0;
    while (from < common && l.items[from] === items[from]) from++;
    l.items = items;
    l.keys.length = items.length;
    for (let i = from; i < items.length; i++) l.keys[i] = itemKey(items[i]!);
    relayout(from);
  }
  const { start, end } = computeRange();
  rendered.current = { start, end };

  useEffect(() => {
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver((entries) => {
      const el = scroller.current;
      if (!el) return;
      const rows: HTMLElement[] = [];
      let resized = false;
      for (const entry of entries) {
        if (entry.target === el) {
          resized = viewport.current.height !== el.clientHeight;
          viewport.current = { top: el.scrollTop, height: el.clientHeight };
        } else if ((entry.target as HTMLElement).isConnected) rows.push(entry.target as HTMLElement);
      }
      const first = measure(rows);
      if (first === Number.POSITIVE_INFINITY && !resized) return; // already measured after render
      if (first !== Number.POSITIVE_INFINITY) relayout(first);
      applyGeometry(el);
      rerenderIfRangeMoved();
    });
    observer.current = ro;
    if (scroller.current) ro.observe(scroller.current);
    return () => {
      ro.disconnect();
      observer.current = null;
      observed.current.clear();
    };
  }, []);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const rows = [...el.querySelectorAll<HTMLElement>(':scope > .pw-row')];
    const present = new Set<Element>(rows);
    for (const row of rows) {
      if (observer.current && !observed.current.has(row)) {
        observer.current.observe(row);
        observed.current.add(row);
      }
    }
    for (const row of observed.current) {
      if (!present.has(row)) {
        observer.current?.unobserve(row);
        observed.current.delete(row);
      }
    }
    // Spacers first, from the heights known so far: measuring then lays out once with them, and
    // the geometry below is written again only if a measured height moved them.
    applySpacers(el);
    const first = measure(rows);
    if (first !== Number.POSITIVE_INFINITY) relayout(first);

    if (!restored.current) {
      restored.current = true;
      if (el.clientHeight > 0) viewport.current = { top: el.scrollTop, height: el.clientHeight };
      if (!follow.current) {
        el.scrollTop = props.initialScrollTop ?? 0;
        programmaticTop.current = el.scrollTop;
        viewport.current = { top: el.scrollTop, height: el.clientHeight };
      }
    }
    applyGeometry(el);
    rerenderIfRangeMoved();
  });

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight <= BOTTOM_SLACK;
    if (atBottom) setFollow(true);
    else if (follow.current && Math.abs(el.scrollTop - programmaticTop.current) > 2) setFollow(false);
    viewport.current = { top: el.scrollTop, height: el.clientHeight };
    rerenderIfRangeMoved();
    props.onScrollChange?.(el.scrollTop, follow.current);
  };

  // One Tab stop: its links and buttons are reached with the arrows (webview/roving.ts).
  useEffect(() => (scroller.current ? installRoving(scroller.current) : undefined), []);

  const jumpToLatest = () => {
    setFollow(true);
    const el = scroller.current;
    if (el) applyGeometry(el);
    setTick((t) => t + 1);
  };

  return (
    <div class="pw-virtual">
      <div
        ref={scroller}
        class="pw-scroller"
        role="log"
        aria-live="off"
        aria-label={props.label}
        tabIndex={0}
        onScroll={onScroll}
        onWheel={(e) => {
          if (e.deltaY < 0) setFollow(false);
        }}
        onKeyDown={(e) => {
          if (UP_KEYS.has(e.key) && e.target === scroller.current) setFollow(false);
        }}
      >
        <div class="pw-spacer pw-spacer-before" />
        {items.slice(start, end).map((item, i) => (
          <div class="pw-row" key={l.keys[start + i]} data-key={l.keys[start + i]} data-index={start + i}>
            {renderItem(item)}
          </div>
        ))}
        <div class="pw-spacer pw-spacer-after" />
      </div>
      {/* Below the list, never over it: the button takes its own line and covers no text. */}
      {!following && items.length > 0 ? (
        <div class="pw-jump-row">
          <button type="button" class="pw-jump" onClick={jumpToLatest}>
            Jump to latest
          </button>
        </div>
      ) : null}
    </div>
  );
}

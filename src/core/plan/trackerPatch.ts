/**
 * Writing a tracker over a file already on disk (rules §4): the file's lines are kept and only
 * what changed is patched in place, so a tracker VT Code (or a person) wrote keeps its heading,
 * `outcome:` lines, notes, unknown lines, order, blank lines and line endings. A status change
 * rewrites one character; a changed description its task line; changed files, outcome or checks
 * their metadata lines. Items are matched to the file's items by description, in order (a longest
 * common subsequence; between two matches, the remaining items pair up by position, so an edited
 * description is an edit, not a removal and an addition). An item that is gone loses its lines and
 * its children's; a new item is inserted after its previous sibling, rendered in the file format.
 *
 * A sidecar or block without a plan-section heading (written by an older Planwise) gets a
 * `## Plan of Work` heading above its first item, and a `# Title`, so VT Code reads its items.
 */
import type { TaskItem, Tracker } from './tracker';
import {
  documentTitle,
  readTrackerDocument,
  statusOfMark,
  subtreeEnd,
  type LocatedItem,
  type TrackerDocument,
} from './trackerDocument';
import {
  PLAN_OF_WORK_HEADING,
  filesLines,
  itemLines,
  markOf,
  oneLine,
  outcomeLines,
  renderTrackerFile,
  verifyLines,
  type TrackerFlavour,
} from './trackerFormat';

/** The tracker as a file: `previous` patched in place, or rendered anew when there is none. */
export function writeTrackerText(previous: string | undefined, t: Tracker, flavour: TrackerFlavour): string {
  if (previous === undefined || previous.trim().length === 0) return renderTrackerFile(t, flavour);
  return patchTrackerText(previous, t, flavour);
}

/** The texts of the files a tracker is written to, as they are on disk (absent: no such file). */
export interface TrackerTexts<T = string> {
  /** `<stem>.tasks.md`. */
  sidecar: T;
  /** `.vtcode/tasks/current_task.md`. */
  mirror: T;
  /** The text between the markers of the block embedded in the plan file. */
  block: T;
}

/**
 * What each file becomes: the sidecar patched (when missing, the plan's block is its base); the
 * mirror patched when it holds this checklist (same title), else written anew, as VT Code replaces
 * it with each checklist; the block patched, or the sidecar's text when the plan has none.
 */
export function trackerTexts(t: Tracker, before: TrackerTexts<string | undefined>): TrackerTexts {
  const block = before.block?.trim() ? before.block : undefined;
  const sidecar = writeTrackerText(before.sidecar ?? block?.replace(/^(?:[ \t]*\r?\n)+/, ''), t, 'plan');
  const sameChecklist = before.mirror !== undefined && documentTitle(readTrackerDocument(before.mirror)) === t.title;
  return {
    sidecar,
    mirror: sameChecklist ? writeTrackerText(before.mirror, t, 'mirror') : renderTrackerFile(t, 'mirror'),
    block: block === undefined ? sidecar : writeTrackerText(block, t, 'plan'),
  };
}

/** Line edits applied in one pass: insertions before a line, replacements of a line. */
class LineEdits {
  private readonly before = new Map<number, string[]>();
  private readonly replaced = new Map<number, string[]>();

  constructor(
    private readonly lines: readonly string[],
    private readonly crlf: boolean,
  ) {}

  /** New lines (without line endings) before line `at` (`lines.length`: at the very end). */
  insert(at: number, lines: readonly string[]): void {
    if (lines.length === 0) return;
    const list = this.before.get(at) ?? [];
    list.push(...lines.map((l) => this.ended(l)));
    this.before.set(at, list);
  }

  /** Line `at` becomes `lines` (none: removed). `raw` lines keep their own ending. */
  replace(at: number, lines: readonly string[], raw = false): void {
    this.replaced.set(
      at,
      lines.map((l) => (raw ? l : this.ended(l))),
    );
  }

  removeRange(from: number, to: number): void {
    for (let i = from; i < to; i++) this.replaced.set(i, []);
  }

  apply(): string {
    const out: string[] = [];
    this.lines.forEach((line, i) => {
      out.push(...(this.before.get(i) ?? []));
      out.push(...(this.replaced.get(i) ?? [line]));
    });
    out.push(...(this.before.get(this.lines.length) ?? []));
    return out.join('\n');
  }

  private ended(line: string): string {
    return this.crlf ? `${line}\r` : line;
  }
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/**
 * For each new item, the index of the old item it continues, or undefined for a new one: equal
 * descriptions matched as a longest common subsequence, then the rest paired by position between
 * two matches.
 */
export function pairItems(old: readonly TaskItem[], next: readonly TaskItem[]): (number | undefined)[] {
  const n = old.length;
  const m = next.length;
  const same = (i: number, j: number) => old[i]!.description === oneLine(next[j]!.description);
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] = same(i, j) ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const pairs: (number | undefined)[] = new Array<number | undefined>(m).fill(undefined);
  const anchors: [number, number][] = [];
  for (let i = 0, j = 0; i < n && j < m;) {
    if (same(i, j)) {
      pairs[j] = i;
      anchors.push([i, j]);
      i++;
      j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) i++;
    else j++;
  }
  anchors.push([n, m]);
  let fromOld = 0;
  let fromNew = 0;
  for (const [ai, aj] of anchors) {
    for (let k = 0; k < Math.min(ai - fromOld, aj - fromNew); k++) pairs[fromNew + k] = fromOld + k;
    fromOld = ai + 1;
    fromNew = aj + 1;
  }
  return pairs;
}

/** Where the file's end is for an insertion: before the empty string that follows a final newline. */
function endOfText(lines: readonly string[]): number {
  return lines.length > 0 && lines[lines.length - 1] === '' ? lines.length - 1 : lines.length;
}

function isBlank(lines: readonly string[], i: number): boolean {
  const line = lines[i];
  return line === undefined || line.trim().length === 0;
}

class Patcher {
  readonly edits: LineEdits;
  /**
   * A sidecar or block without the heading gets it: then repeated `files:` and `verify:` lines,
   * which added up without it, are written as one line or one block, or VT Code keeps the last.
   */
  readonly upgrade: boolean;

  constructor(
    private readonly doc: TrackerDocument,
    private readonly flavour: TrackerFlavour,
  ) {
    this.edits = new LineEdits(doc.lines, doc.crlf);
    this.upgrade = flavour === 'plan' && !doc.sectioned;
  }

  title(wanted: string): void {
    const { doc } = this;
    const title = oneLine(wanted);
    if (doc.title !== undefined) {
      if (doc.title !== title) this.edits.replace(doc.titleLine as number, [`# ${title}`]);
    } else if (doc.legacyTitleLine !== undefined) {
      this.edits.replace(doc.legacyTitleLine, [`# ${title}`]);
    } else {
      const first = doc.lines.findIndex((l) => l.trim().length > 0);
      this.edits.insert(first < 0 ? endOfText(doc.lines) : first, [`# ${title}`, '']);
    }
  }

  /** Where top-level items go when the file has none to follow; adds the heading a sidecar lacks. */
  topLevelEnd(): number {
    const { doc, edits } = this;
    const lines = doc.lines;
    const first = doc.items[0];
    const upgrade = this.upgrade;
    if (first) {
      if (upgrade) edits.insert(first.line, [PLAN_OF_WORK_HEADING, '']);
      return first.line;
    }
    if (doc.sectioned && doc.sectionLine !== undefined) {
      let at = doc.sectionLine + 1;
      if (isBlank(lines, at) && at < endOfText(lines)) at++;
      else edits.insert(at, ['']);
      return at;
    }
    const at = doc.notesLine ?? endOfText(lines);
    const lead = at > 0 && !isBlank(lines, at - 1) ? [''] : [];
    if (upgrade) edits.insert(at, [...lead, PLAN_OF_WORK_HEADING, '']);
    else edits.insert(at, lead);
    return at;
  }

  /** Patches one list of siblings; `level` is their depth in the tree. */
  list(old: readonly LocatedItem[], next: readonly TaskItem[], indent: string, level: number, end: () => number): void {
    const pairs = pairItems(
      old.map((o) => o.item),
      next,
    );
    const kept = new Set(pairs.filter((p): p is number => p !== undefined));
    old.forEach((o, i) => {
      if (!kept.has(i)) this.edits.removeRange(o.line, subtreeEnd(o));
    });
    let previous: LocatedItem | undefined;
    next.forEach((item, j) => {
      const k = pairs[j];
      if (k !== undefined) {
        previous = old[k] as LocatedItem;
        this.item(previous, item, level);
        return;
      }
      const following = pairs.slice(j + 1).find((p) => p !== undefined);
      const at = previous
        ? subtreeEnd(previous)
        : following !== undefined
          ? (old[following] as LocatedItem).line
          : end();
      const inner = this.flavour === 'mirror' ? Math.max(0, level - Math.floor(indent.length / 2)) : 0;
      this.edits.insert(at, itemLines(item, indent, this.flavour, inner));
    });
  }

  private item(o: LocatedItem, n: TaskItem, level: number): void {
    const { edits } = this;
    const raw = this.doc.lines[o.line] as string;
    let line = raw;
    const mark = raw[o.markAt] as string;
    if (statusOfMark(mark) !== n.status) {
      line = line.slice(0, o.markAt) + markOf(n.status, this.flavour) + line.slice(o.markAt + 1);
    }
    const description = oneLine(n.description);
    if (description !== o.item.description) {
      line = line.slice(0, o.textAt) + description + (line.endsWith('\r') ? '\r' : '');
    }
    if (line !== raw) edits.replace(o.line, [line], true);

    const indent = ' '.repeat(o.indent);
    const after = (...groups: number[][]) => Math.max(o.line, ...groups.flat()) + 1;
    const meta = (lines: number[], rendered: string[], at: number) => {
      if (lines.length === 0) {
        edits.insert(at, rendered);
        return;
      }
      edits.replace(lines[0] as number, rendered);
      for (const i of lines.slice(1)) edits.replace(i, []);
    };
    const merged = (lines: number[]) => this.upgrade && lines.length > 1;
    if (!sameList(o.item.files, n.files) || merged(o.meta.files)) {
      meta(o.meta.files, filesLines(n.files, indent), o.line + 1);
    }
    if ((o.item.outcome ?? '') !== oneLine(n.outcome ?? '')) {
      meta(o.meta.outcome, outcomeLines(n.outcome, indent), after(o.meta.files));
    }
    if (!sameList(o.item.verify, n.verify.map(oneLine)) || merged(o.meta.verify)) {
      meta(o.meta.verify, verifyLines(n.verify, indent), after(o.meta.files, o.meta.outcome));
    }
    const first = o.children[0];
    const childIndent = first ? ' '.repeat(first.indent) : this.flavour === 'mirror' ? indent : `${indent}  `;
    this.list(o.children, n.children, childIndent, level + 1, () => o.end);
  }
}

/** `previous` with the tracker's title, items, statuses and metadata patched in. */
export function patchTrackerText(previous: string, t: Tracker, flavour: TrackerFlavour): string {
  const doc = readTrackerDocument(previous);
  const patcher = new Patcher(doc, flavour);
  patcher.title(t.title);
  let topEnd: number | undefined;
  const end = () => (topEnd ??= patcher.topLevelEnd());
  if (patcher.upgrade) end();
  const indent = doc.items[0] ? ' '.repeat(doc.items[0].indent) : '';
  patcher.list(doc.items, t.items, indent, 0, end);
  return patcher.edits.apply();
}

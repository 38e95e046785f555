/**
 * A reader of tracker files written for the tests from VT Code's rules as the interop data
 * describes them (`../shared/vtcode-interop/README.md`, its `EXPECTED.tsv` files, rules §4), with
 * no code of Planwise's: the differential tests compare Planwise's reading with this one, and this
 * one with the counts VT Code itself recorded.
 *
 * - `sidecar` (a `<stem>.tasks.md` file, and the block inside a plan): the title is the first
 *   `# ` line; task lines count only under a `## Plan of Work`, `## Concrete Steps`,
 *   `## Updated Plan` or `## Phase …` heading; a task line is `- `, `* ` or `+ `, then `[ ]`, `[~]`,
 *   `[/]`, `[x]`, `[X]` or `[!]`, a space and text; its level is its leading spaces over two.
 *   Metadata lines sit at least two spaces deeper than their item: `files:` (comma-separated),
 *   `outcome:`, `verify: cmd`, or `verify:` then `- cmd` lines; a later line of a kind replaces
 *   the earlier one.
 * - `mirror` (`.vtcode/tasks/current_task.md`): a flat list, every `- [.]` line (`-` bullets only)
 *   outside `## Notes` is an item whatever its indent, its description kept with the spaces that
 *   follow the mark (two per level: VT Code's way of flattening sub-items into the mirror);
 *   metadata is any indented metadata line after it, tried before the task line.
 */

export type VtStatus = 'pending' | 'in_progress' | 'completed' | 'blocked';

export interface VtNode {
  depth: number;
  description: string;
  status: VtStatus;
  files: string[];
  outcome?: string;
  verify: string[];
}

export interface VtReading {
  title: string;
  /** Every node, parents included, in file order. */
  nodes: VtNode[];
}

const STATUS: Record<string, VtStatus> = {
  ' ': 'pending',
  '~': 'in_progress',
  '/': 'in_progress',
  x: 'completed',
  X: 'completed',
  '!': 'blocked',
};

const TASK = /^( *)\s*[-*+] \s*\[([ ~/xX!])\] (.*)$/;

function spaces(line: string): number {
  return line.length - line.replace(/^ +/, '').length;
}

export function vtcodeRead(text: string, parser: 'sidecar' | 'mirror'): VtReading {
  let title = '';
  let inPlan = false;
  let inNotes = false;
  let inVerifyBlock = false;
  const nodes: VtNode[] = [];
  let last: (VtNode & { level: number }) | undefined;
  let previousDepth = 0;
  const path: number[] = [];

  for (const raw of text.split(/\r?\n/)) {
    const trimmed = raw.trim();
    if (title === '' && trimmed.startsWith('# ')) {
      title = trimmed.slice(2).trim();
      continue;
    }
    if (trimmed.startsWith('## ')) {
      const header = trimmed.slice(3).trim().toLowerCase();
      inNotes = header === 'notes';
      inPlan = ['plan of work', 'concrete steps', 'updated plan'].includes(header) || header.startsWith('phase ');
      continue;
    }
    if (inNotes) continue;
    if (parser === 'sidecar' && !inPlan) continue;

    const metadataIndent = parser === 'sidecar' ? ((last?.level ?? 0) + 1) * 2 : 2;
    const isMetadata = (): boolean => {
      if (!last || spaces(raw) < metadataIndent) return false;
      const line = raw.trimStart();
      if (inVerifyBlock && /^[-*+] /.test(line)) {
        const command = line.slice(2).trim();
        if (command) last.verify.push(command);
        return true;
      }
      inVerifyBlock = false;
      if (line.startsWith('files:')) {
        last.files = line
          .slice(6)
          .split(',')
          .map((f) => f.trim())
          .filter(Boolean);
        return true;
      }
      if (line.startsWith('outcome:')) {
        const outcome = line.slice(8).trim();
        if (outcome) last.outcome = outcome;
        else delete last.outcome;
        return true;
      }
      if (line === 'verify:') {
        last.verify = [];
        inVerifyBlock = true;
        return true;
      }
      if (line.startsWith('verify:')) {
        const command = line.slice(7).trim();
        last.verify = command ? [command] : [];
        return true;
      }
      return false;
    };

    // The mirror tries metadata first, the sidecar the task line first.
    if (parser === 'mirror' && isMetadata()) continue;
    const task = parser === 'mirror' && !trimmed.startsWith('- ') ? null : TASK.exec(raw);
    const description = task?.[3]?.trim() ?? '';
    if (task && description !== '') {
      const level = Math.floor((task[1] as string).length / 2);
      let depth = Math.floor(spaces(task[3] as string) / 2);
      if (parser === 'sidecar') {
        depth = Math.min(level, previousDepth + 1, path.length);
        path.length = depth;
        path.push(nodes.length);
        previousDepth = depth;
      }
      last = { level, depth, description, status: STATUS[task[2] as string] as VtStatus, files: [], verify: [] };
      nodes.push(last);
      inVerifyBlock = false;
      continue;
    }
    if (parser === 'sidecar' && isMetadata()) continue;
    inVerifyBlock = false;
  }
  return {
    title,
    nodes: nodes.map(({ depth, description, status, files, outcome, verify }) => ({
      depth,
      description,
      status,
      files,
      verify,
      ...(outcome !== undefined ? { outcome } : {}),
    })),
  };
}

/** Counts of every node by status, as VT Code's tracker reports them. */
export function vtcodeCounts(nodes: readonly { status: VtStatus }[]): Record<'total' | VtStatus, number> {
  const counts = { total: 0, completed: 0, in_progress: 0, pending: 0, blocked: 0 };
  for (const n of nodes) {
    counts.total++;
    counts[n.status]++;
  }
  return counts;
}

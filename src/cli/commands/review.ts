/**
 * `planwise review`: review threads on a plan, headless. `--comment "step 2: use zod here"` adds
 * a thread on the element its prefix names (`step N:`, `step N files:`, `step N verify:`,
 * `summary:`, `assumption N:`, `test N:`; no prefix: the plan as a whole), `--resolve ID`
 * resolves one, `--reopen ID` opens it again. It always ends by listing the plan's threads. The
 * threads live in `<stem>.review.json`; `planwise resume <session> --approve revise` sends the
 * unresolved ones to the planner.
 */
import * as path from 'node:path';
import { PlanWorkspace, anchorFromPrefix, type ReviewThreadInfo } from '../../core/api/plans';
import { NodeWorkspaceReader, NodeWorkspaceWriter } from '../../node/fsWorkspace';
import { EXIT_USAGE, type CliCommand, type CliIO } from '../io';

const USAGE = `Usage: planwise review [--workspace DIR] <plan> [--comment TEXT]... [--resolve ID]... [--reopen ID]... [--json]

Adds, resolves and lists review threads on a plan (a stem, a file name in the plans folder, or a
path). Each comment is anchored to the plan element its prefix names:

  "step 2: use zod here"   "step 2 verify: also run tsc"   "summary: say why"
  "assumption 1: really?"  "test 1: which log?"            (no prefix: the plan as a whole)

The threads are kept in <stem>.review.json next to the plan. 'planwise resume <session>
--approve revise' sends every unresolved thread to the planner.

Options:
  --workspace DIR  workspace root (default: the current directory)
  --comment TEXT   add a thread (repeatable)
  --resolve ID     resolve a thread, e.g. c2 (repeatable)
  --reopen ID      open a resolved thread again (repeatable)
  --json           print the threads as one JSON object {plan, revision, open, threads}
  -h, --help       show this help

Exit status: 0; 1 when a comment names no element of the plan or an id is unknown; 2 for a
usage error.
`;

function usageError(io: CliIO, message: string): number {
  io.stderr.write(`planwise review: ${message}\n\n${USAGE}`);
  return EXIT_USAGE;
}

interface Parsed {
  workspace: string;
  plan?: string;
  ops: ({ kind: 'comment'; text: string } | { kind: 'resolve' | 'reopen'; id: string })[];
  json: boolean;
  help: boolean;
}

function parse(args: readonly string[]): Parsed | string {
  const out: Parsed = { workspace: '.', ops: [], json: false, help: false };
  for (let k = 0; k < args.length; k++) {
    const a = args[k] as string;
    const eq = a.indexOf('=');
    const [name, attached] = a.startsWith('--') && eq > 0 ? [a.slice(0, eq), a.slice(eq + 1)] : [a, undefined];
    const value = (): string | undefined => attached ?? args[++k];
    if (name === '--workspace') {
      const v = value();
      if (v === undefined) return '--workspace needs a directory';
      out.workspace = v;
    } else if (name === '--comment') {
      const v = value();
      if (v === undefined || v.trim() === '') return '--comment needs some text';
      out.ops.push({ kind: 'comment', text: v });
    } else if (name === '--resolve' || name === '--reopen') {
      const v = value();
      if (v === undefined || v.trim() === '') return `${name} needs a thread id, e.g. c1`;
      out.ops.push({ kind: name === '--resolve' ? 'resolve' : 'reopen', id: v.trim() });
    } else if (a === '--json') out.json = true;
    else if (a === '--help' || a === '-h') out.help = true;
    else if (a.startsWith('-')) return `unknown option '${a}'`;
    else if (out.plan === undefined) out.plan = a;
    else return `unexpected argument '${a}' (one plan at a time)`;
  }
  return out;
}

function threadLines(t: ReviewThreadInfo): string[] {
  const flags = [t.status, ...(t.outdated ? [t.outdated.vanished ? 'outdated: element removed' : 'outdated'] : [])];
  const lines = [`${t.id}  ${t.label}, line ${t.range.start}  [${flags.join(', ')}]`];
  if (t.outdated) lines.push(`    was: ${t.outdated.text.split('\n')[0]}`);
  for (const c of t.comments) {
    const who = c.author === 'person' ? 'you' : `planner${c.verdict ? ` (${c.verdict})` : ''}`;
    lines.push(`    ${who}: ${c.body.replace(/\n/g, '\n      ')}${c.reason ? ` (reason: ${c.reason})` : ''}`);
  }
  return lines;
}

export const reviewCommand: CliCommand = async (args, io) => {
  const parsed = parse(args);
  if (typeof parsed === 'string') return usageError(io, parsed);
  if (parsed.help) {
    io.stdout.write(USAGE);
    return 0;
  }
  if (parsed.plan === undefined) return usageError(io, 'name the plan to review');
  const root = path.resolve(io.cwd, parsed.workspace);
  let reader: NodeWorkspaceReader;
  try {
    reader = new NodeWorkspaceReader([root]);
  } catch {
    return usageError(io, `workspace '${root}' is not an existing directory`);
  }
  const plans = new PlanWorkspace({
    reader,
    writer: new NodeWorkspaceWriter(),
    root: reader.roots[0] as string,
    now: Date.now,
  });
  const book = plans.review;
  let failed = false;
  try {
    for (const op of parsed.ops) {
      const r =
        op.kind === 'comment'
          ? await (async () => {
              const { anchor, body } = anchorFromPrefix(op.text);
              return book.add(parsed.plan as string, { anchor }, body);
            })()
          : await book.resolve(parsed.plan, op.id, op.kind === 'resolve');
      if (!r.ok) {
        failed = true;
        io.stderr.write(`planwise review: ${r.error}\n`);
      } else if (!parsed.json) {
        const what =
          op.kind === 'comment'
            ? `added ${r.thread.id} on ${r.thread.label}`
            : `${op.kind === 'resolve' ? 'resolved' : 'reopened'} ${op.id}`;
        io.stdout.write(`${what}\n`);
      }
    }
    // Brings the sidecar up to the plan's latest revision (it is written), then lists the threads
    // as the workspace's plan carries them.
    await book.follow(parsed.plan);
    const plan = await plans.plan(parsed.plan);
    const state = plan.review;
    if (!state) throw new Error(plan.reviewError ?? 'the review threads could not be read');
    if (parsed.json) {
      io.stdout.write(
        `${JSON.stringify({ plan: state.planFile, revision: state.revision, open: state.open, threads: state.threads })}\n`,
      );
    } else if (state.threads.length === 0) {
      io.stdout.write(`No review threads on ${path.relative(root, state.planFile) || state.planFile}.\n`);
    } else {
      const head = `${state.open} open of ${state.threads.length} thread${state.threads.length === 1 ? '' : 's'} on ${path.relative(root, state.planFile)} (revision ${state.revision})`;
      io.stdout.write(`${[head, ...state.threads.flatMap(threadLines)].join('\n')}\n`);
    }
  } catch (err) {
    io.stderr.write(`planwise review: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
  return failed ? 1 : 0;
};

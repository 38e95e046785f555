/**
 * The read-only gate for shell commands (rules §1.1): one function, `judgeCommand`, used by
 * `check-command`, the planning shell tool and the build agent's policy, so all three give the same
 * answer by construction. It scans the command once, follows the working directory along the
 * chain (one directory per segment), expands globs, reads every program's arguments against its
 * grammar and resolves every path word on the real file system. Its cost is linear in the command:
 * each distinct path is looked up once and glob expansion shares one bounded budget.
 */
import { GATE_RUN_ENV } from './runEnv';
import { scanCommand } from './scan';
import { shapeOf, shapeOfParsed } from './shape';
import {
  allowed,
  blocked,
  type GateContext,
  type Judgement,
  type ParsedSegment,
  type Segment,
  type Verdict,
} from './types';
import { Judge, type Cwd } from './wordJudge';

export { GLOB_LIMIT } from './wordJudge';

/** Segments judged between two turns of the event loop, so a huge command never holds it long. */
const SEGMENTS_PER_TURN = 256;

function nextTurn(): Promise<void> {
  return new Promise((res) => setTimeout(res, 0));
}

/** Splits the segments into and-or lists (separated by `;` and newlines) with their pipelines. */
function andOrLists(segments: readonly Segment[]): Segment[][] {
  const lists: Segment[][] = [];
  for (const s of segments) {
    if (s.joinedBy === null || s.joinedBy === ';') lists.push([s]);
    else (lists[lists.length - 1] as Segment[]).push(s);
  }
  return lists;
}

/** Inserts each safe-mode option at its offset (after a program's or a subcommand's word). */
function withSafeModes(source: string, inserts: readonly { at: number; text: string }[]): string {
  if (inserts.length === 0) return source;
  const parts: string[] = [];
  let from = 0;
  for (const ins of [...inserts].sort((a, b) => a.at - b.at)) {
    parts.push(source.slice(from, ins.at), ' ', ins.text);
    from = ins.at;
  }
  parts.push(source.slice(from));
  return parts.join('');
}

/**
 * Judges one shell command line (rules §1.1, steps 1–9, in order; the first failure is reported)
 * and returns its parse for every consumer.
 */
export async function judgeCommand(command: string, ctx: GateContext): Promise<Judgement> {
  const scanned = scanCommand(command);
  if (!scanned.ok)
    return { command, verdict: scanned.verdict, scan: scanned, work: { lookups: 0, cwds: 0, globSteps: 0 } };
  const source = command.charCodeAt(0) === 0xfeff ? command.slice(1) : command;
  const judge = new Judge(ctx, source);
  // A refused command's shape comes from the scan; an allowed one's from its parse, below.
  const done = (verdict: Verdict): Judgement => ({
    command,
    verdict,
    scan: scanned,
    shape: shapeOf(scanned.segments),
    work: judge.work,
  });
  const root = ctx.roots[0];
  if (root === undefined) return done(blocked('path', 'no workspace folder is open'));
  let cwd: Cwd = { logical: root, physical: root };
  const parsed: ParsedSegment[] = [];
  const inserts: { at: number; text: string }[] = [];
  const safeInsert = { sedSandbox: '--sandbox' } as const;
  const lists = andOrLists(scanned.segments);
  let judged = 0;
  for (let li = 0; li < lists.length; li++) {
    const list = lists[li] as Segment[];
    let certain = true; // every segment so far in this list was a `cd`, which cannot fail
    let movedUncertainly = false;
    const hasOr = list.some((s) => s.joinedBy === '||');
    for (let si = 0; si < list.length; si++) {
      const seg = list[si] as Segment;
      if (++judged % SEGMENTS_PER_TURN === 0) await nextTurn();
      const piped = seg.joinedBy === '|' || (list[si + 1] as Segment | undefined)?.joinedBy === '|';
      if (seg.words[0]?.value === 'cd' && seg.words[0].firstQuoted > 0) {
        if (piped)
          return done(blocked('cd', "'cd' inside a pipeline changes no directory; run it before the pipeline"));
        if (hasOr)
          return done(blocked('cd', "'cd' in a list with '||' leaves the working directory unknown; use '&&'"));
        const to = await judge.cd(seg.words.slice(1), cwd);
        if ('allowed' in to) return done(to);
        if (!certain) movedUncertainly = true;
        cwd = to;
        parsed.push({
          program: 'cd',
          words: [
            { value: 'cd', kind: 'program' },
            ...seg.words.slice(1).map((w) => ({ value: w.value, kind: 'dir' as const, resolved: to.physical })),
          ],
          args: seg.words.slice(1).map((w) => w.value),
          cwd: to.physical,
          joinedBy: seg.joinedBy,
          projectCode: false,
        });
        continue;
      }
      certain = false;
      judge.work.cwds++;
      const r = await judge.segment(seg, cwd);
      if ('allowed' in r) return done(r);
      parsed.push(r.parsed);
      if (r.safeMode && ctx.safeModes?.[r.safeMode]) inserts.push({ at: r.programEnd, text: safeInsert[r.safeMode] });
      for (const ins of r.inserts) inserts.push(ins);
    }
    if (movedUncertainly && li + 1 < lists.length) {
      return done(
        blocked(
          'cd',
          "a 'cd' after another command may not run, so the commands after ';' would run in an unknown directory; put 'cd' first or join with '&&'",
        ),
      );
    }
  }
  const projectCode = parsed
    .filter((p) => p.projectCode)
    .map((p) => `'${p.subcommand ? `${p.program} ${p.subcommand}` : p.program}'`);
  const verdict =
    projectCode.length > 0
      ? allowed(`${[...new Set(projectCode)].join(', ')} runs project code (trusted workspace)`)
      : allowed('read-only command');
  return {
    command,
    verdict,
    shape: shapeOfParsed(parsed, root),
    parsed: { source, runnable: withSafeModes(source, inserts), env: GATE_RUN_ENV, segments: parsed },
    work: judge.work,
  };
}

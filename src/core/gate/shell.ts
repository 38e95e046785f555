/** The shell-command half of the read-only gate (rules §1.1). */
import { scanCommand } from './scan';
import { checkSegment } from './segment';
import { allowed, type GateContext, type Segment, type Verdict } from './types';

function union(a: readonly string[], b: readonly string[]): string[] {
  if (b.length === 0) return a.slice();
  const out = a.slice();
  for (const x of b) if (!out.includes(x)) out.push(x);
  return out;
}

/**
 * Checks one shell command line (rules §1.1, steps 1–8, in order; the first failure is reported).
 *
 * Relative paths are judged from every directory the shell may be in. The gate tracks, after each
 * pipeline, the directories possible when it succeeded and when it failed, so `cd src && cat ../x`
 * knows `cat` runs in `src`, while `cd src; cat ../x` may run in the root (the `cd` may fail).
 */
export function checkShellCommand(command: string, ctx: GateContext): Verdict {
  const scanned = scanCommand(command);
  if (!scanned.ok) return scanned.verdict;
  const segments = scanned.segments;
  let ok: string[] = ctx.roots.length > 0 ? [ctx.roots[0] as string] : [];
  let failed: string[] = [];
  let seen = ok.slice();
  const projectCode: string[] = [];
  for (let i = 0; i < segments.length;) {
    let j = i + 1;
    while (j < segments.length && (segments[j] as Segment).joinedBy === '|') j++;
    const joinedBy = (segments[i] as Segment).joinedBy;
    let runs: string[];
    let nextOk: string[] = [];
    let nextFailed: string[] = [];
    if (joinedBy === '&&') {
      runs = ok;
      nextFailed = failed; // skipped: the failure carries on
    } else if (joinedBy === '||') {
      runs = failed;
      nextOk = ok; // skipped: the success carries on
    } else runs = union(ok, failed);
    if (runs.length === 0) runs = seen;
    let cdTo: readonly string[] | undefined;
    for (let k = i; k < j; k++) {
      const result = checkSegment(segments[k] as Segment, ctx, runs);
      if ('allowed' in result) return result;
      if (result.projectCode && !projectCode.includes(result.projectCode)) projectCode.push(result.projectCode);
      // A `cd` inside a pipeline runs in a subshell and moves nothing.
      if (j - i === 1) cdTo = result.cdTo;
    }
    if (cdTo) {
      nextOk = union(nextOk, cdTo);
      seen = union(seen, cdTo);
    } else nextOk = union(nextOk, runs);
    nextFailed = union(nextFailed, runs);
    ok = nextOk;
    failed = nextFailed;
    i = j;
  }
  if (projectCode.length > 0) {
    return allowed(`${projectCode.map((p) => `'${p}'`).join(', ')} runs project code (trusted workspace)`);
  }
  return allowed('read-only command');
}

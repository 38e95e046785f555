/**
 * The gate's cost is linear in the command (issue 12, class 10). Work is counted, not timed: the
 * gate reports its real-path lookups, the working directories it computed and its glob steps
 * (`Judgement.work`). A property test (fast-check, fixed seed) builds chains of up to 2,000
 * segments — `cd` into existing directories (`sub`, `.`, `a/b`, `..` …) mixed with `ls`, `pwd` and
 * `cat a.ts`, joined by `&&`, `;` and `|` — and asserts that the work stays within a small constant
 * times the number of segments, and that the gate's working directory for the last segment is the
 * one the shell would be in. The doubling chain of the issue (`cd d0; cd d1; … cd d15; ls`) must
 * finish with one directory per segment.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { judgeCommand, type GateContext } from '../../src/core/gate';
import { NodeWorkspaceReader } from '../../src/node/fsWorkspace';
import { judge, ROOT, TRUSTED } from './helpers';

/** Where `cd` may go from each directory of the helper workspace, staying inside it. */
const MOVES: Readonly<Record<string, readonly string[]>> = {
  '': ['sub', '.', 'a/b', 'a', 'src', 'inlink', './sub/deep'],
  sub: ['deep', '..', '.', '../a/b'],
  'sub/deep': ['..', '.', '../..'],
  a: ['b', '..', '.'],
  'a/b': ['..', '../..', '.', '../../sub'],
  src: ['core', '..', '.'],
  'src/core': ['..', '../..'],
  inlink: ['core', '.', '..'],
  'inlink/core': ['..', '../..'],
};
const OTHERS = ['ls', 'cat a.ts', 'pwd', 'ls -la', 'cat README.md'];

type Step =
  | { readonly kind: 'cd'; readonly pick: number; readonly join: number }
  | { readonly kind: 'other'; readonly pick: number; readonly join: number };

/** Turns random steps into a command the shell can run, and the logical directory it ends in. */
function build(steps: readonly Step[]): { command: string; segments: number; endsIn: string } {
  let here = '';
  let out = '';
  let prevWasCd = true;
  for (let k = 0; k < steps.length; k++) {
    const s = steps[k] as Step;
    let text: string;
    let joiner: string;
    if (s.kind === 'cd') {
      const moves = MOVES[here] as readonly string[];
      const to = moves[s.pick % moves.length] as string;
      text = `cd ${to}`;
      here = path.posix.normalize(path.posix.join(here, to)).replace(/^\.$/, '');
      // A cd after another command in the same '&&' list would make the directory unknown.
      joiner = prevWasCd ? (s.join % 2 === 0 ? ' && ' : '; ') : '; ';
      prevWasCd = true;
    } else {
      text = OTHERS[s.pick % OTHERS.length] as string;
      joiner = prevWasCd ? (s.join % 2 === 0 ? ' && ' : '; ') : ([' && ', '; ', ' | '][s.join % 3] as string);
      prevWasCd = false;
    }
    out += k === 0 ? text : joiner + text;
  }
  return { command: out, segments: steps.length, endsIn: here };
}

const step: fc.Arbitrary<Step> = fc.record({
  kind: fc.constantFrom('cd' as const, 'cd' as const, 'other' as const),
  pick: fc.nat(1000),
  join: fc.nat(1000),
});

async function assertLinear(command: string, segments: number, endsIn?: string): Promise<void> {
  const j = await judge(command, TRUSTED);
  assert.equal(j.verdict.allowed, true, `${command.slice(0, 200)}: ${j.verdict.reason}`);
  const { lookups, cwds } = j.work;
  assert.ok(lookups <= 4 * segments + 16, `${lookups} lookups for ${segments} segments`);
  assert.ok(cwds <= segments, `${cwds} working directories for ${segments} segments`);
  assert.equal(j.parsed?.segments.length, segments);
  if (endsIn !== undefined) {
    const last = j.parsed?.segments.at(-1);
    // `inlink` is a symlink to `src`: the gate reports real directories.
    const expected = path.join(ROOT, endsIn.replace(/^inlink/, 'src'));
    const real = last?.cwd;
    assert.equal(real, expected, `the last segment runs in ${real}, the shell would be in ${expected}`);
  }
}

describe('gate cost: work linear in the number of segments', function () {
  this.timeout(300_000);

  it('property: chains of up to 2,000 cd/&&/;/| segments cost at most 4 lookups per segment (+16) and one directory per segment', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          { weight: 3, arbitrary: fc.array(step, { minLength: 1, maxLength: 60 }) },
          { weight: 1, arbitrary: fc.array(step, { minLength: 200, maxLength: 2000, size: 'max' }) },
        ),
        async (steps) => {
          const { command, segments, endsIn } = build(steps);
          await assertLinear(command, segments, endsIn);
        },
      ),
      { seed: 12, numRuns: 40 },
    );
  });

  it('the longest chains: 2,000 segments of each kind', async () => {
    const cdDot = Array(2000).fill('cd .').join(' && ');
    await assertLinear(cdDot, 2000, '');
    const upDown = Array(1000).fill('cd sub; cd ..').join('; ');
    await assertLinear(upDown, 2000, '');
    const deep = Array(500).fill('cd a && cd b && cd ../..').join(' && ');
    await assertLinear(deep.replace(/ && cd \.\.\/\.\.$/, ' && ls'), 1500, 'a/b');
    const mixed = Array(666).fill('cd sub; ls; cd ..').join('; ');
    await assertLinear(mixed, 1998, '');
    const pipes = Array(2000).fill('cat a.ts').join(' | ');
    await assertLinear(pipes, 2000);
  });

  it('cd d0; cd d1; … cd d15; ls finishes with one directory per segment (it used to double per cd)', async () => {
    const dirs = Array.from({ length: 16 }, (_, i) => `d${i}`);
    const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'planwise-cost-')));
    try {
      mkdirSync(path.join(base, ...dirs), { recursive: true });
      const ctx: GateContext = { roots: [base], trusted: true, fs: new NodeWorkspaceReader([base]) };
      const command = `${dirs.map((d) => `cd ${d}`).join('; ')}; ls`;
      const j = await judgeCommand(command, ctx);
      assert.equal(j.verdict.allowed, true, j.verdict.reason);
      assert.ok(j.work.cwds <= 17 && j.work.lookups <= 4 * 17 + 16, JSON.stringify(j.work));
      assert.equal(j.parsed?.segments.at(-1)?.cwd, path.join(base, ...dirs));
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
    // The same chain in the helper workspace, where d0 does not exist, is refused at the first cd.
    const missing = await judge(`${dirs.map((d) => `cd ${d}`).join('; ')}; ls`, TRUSTED);
    assert.equal(missing.verdict.rule, 'cd');
    assert.ok(missing.work.cwds <= 17 && missing.work.lookups <= 16, JSON.stringify(missing.work));
  });

  it('each distinct path is looked up once per command, however often it is named', async () => {
    const once = await judge('cat src/a.ts', TRUSTED);
    const many = await judge(Array(1000).fill('cat src/a.ts').join(' && '), TRUSTED);
    assert.equal(many.verdict.allowed, true, many.verdict.reason);
    assert.ok(
      many.work.lookups <= once.work.lookups + 2,
      `${many.work.lookups} lookups (one command: ${once.work.lookups})`,
    );
  });
});

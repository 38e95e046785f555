/**
 * Real models' exploration commands (test/fixtures/trajectoryCommands, sources and selection in
 * its README): every command of `admitted.jsonl` lies within rules §1.1 and must be admitted;
 * every command of `refused.jsonl` uses a form the rules refuse on purpose and must be refused by
 * that rule. Each command is judged in a workspace of its own, laid out from its words so the
 * directories it changes into and the files it names exist; the trajectory's repository root
 * (`root`) stands for that workspace.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { judgeCommand, type Judgement } from '../../src/core/gate';
import { grammarOf } from '../../src/core/gate/grammar';
import { scanCommand } from '../../src/core/gate/scan';
import { NodeWorkspaceReader } from '../../src/node/fsWorkspace';

interface TrajectoryCommand {
  readonly command: string;
  /** The repository root as the trajectory names it; replaced by the test workspace's root. */
  readonly root?: string;
  readonly model: string;
  readonly source: string;
}

interface RefusedCommand extends TrajectoryCommand {
  readonly rule: string;
  readonly why: string;
}

const DIR = join(__dirname, '..', 'fixtures', 'trajectoryCommands');
const lines = <T>(file: string): T[] =>
  readFileSync(join(DIR, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);

const admitted = lines<TrajectoryCommand>('admitted.jsonl');
const refused = lines<RefusedCommand>('refused.jsonl');

/** git's listing forms (rules §1.1 step 6); a command using one the git grammar does not list yet waits for it. */
const GIT_LISTING = /\bgit\s+(branch|remote|worktree|tag|stash|ls-tree|cat-file|merge-base|rev-list)\b/;
const awaitedGitForm = (command: string): string | null => {
  const sub = GIT_LISTING.exec(command)?.[1];
  return sub !== undefined && grammarOf('git')?.subcommands?.[sub] === undefined ? sub : null;
};
const awaiting = admitted.filter((c) => awaitedGitForm(c.command) !== null).length;

/** A word that names a file or directory: no option, glob, quoting residue or absolute path. */
const PATH_LIKE = /^[\w.@+,-]+(\/[\w.@+,-]*)*\/?$/;

/**
 * Creates what the command's words name under `root`: directories for `cd` and `-C` targets, for
 * words ending in `/` and for words without an extension; files for the rest.
 */
function layOut(root: string, command: string): void {
  const scanned = scanCommand(command);
  if (!scanned.ok) return;
  for (const segment of scanned.segments) {
    const values = segment.words.map((w) => w.value);
    values.forEach((value, k) => {
      if (k === 0) return;
      const v = value.startsWith(`${root}/`) ? value.slice(root.length + 1) : value;
      if (v.startsWith('-') || v === '.' || v === '..' || !PATH_LIKE.test(v)) return;
      const p = join(root, v);
      if (relative(root, p).startsWith('..')) return;
      const last = v.replace(/\/$/, '').split('/').pop() as string;
      const dir = values[k - 1] === 'cd' || values[k - 1] === '-C' || v.endsWith('/') || !/\.\w+$/.test(last);
      if (dir) mkdirSync(p, { recursive: true });
      else if (!existsSync(p)) {
        mkdirSync(dirname(p), { recursive: true });
        writeFileSync(p, 'x\n');
      }
    });
  }
}

const shown = (c: TrajectoryCommand): string => `${JSON.stringify(c.command.slice(0, 160))} (${c.source})`;

describe('gate: real models’ exploration commands (fixtures/trajectoryCommands)', function () {
  this.timeout(120_000);
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'planwise-trajectories-')));
  const home = join(base, 'home');
  mkdirSync(home);
  let n = 0;
  after(() => rmSync(base, { recursive: true, force: true }));

  async function judged(c: TrajectoryCommand): Promise<Judgement> {
    const root = join(base, `w${n++}`);
    mkdirSync(root);
    const command = c.root === undefined ? c.command : c.command.replaceAll(c.root, root);
    layOut(root, command);
    return judgeCommand(command, { roots: [root], trusted: true, home, fs: new NodeWorkspaceReader([root]) });
  }

  it('holds at least 300 distinct commands, each citing the published file it was taken from', () => {
    assert.ok(admitted.length >= 300, `only ${admitted.length} admitted commands`);
    const all = [...admitted, ...refused];
    assert.equal(new Set(all.map((c) => c.command)).size, all.length, 'a command is listed twice');
    for (const c of all) {
      assert.match(c.source, /^https:\/\/github\.com\/[\w.-]+\/[\w.-]+\/blob\/[0-9a-f]{40}\/\S+$/, shown(c));
      assert.ok(c.model.length > 0, shown(c));
      if (c.root !== undefined) assert.ok(c.command.includes(c.root), `${shown(c)}: its root is not in it`);
    }
  });

  it(`admits every one of the ${admitted.length} commands within the rules${awaiting > 0 ? ` (${awaiting} use a git listing form the git grammar does not list yet: each is refused for that alone)` : ''}`, async () => {
    const wrong: string[] = [];
    for (const c of admitted) {
      const j = await judged(c);
      const sub = awaitedGitForm(c.command);
      if (sub !== null) {
        if (j.verdict.allowed || j.verdict.rule !== 'subcommand' || !j.verdict.reason.includes(`'git ${sub}'`)) {
          wrong.push(`${shown(c)}: awaits 'git ${sub}', but: ${j.verdict.reason}`);
        }
      } else if (!j.verdict.allowed) wrong.push(`${shown(c)}: ${j.verdict.reason}`);
    }
    assert.deepEqual(wrong, []);
  });

  const total = admitted.length + refused.length;
  const share = (100 * refused.length) / total;
  it(`refuses ${refused.length} of ${total} real commands (${share.toFixed(1)}%) on purpose, each by the rule that names its form`, async () => {
    const wrong: string[] = [];
    for (const c of refused) {
      const j = await judged(c);
      if (j.verdict.allowed || j.verdict.rule !== c.rule) wrong.push(`${shown(c)} (${c.why}): ${j.verdict.reason}`);
    }
    assert.deepEqual(wrong, []);
    assert.ok(share < 5, `${share.toFixed(1)}% of the real commands are refused`);
  });
});

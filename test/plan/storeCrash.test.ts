import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { validatePlan } from '../../src/core/plan/validator';
import { parseTrackerFile } from '../../src/core/plan/tracker';
import { TRACKER_BLOCK_START, stripTrackerBlock } from '../../src/core/plan/trackerBlock';
import { PlanStore } from '../../src/core/plan/store';
import { NodeWorkspaceReader, NodeWorkspaceWriter } from '../../src/node/fsWorkspace';
import { validPlan } from './storeHelpers';

const KILLS = 200;
/** Children run in parallel lanes, each in its own workspace, so process start-up overlaps. */
const LANES = 4;

/** Starts the child, waits until it is writing, lets it run a random 0-60 ms, then SIGKILLs it. */
function runAndKill(script: string, root: string): Promise<{ stderr: string; killed: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, root], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let killed = false;
    let scheduled = false;
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', () => {
      if (scheduled) return;
      scheduled = true;
      setTimeout(
        () => {
          killed = child.kill('SIGKILL');
        },
        Math.floor(Math.random() * 61),
      );
    });
    child.on('error', reject);
    child.on('exit', (_code, signal) => resolve({ stderr, killed: killed && signal === 'SIGKILL' }));
  });
}

/** Temporary files (`.name.pid.hex.tmp`) under a folder: evidence of kills that landed mid-write. */
function tempFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.tmp'));
}

const rev = (n: number) => `${String(n).padStart(3, '0')}.md`;

async function checkWorkspace(root: string): Promise<void> {
  const plans = join(root, '.vtcode/plans');
  const planFiles = readdirSync(plans).filter(
    (f) => f.endsWith('.md') && !f.endsWith('.tasks.md') && !f.startsWith('.'),
  );
  assert.deepEqual(planFiles, ['crash.md']);
  const planText = readFileSync(join(plans, 'crash.md'), 'utf8');
  assert.deepEqual(validatePlan(planText).errors, [], 'the plan file is valid');

  const historyDir = join(plans, 'crash.history');
  const numbers = readdirSync(historyDir)
    .map((f) => /^(\d+)\.md$/.exec(f)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
  assert.ok(numbers.length >= 1, 'the first revision was recorded');
  assert.deepEqual(
    numbers,
    numbers.map((_, i) => i + 1),
    'history numbering is contiguous from 1',
  );
  for (const n of numbers) {
    const text = readFileSync(join(historyDir, rev(n)), 'utf8');
    assert.deepEqual(validatePlan(text).errors, [], `history entry ${n} is valid`);
    assert.equal(text.includes(TRACKER_BLOCK_START), false, `history entry ${n} holds no tracker block`);
  }
  for (const tracker of [join(plans, 'crash.tasks.md'), join(root, '.vtcode/tasks/current_task.md')]) {
    if (!existsSync(tracker)) continue;
    const t = parseTrackerFile(readFileSync(tracker, 'utf8'));
    assert.ok(t.items.length >= 1 && t.items.length <= 5, `${tracker} parses to a whole tracker`);
  }

  // The next save records whatever the plan file held at the last kill: no accepted text is lost.
  const before = `${stripTrackerBlock(planText).trimEnd()}\n`;
  const reader = new NodeWorkspaceReader([root]);
  const store = new PlanStore(reader, new NodeWorkspaceWriter(), { root: reader.roots[0] as string, now: Date.now });
  const r = await store.save(validPlan(2), { stem: 'crash' });
  assert.ok(r.ok);
  assert.equal(await store.readRevision('crash', r.revision - 1), before);
  assert.equal(await store.readRevision('crash', r.revision), validPlan(2));
}

describe('plan store: crash safety', function () {
  this.timeout(180_000);
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'planwise-crash-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it(`survives ${KILLS} SIGKILLs at random moments: every plan file and history entry stays valid, numbering contiguous`, async () => {
    const script = join(dir, 'crashChild.cjs');
    await build({
      entryPoints: [join(__dirname, 'crashChild.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      outfile: script,
      logLevel: 'silent',
    });
    const lanes = Array.from({ length: LANES }, (_, i) => join(dir, `ws${i}`));
    let kills = 0;
    await Promise.all(
      lanes.map(async (root) => {
        mkdirSync(root);
        while (kills < KILLS) {
          const r = await runAndKill(script, root);
          assert.equal(r.stderr, '', `the child failed:\n${r.stderr}`);
          if (r.killed) kills++;
        }
      }),
    );
    assert.ok(kills >= KILLS);
    for (const root of lanes) await checkWorkspace(root);
    if (process.env.PLANWISE_CRASH_REPORT) {
      const leftovers = lanes.flatMap((root) => tempFiles(join(root, '.vtcode')));
      process.stdout.write(`      ${kills} kills; ${leftovers.length} temporary files left by kills mid-write\n`);
    }
  });
});

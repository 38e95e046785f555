import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { main } from '../../src/cli/main';
import type { CliIO } from '../../src/cli/io';
import { tempStore, trackerWithStepOneDone, validPlan } from './storeHelpers';

(globalThis as { PLANWISE_VERSION?: string }).PLANWISE_VERSION ??= '0.0.0-test';

const fixtures = join(__dirname, '../fixtures/plans');
const repo = resolve(__dirname, '../..');

async function run(args: string[], opts: { cwd?: string; stdin?: string } = {}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  stdin.end(opts.stdin ?? '');
  const io: CliIO = { stdout, stderr, stdin, env: {}, cwd: opts.cwd ?? repo };
  const code = await main(args, io);
  return { code, out, err };
}

describe('planwise <command>', () => {
  it("answers an unknown command, Object's own names included, with a usage error", async () => {
    for (const name of ['nope', 'constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const r = await run([name]);
      assert.equal(r.code, 2, name);
      assert.match(r.err, new RegExp(`^planwise: unknown command '${name}'\n\nUsage: planwise <command>`), name);
    }
  });
  it('every command the help lists answers --help with its own usage', async () => {
    const help = await run(['--help']);
    const names = [...help.out.matchAll(/^ {2}([a-z-]+) {2,}/gm)].map((m) => m[1] as string);
    assert.ok(names.length >= 7, help.out);
    for (const name of names) {
      const r = await run([name, '--help']);
      assert.deepEqual([r.code, r.err], [0, ''], name);
      assert.match(r.out, new RegExp(`^Usage: planwise ${name}\\b`), name);
    }
  });
});

describe('planwise validate-plan', () => {
  it('exits 0 for a valid plan and names it', async () => {
    const r = await run(['validate-plan', join(fixtures, 'valid/seed-fix-off-by-one.md')]);
    assert.equal(r.code, 0);
    assert.match(r.out, /: valid plan "Fix off-by-one in parser cursor advance" \(2 steps\)\n$/);
  });

  it('exits 1 for an invalid plan and lists every problem with its hint', async () => {
    const r = await run(['validate-plan', 'test/fixtures/plans/invalid/both-step-errors-in-order.md']);
    assert.equal(r.code, 1);
    assert.match(r.out, /invalid plan "Add retry to the upload client" \(3 steps, 4 problems\)/);
    assert.match(r.out, /^ {2}- step 1: must name a concrete file, symbol, or behavior target$/m);
    assert.match(r.out, /^ {6}no target given/m);
    assert.match(r.out, /^ {2}- step 3: verification marker must include a concrete command or check$/m);
  });

  it('--json prints exactly {"valid", "errors": [{"message", "step"?, "line"?, "hint"?}], "warnings", "steps"}', async () => {
    const bad = await run(['validate-plan', '--json', join(fixtures, 'invalid/no-verify-marker.md')]);
    assert.equal(bad.code, 1);
    assert.deepEqual(JSON.parse(bad.out), {
      valid: false,
      errors: [
        {
          message: 'step 1: must include a `verify:` or `verification:` marker',
          step: 1,
          line: 9,
          hint: 'end the step line with "-> verify: [npm test]" or add a "verify:" line under the step',
        },
      ],
      warnings: [],
      steps: 2,
    });
    const noStep = await run(['validate-plan', '--json', join(fixtures, 'invalid/placeholder-tbd.md')]);
    assert.deepEqual(Object.keys(JSON.parse(noStep.out).errors[0]), ['message', 'line']);
    const good = await run(['validate-plan', join(fixtures, 'valid/step-prefix.md'), '--json']);
    assert.equal(good.code, 0);
    assert.equal(good.out, '{"valid":true,"errors":[],"warnings":[],"steps":2}\n');
  });

  it('a file written as a link is a warning: shown, named in --json, and the plan stays valid', async () => {
    const file = join(fixtures, 'valid/link-warning-markdown-file-link.md');
    const human = await run(['validate-plan', file]);
    assert.equal(human.code, 0);
    assert.match(human.out, /: valid plan .*\n {2}warning: line \d+: file reference written as a markdown link/);
    const json = JSON.parse((await run(['validate-plan', '--json', file])).out) as {
      valid: boolean;
      warnings: { message: string; line: number }[];
    };
    assert.equal(json.valid, true);
    assert.equal(json.warnings.length, 1);
    assert.match(json.warnings[0]?.message ?? '', /markdown link "\[upload\.ts:42\]\(src\/upload\.ts#L42\)"/);
  });

  it('--json hints name what is wrong with a verify entry as written', async () => {
    const plan = readFileSync(join(fixtures, 'valid/seed-fix-off-by-one.md'), 'utf8').replace(
      'cargo test parser::tests::single_byte',
      'git reset --hard HEAD',
    );
    const r = await run(['validate-plan', '--json', '-'], { stdin: plan });
    assert.equal(r.code, 1);
    const [error] = (JSON.parse(r.out) as { errors: { message: string; hint: string }[] }).errors;
    assert.equal(error?.message, 'step 2: verification marker must include a concrete command or check');
    assert.match(error?.hint ?? '', /`git reset --hard HEAD` is a mutating git command/);
  });

  it('judges a saved response by its <proposed_plan> block, and reads - from stdin', async () => {
    const plan = readFileSync(join(fixtures, 'valid/seed-fix-off-by-one.md'), 'utf8');
    const r = await run(['validate-plan', '--json', '-'], {
      stdin: `Facts.\n<proposed_plan>\n${plan}</proposed_plan>\nDone.`,
    });
    assert.equal(r.code, 0);
    assert.equal(JSON.parse(r.out).steps, 2);
  });

  it('exits 2 when the file cannot be read, and for usage errors', async () => {
    const missing = await run(['validate-plan', 'no/such/plan.md']);
    assert.equal(missing.code, 2);
    assert.equal(missing.err, "planwise validate-plan: cannot read 'no/such/plan.md': no such file\n");
    const dir = await run(['validate-plan', 'test']);
    assert.equal(dir.code, 2);
    assert.match(dir.err, /cannot read 'test': it is a directory, not a file/);
    const none = await run(['validate-plan']);
    assert.equal(none.code, 2);
    assert.match(none.err, /^planwise validate-plan: no plan file given\n\nUsage:/);
    assert.equal((await run(['validate-plan', '--bogus', 'x.md'])).code, 2);
    assert.equal((await run(['validate-plan', 'a.md', 'b.md'])).code, 2);
  });

  it('prints its help with exit 0', async () => {
    const r = await run(['validate-plan', '--help']);
    assert.equal(r.code, 0);
    assert.match(r.out, /^Usage: planwise validate-plan \[--json\] FILE/);
  });
});

describe('planwise plans', () => {
  let ctx: ReturnType<typeof tempStore>;
  beforeEach(() => (ctx = tempStore()));
  afterEach(() => ctx.cleanup());

  it('says so when there are no plans', async () => {
    const r = await run(['plans', '--workspace', ctx.root]);
    assert.equal(r.code, 0);
    assert.equal(r.out, `No plans in ${join(ctx.root, '.vtcode/plans')}.\n`);
  });

  it('lists plans with status, steps, revisions and tracker progress', async () => {
    const a = await ctx.store.save(validPlan(3), { name: 'tracked' });
    assert.ok(a.ok);
    await ctx.store.save(validPlan(2), { stem: 'tracked' });
    await ctx.store.saveTracker('tracked', trackerWithStepOneDone(2));
    mkdirSync(join(ctx.root, '.vtcode/plans'), { recursive: true });
    writeFileSync(join(ctx.root, '.vtcode/plans/by-hand.md'), '# Notes only\n');
    const r = await run(['plans'], { cwd: ctx.root });
    assert.equal(r.code, 0);
    const lines = r.out.trimEnd().split('\n');
    assert.match(lines[0] ?? '', /^PLAN\s+STATUS\s+STEPS\s+REVISIONS\s+PROGRESS\s+COMMENTS\s+LAST BUILD\s+TITLE$/);
    const tracked = lines.find((l) => l.startsWith('tracked '));
    assert.match(tracked ?? '', /^tracked\s+valid\s+2\s+2\s+1\/2 done \(50%\)\s+-\s+-\s+Retry uploads$/);
    const byHand = lines.find((l) => l.startsWith('by-hand '));
    assert.match(byHand ?? '', /^by-hand\s+invalid\s+0\s+0\s+no tracker\s+-\s+-\s+Notes only$/);
  });

  it('--json gives the listing as data', async () => {
    const a = await ctx.store.save(validPlan(1), { name: 'one' });
    assert.ok(a.ok);
    const r = await run(['plans', '--json', `--workspace=${ctx.root}`]);
    assert.deepEqual(JSON.parse(r.out), [
      {
        stem: 'one',
        file: a.file,
        title: 'Retry uploads',
        valid: true,
        steps: 1,
        revisions: 1,
        progress: null,
        tracker: null,
        openComments: 0,
        lastBuild: null,
      },
    ]);
  });

  it('exits 2 for a missing workspace or an unknown argument', async () => {
    const missing = await run(['plans', '--workspace', join(ctx.root, 'nope')]);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /^planwise plans: workspace '.*nope' is not an existing directory/);
    writeFileSync(join(ctx.root, 'a-file'), 'x');
    const file = await run(['plans', '--workspace', join(ctx.root, 'a-file')]);
    assert.equal(file.code, 2);
    assert.match(file.err, /^planwise plans: workspace '.*a-file' is not an existing directory/);
    assert.equal((await run(['plans', 'extra'])).code, 2);
    assert.equal((await run(['plans', '--workspace'])).code, 2);
  });
});

describe('the built CLI (node dist/cli.cjs)', function () {
  this.timeout(120_000);
  const cli = join(repo, 'dist/cli.cjs');
  let dir: string;

  before(async () => {
    if (!existsSync(cli)) {
      await new Promise<void>((res, rej) =>
        execFile(process.execPath, ['esbuild.mjs'], { cwd: repo }, (e) => (e ? rej(e) : res())),
      );
    }
    dir = mkdtempSync(join(tmpdir(), 'planwise-cli-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const exec = (args: string[]) =>
    new Promise<{ code: number; out: string; err: string }>((res) => {
      execFile(process.execPath, [cli, ...args], { cwd: dir }, (e, out, err) =>
        res({ code: e ? ((e as { code?: number }).code ?? -1) : 0, out, err }),
      );
    });

  it('validate-plan exits 0, 1 and 2 and prints the JSON shape', async () => {
    const valid = await exec(['validate-plan', '--json', join(fixtures, 'valid/unicode-arrow.md')]);
    assert.deepEqual([valid.code, JSON.parse(valid.out)], [0, { valid: true, errors: [], warnings: [], steps: 2 }]);
    const invalid = await exec(['validate-plan', join(fixtures, 'invalid/seed-template.md')]);
    assert.equal(invalid.code, 1);
    assert.match(invalid.out, /placeholder "\[task title\]"/);
    const unreadable = await exec(['validate-plan', join(dir, 'missing.md')]);
    assert.equal(unreadable.code, 2);
  });

  it('every command the help lists answers --help from its own bundle', async () => {
    const names = [...(await exec(['--help'])).out.matchAll(/^ {2}([a-z-]+) {2,}/gm)].map((m) => m[1] as string);
    assert.ok(names.length >= 7);
    for (const name of names) {
      const r = await exec([name, '--help']);
      assert.deepEqual([r.code, r.err], [0, ''], name);
      assert.match(r.out, new RegExp(`^Usage: planwise ${name}\\b`), name);
    }
  });

  it('plans lists a plan saved in the workspace', async () => {
    mkdirSync(join(dir, '.vtcode/plans'), { recursive: true });
    writeFileSync(join(dir, '.vtcode/plans/seed.md'), readFileSync(join(fixtures, 'valid/seed-fix-off-by-one.md')));
    const r = await exec(['plans']);
    assert.equal(r.code, 0);
    assert.match(r.out, /^seed\s+valid\s+2\s+0\s+no tracker\s+-\s+-\s+Fix off-by-one in parser cursor advance$/m);
  });
});

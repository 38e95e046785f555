/**
 * The gate v2 corpus (issue 12): `corpus-v2/rejected.jsonl` holds adversarial commands across the
 * issue's classes 1–11, each with the rule that must refuse it; `corpus-v2/allowed.txt` holds plain
 * inspection commands that must all be allowed. `@ROOT@` in a command stands for the helper
 * workspace's real root, for the absolute forms.
 *
 * The agreement test then runs the whole v2 corpus and the old corpus through the three consumers
 * of the gate — `check-command --batch` in its own process (bundled the way test/cli/binary.test.ts
 * bundles the CLI), `exec_command` with a recording runner, and the build agent's policy — and
 * asserts that they give the same read-only verdict for every command, and that an allowed
 * `exec_command` runs exactly the gate's `parsed.runnable`.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { Spool } from '../../src/core/spool';
import { decideBuildCommand } from '../../src/core/tools/build/buildPolicy';
import { execCommandTool } from '../../src/core/tools/execCommand';
import type { ToolContext } from '../../src/core/tools/types';
import { NodeWorkspaceReader } from '../../src/node/fsWorkspace';
import { gnuSed } from '../../src/node/processRunner';
import { createSearcher } from '../../src/node/ripgrepSearcher';
import { RecordingRunner } from '../tools/helpers';
import { gateContext, HOME, judge, ROOT, TRUSTED, UNTRUSTED } from './helpers';

interface RejectedCase {
  readonly command: string;
  readonly rule: string;
  readonly class?: string;
  /** false: judged in an untrusted workspace. */
  readonly trusted?: boolean;
}

const CLASSES = [
  '1-value-as-subcommand',
  '2-dry-run',
  '3-sed',
  '4-follow-symlinks',
  '5-option-paths',
  '6-cwd',
  '7-hidden-exec',
  '8-test-rewrite',
  '9-gates-disagree',
  '10-cost',
  '11-small-defects',
];

const RULES = new Set([
  'raw.substitution',
  'raw.expansion',
  'raw.backtick',
  'raw.brace',
  'raw.heredoc',
  'raw.process-substitution',
  'raw.subshell',
  'raw.background',
  'raw.quote',
  'raw.control',
  'raw.double-quote',
  'redirect',
  'segment',
  'empty',
  'parse',
  'prefix',
  'program',
  'cd',
  'subcommand',
  'option',
  'follow',
  'value',
  'argument',
  'sed',
  'path',
  'glob',
  'trust',
]);

const withRoot = (command: string): string => command.replaceAll('@ROOT@', ROOT);

function jsonLines(file: string): RejectedCase[] {
  return readFileSync(join(__dirname, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as RejectedCase);
}

function textLines(file: string): string[] {
  return readFileSync(join(__dirname, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('# '));
}

const rejectedRaw = jsonLines('corpus-v2/rejected.jsonl');
const allowedRaw = textLines('corpus-v2/allowed.txt');
const rejected = rejectedRaw.map((c) => ({ ...c, command: withRoot(c.command) }));
const allowedCommands = allowedRaw.map(withRoot);

const shown = (command: string): string => {
  const s = JSON.stringify(command);
  return s.length > 120 ? `${s.slice(0, 100)}… (${command.length} chars)` : s;
};

describe('gate v2 corpus: adversarial commands (corpus-v2/rejected.jsonl)', function () {
  this.timeout(60_000);

  it('holds at least 300 commands, each once, every one with a known rule and class', () => {
    assert.ok(rejected.length >= 300, `only ${rejected.length} commands`);
    const keys = rejectedRaw.map((c) => `${c.trusted === false ? 'untrusted' : 'trusted'}:${c.command}`);
    const dups = keys.filter((k, i) => keys.indexOf(k) !== i);
    assert.deepEqual(dups, [], 'duplicate lines');
    for (const c of rejectedRaw) {
      assert.ok(RULES.has(c.rule), `unknown rule '${c.rule}' for ${shown(c.command)}`);
      assert.ok(
        c.class !== undefined && CLASSES.includes(c.class),
        `unknown class '${c.class}' for ${shown(c.command)}`,
      );
    }
  });

  it('covers every class of the issue with variants', () => {
    for (const name of CLASSES) {
      const n = rejectedRaw.filter((c) => c.class === name).length;
      assert.ok(n >= (name === '10-cost' ? 5 : 15), `class ${name} has only ${n} commands`);
    }
  });

  it('shares no command with the old corpus (test/gate/rejected.jsonl)', () => {
    const old = new Set(jsonLines('rejected.jsonl').map((c) => c.command));
    const again = rejectedRaw.filter((c) => old.has(c.command)).map((c) => c.command);
    assert.deepEqual(again, []);
  });

  for (const c of rejected) {
    const untrusted = c.trusted === false;
    it(`[${c.class}] ${c.rule}: ${shown(c.command)}${untrusted ? ' (untrusted)' : ''}`, async () => {
      const v = (await judge(c.command, untrusted ? UNTRUSTED : TRUSTED)).verdict;
      assert.equal(v.allowed, false, `allowed, but must be refused by '${c.rule}': ${v.reason}`);
      assert.equal(v.rule, c.rule, v.reason);
      assert.match(v.reason, /^blocked: \S/);
    });
  }
});

describe('gate v2 corpus: plain inspection commands (corpus-v2/allowed.txt)', function () {
  this.timeout(60_000);

  it('holds at least 150 commands, each once, none of them also in the rejected corpus', () => {
    assert.ok(allowedCommands.length >= 150, `only ${allowedCommands.length} commands`);
    const dups = allowedRaw.filter((c, i) => allowedRaw.indexOf(c) !== i);
    assert.deepEqual(dups, [], 'duplicate lines');
    const rejectedSet = new Set(rejectedRaw.filter((c) => c.trusted !== false).map((c) => c.command));
    assert.deepEqual(
      allowedRaw.filter((c) => rejectedSet.has(c)),
      [],
      'a command is both allowed and rejected (trusted)',
    );
  });

  for (const command of allowedCommands) {
    it(shown(command), async () => {
      const j = await judge(command, TRUSTED);
      assert.equal(j.verdict.allowed, true, j.verdict.reason);
      assert.ok(j.parsed, 'an allowed command carries its parse');
      assert.equal(j.parsed.source, command.replace(/^\uFEFF/, ''));
    });
  }
});

/** Every command of the v2 and the old corpora, once each (old lines are judged trusted too). */
function agreementCommands(): string[] {
  const all = [
    ...rejected.map((c) => c.command),
    ...allowedCommands,
    ...jsonLines('rejected.jsonl').map((c) => c.command),
    ...textLines('allowed.txt'),
  ];
  return [...new Set(all)];
}

interface BatchLine {
  readonly command: string;
  readonly allowed: boolean;
  readonly rule: string;
  readonly reason: string;
  readonly runs?: string;
}

/** Feeds every command to `check-command --batch` at once; one answer per command, in order. */
function runBatch(
  cli: string,
  commands: readonly string[],
): Promise<{ code: number | null; lines: BatchLine[]; stderr: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [cli, 'check-command', '--workspace', ROOT, '--batch'], {
      env: { PATH: process.env['PATH'], HOME },
      stdio: 'pipe',
    });
    let out = '';
    let err = '';
    proc.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    proc.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
    proc.on('error', reject);
    proc.on('close', (code) =>
      resolve({
        code,
        stderr: err,
        lines: out
          .split('\n')
          .filter((l) => l !== '')
          .map((l) => JSON.parse(l) as BatchLine),
      }),
    );
    proc.stdin.end(commands.map((command) => `${JSON.stringify({ command })}\n`).join(''));
  });
}

describe('gate v2: check-command --batch, exec_command and the build policy agree on every corpus command', function () {
  this.timeout(300_000);
  let outDir: string;
  let cli: string;
  const commands = agreementCommands();

  before(async () => {
    outDir = mkdtempSync(join(tmpdir(), 'planwise-gate-agree-'));
    cli = join(outDir, 'cli.cjs');
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    await build({
      entryPoints: ['src/cli/index.ts'],
      outfile: cli,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      mainFields: ['module', 'main'],
      define: { PLANWISE_VERSION: JSON.stringify(pkg.version) },
      logLevel: 'silent',
    });
  });
  after(() => rmSync(outDir, { recursive: true, force: true }));

  it('judges a corpus of more than 1,000 distinct commands', () => {
    assert.ok(commands.length > 1000, `only ${commands.length}`);
  });

  it('gives the same verdict everywhere, and exec_command runs exactly parsed.runnable', async () => {
    const batch = await runBatch(cli, commands);
    assert.equal(batch.code, 0, batch.stderr);
    assert.equal(batch.lines.length, commands.length, 'one answer per command');

    const reader = new NodeWorkspaceReader([ROOT]);
    const gate = gateContext(TRUSTED);
    const disagreements: string[] = [];
    for (let k = 0; k < commands.length; k++) {
      const command = commands[k] as string;
      const line = batch.lines[k] as BatchLine;
      const judgement = await judge(command, TRUSTED);
      const runner = new RecordingRunner();
      const ctx: ToolContext = {
        reader,
        searcher: createSearcher(reader),
        runner,
        trusted: true,
        home: HOME,
        previewLimitBytes: 8 * 1024,
        spool: new Spool(),
      };
      const exec = await execCommandTool.run({ command }, ctx);
      const ran = runner.calls.length > 0;
      const decision = await decideBuildCommand(command, gate);
      const buildRuns = 'run' in decision && decision.run;
      const gateAllows = judgement.verdict.allowed;
      const facts = `gate=${gateAllows}(${judgement.verdict.rule}) cli=${line.allowed}(${line.rule}) exec=${ran} build=${buildRuns}`;
      if (line.command !== command)
        disagreements.push(`${shown(command)}: the batch answered for ${shown(line.command)}`);
      else if (
        line.allowed !== gateAllows ||
        line.rule !== judgement.verdict.rule ||
        ran !== gateAllows ||
        buildRuns !== gateAllows
      ) {
        disagreements.push(`${shown(command)}: ${facts}`);
      } else if (gateAllows) {
        const runnable = judgement.parsed?.runnable;
        if (runner.calls.length !== 1 || runner.calls[0]?.command !== runnable) {
          disagreements.push(
            `${shown(command)}: exec_command ran ${JSON.stringify(runner.calls.map((c) => c.command))}, parsed.runnable is ${JSON.stringify(runnable)}`,
          );
        }
        if (exec.blocked) disagreements.push(`${shown(command)}: exec_command reported blocked although it ran`);
        // check-command switches on the host's safe modes (GNU sed's --sandbox), as the real runner does.
        const withSafeModes = await judge(command, { ...TRUSTED, safeModes: { sedSandbox: gnuSed() } });
        if (line.runs !== withSafeModes.parsed?.runnable) {
          disagreements.push(
            `${shown(command)}: check-command says ${JSON.stringify(line.runs)} runs, the gate ${JSON.stringify(withSafeModes.parsed?.runnable)}`,
          );
        }
      } else if (exec.blocked !== true || exec.content !== judgement.verdict.reason) {
        disagreements.push(
          `${shown(command)}: exec_command refused with ${JSON.stringify(exec.content)}, the gate with ${JSON.stringify(judgement.verdict.reason)}`,
        );
      }
    }
    assert.deepEqual(disagreements, [], `${disagreements.length} of ${commands.length} commands disagree`);
  });
});

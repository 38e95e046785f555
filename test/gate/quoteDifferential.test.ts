/**
 * Differential test of quoting (rules §1.1 step 1) against dash and bash: fuzzed words built from
 * double-quoted parts full of backslashes and special characters, with single-quoted and escaped
 * unquoted parts around them, each in a line `printf '%s\0' WORD @END`. The gate judges every
 * line; the lines it admits run in one script per shell, whose builtin printf prints the words it
 * receives, and the words the gate says printf receives must be exactly those.
 *
 * The generator knows which words hold something POSIX leaves special inside double quotes (an
 * unescaped `$` or backtick, a backslash before a line break): the gate must refuse exactly those,
 * by a raw-string rule, and admit every other word.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { judgeCommand, type GateContext } from '../../src/core/gate';
import { NodeWorkspaceReader } from '../../src/node/fsWorkspace';

interface Piece {
  readonly text: string;
  /** Something the shell expands or joins inside double quotes. */
  readonly special: boolean;
}

/** Ordinary characters: no backslash, double quote, `$`, backtick or `@` (the end marker). */
const ORDINARY = [
  ...['a', 'b', 'Z', '0', 'n', 't', 'd', 'é', ' ', '\t', '\n', '(', ')', '|', '*', '?', '[', ']', '{', '}'],
  ...['#', '~', '!', '&', ';', '<', '>', '.', '/', '-', '=', "'", '%', '^', '+', ',', ':'],
];
const plain = (text: string): Piece => ({ text, special: false });

/** One piece of the inside of a double-quoted word. */
const inDouble: fc.Arbitrary<Piece> = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...ORDINARY).map(plain) },
  // A backslash before `$`, backtick, `"` or `\` escapes it.
  { weight: 4, arbitrary: fc.constantFrom('\\$', '\\`', '\\"', '\\\\').map(plain) },
  // Before anything else (but a line break) the backslash is itself a character.
  {
    weight: 4,
    arbitrary: fc.constantFrom(...ORDINARY.filter((c) => c !== '\n')).map((c) => plain(`\\${c}`)),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('$', '$x', '$HOME', '$(', '$((', '${', '$1', '$?', '$$', '$@', '$*', '$#', '$-', '`', '\\\n')
      .map((text): Piece => ({ text, special: true })),
  },
);

const doubleQuoted: fc.Arbitrary<Piece> = fc.array(inDouble, { maxLength: 8 }).map((ps) => ({
  text: `"${ps.map((p) => p.text).join('')}"`,
  special: ps.some((p) => p.special),
}));

const singleQuoted: fc.Arbitrary<Piece> = fc
  .array(fc.constantFrom(...ORDINARY.filter((c) => c !== "'"), '\\', '"', '$', '`'), { maxLength: 5 })
  .map((cs) => plain(`'${cs.join('')}'`));

/** Unquoted text: letters and backslash-escaped characters only, so nothing splits or globs. */
const unquoted: fc.Arbitrary<Piece> = fc
  .array(
    fc.oneof(
      fc.constantFrom('a', 'x', '1', '.', '-', '/'),
      fc.constantFrom(...ORDINARY.filter((c) => c !== '\n'), '"', '$', '`', '\\').map((c) => `\\${c}`),
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((cs) => plain(cs.join('')));

const around = fc.option(fc.oneof(singleQuoted, unquoted, doubleQuoted), { nil: undefined });

const word: fc.Arbitrary<Piece> = fc.tuple(around, doubleQuoted, around).map(([a, d, b]) => {
  const parts = [a, d, b].filter((p): p is Piece => p !== undefined);
  return { text: parts.map((p) => p.text).join(''), special: parts.some((p) => p.special) };
});

const END = '@END';
const lineOf = (w: string): string => `printf '%s\\0' ${w} ${END}`;

/** The argument lists printf printed, one per line of the script (each closed by `@END`). */
function runScript(shell: string, lines: readonly string[], cwd: string): string[][] | string {
  const r = spawnSync(shell, ['-c', lines.join('\n')], {
    cwd,
    env: { PATH: process.env['PATH'], LC_ALL: 'C.UTF-8' },
    encoding: 'utf8',
    timeout: 30_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) return `${shell} exited ${r.status}: ${r.stderr}`;
  const groups: string[][] = [];
  let cur: string[] = [];
  for (const v of r.stdout.split('\0').slice(0, -1)) {
    if (v === END) {
      groups.push(cur);
      cur = [];
    } else cur.push(v);
  }
  return groups;
}

function have(program: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' }).status === 0;
}

const RAW_RULES = new Set(['raw.backtick', 'raw.substitution', 'raw.expansion', 'raw.double-quote']);

describe('gate differential: backslashes in double quotes against dash and bash', function () {
  this.timeout(120_000);
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'planwise-quotediff-')));
  const root = join(base, 'ws');
  mkdirSync(root);
  const ctx: GateContext = {
    roots: [root],
    trusted: true,
    home: join(base, 'home'),
    fs: new NodeWorkspaceReader([root]),
  };
  after(() => rmSync(base, { recursive: true, force: true }));

  before(function () {
    if (!have('dash') || !have('bash')) this.skip();
  });

  it('admits every word that holds nothing special, reading the value both shells pass (≥ 1,000 words); refuses only the rest', async () => {
    const words = new Map<string, boolean>();
    for (const w of fc.sample(word, { seed: 3112, numRuns: 2400 })) words.set(w.text, w.special);

    const admitted: { line: string; args: readonly string[] }[] = [];
    const wrongVerdicts: string[] = [];
    let refused = 0;
    for (const [text, special] of words) {
      const line = lineOf(text);
      const j = await judgeCommand(line, ctx);
      if (special) {
        refused++;
        if (j.verdict.allowed || !RAW_RULES.has(j.verdict.rule)) {
          wrongVerdicts.push(`${JSON.stringify(text)} holds a special character, but: ${j.verdict.reason}`);
        }
        continue;
      }
      if (!j.verdict.allowed) {
        wrongVerdicts.push(`${JSON.stringify(text)} holds nothing special, but: ${j.verdict.reason}`);
        continue;
      }
      admitted.push({ line, args: j.parsed?.segments[0]?.args.slice(1) ?? [] });
    }
    assert.deepEqual(wrongVerdicts, []);
    assert.ok(admitted.length >= 1000, `only ${admitted.length} admitted words were compared`);
    assert.ok(refused >= 100, `only ${refused} words with a special character were judged`);

    const mismatches: string[] = [];
    for (const shell of ['dash', 'bash']) {
      const out = runScript(
        shell,
        admitted.map((a) => a.line),
        root,
      );
      assert.ok(typeof out !== 'string', out as string);
      assert.equal(out.length, admitted.length, `${shell} printed ${out.length} lines of ${admitted.length}`);
      admitted.forEach((a, k) => {
        const got = [...(out[k] as string[]), END];
        if (JSON.stringify(got) !== JSON.stringify(a.args)) {
          mismatches.push(
            `${shell}: ${JSON.stringify(a.line)}: gate ${JSON.stringify(a.args)}, shell ${JSON.stringify(got)}`,
          );
        }
      });
    }
    assert.deepEqual(mismatches, []);
  });
});

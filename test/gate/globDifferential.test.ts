/**
 * expandGlob against the real shells: random patterns over a tree of awkward names, expanded by
 * `bash --norc --noprofile -c 'printf "%s\0" PATTERN'` and by dash (LC_ALL=C, cwd = the tree).
 * Bash must agree exactly (same words, same order) on every pattern. Dash must give the same set
 * once its known departures from bash are accounted for (see `dashView`); they are counted.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { promises as fsp, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { expandGlob, type GlobFs } from '../../src/core/gate/glob';

const nodeFs: GlobFs = {
  async readDir(dir) {
    const entries = await fsp.readdir(dir, { withFileTypes: true });
    return entries.map((e) => ({
      name: e.name,
      type: e.isFile() ? 'file' : e.isDirectory() ? 'dir' : e.isSymbolicLink() ? 'symlink' : 'other',
    }));
  },
  async isDir(p) {
    return (await fsp.stat(p).catch(() => null))?.isDirectory() ?? false;
  },
};
/** The same, with the lookup the Node reader gives the gate: a literal last component is lstat'ed, not listed. */
const lookupFs: GlobFs = {
  ...nodeFs,
  async exists(p) {
    return (await fsp.lstat(p).catch(() => null)) !== null;
  },
};

/** The tree, relative to the working directory `tree`, which sits four levels below the temp root
 * so that `..` components (at most four in a pattern) never leave it. */
const FILES = [
  ...['a', 'b', 'c1', 'abc', 'a.txt', 'b.md', '.hidden', '.a', '-n', '-dash', 'sp ace', '[br]', 'x]y', 'st*ar'],
  ...['q?m', 'bang!', '^a', 'é', 'naïve.txt', '日本', '9', '22', 'back\\slash', 'e1', 'x1', 'A', 'Z', '[', ']'],
  ...['d/x1', 'd/x2', 'd/.y', 'd/a b', 'd/1', 'd/sub/deep.txt', 'd/sub/.z', 'd/sub/x9', 'e/x3', 'e/sub/y'],
  ...['.dotdir/x', '.dotdir/a', 'ré/x1', '../sib/x1', '../p3file', '../../a2', '../../../p1file'],
];
const DIRS = ['emptydir', 'd/sub', 'e/sub', '.dotdir', 'ré', '../sib'];
const LINKS: [string, string][] = [
  ['ldir', 'd'],
  ['dangling', 'nowhere'],
  ['lfile', 'a'],
  ['d/up', '..'],
];

/** Pieces of one path component. Escaped characters are written `\c` (quoted in the shell text). */
const WILD = ['*', '*', '*', '?', '?', '[a-c]', '[!.]', '[^a]', '[[:digit:]]', '**'];
const LITERAL = ['a', 'b', 'd', 'x', '1', 'e', 'sub', 'txt', '.', '..', 'é', '-', 'ldir', 'sib', 'r', 'x1', 'ab'];
const RARE = [
  ...['[', ']', '!', '\\*', '\\?', '\\[', '\\]', '\\ ', '\\!', '\\.', '\\\\', '\\-', '\\a', '\\é'],
  ...['[.]', '[]', '[!]', '[a-', '[[:alpha:]', '[[=a=]]', '[[.a.]]', '[x-a]', '[\\]]', '[*]', '[?]', '[]a]'],
];
const fragment = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(...WILD) },
  { weight: 8, arbitrary: fc.constantFrom(...LITERAL) },
  { weight: 3, arbitrary: fc.constantFrom(...RARE) },
);
const component = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('*', '*', '.*', '..', '.', '*/..', 'd', 'e', 'ldir') },
  { weight: 8, arbitrary: fc.array(fragment, { minLength: 1, maxLength: 2 }).map((a) => a.join('')) },
);
const separator = fc.constantFrom('/', '/', '/', '//', '\\/');
const patternArb = fc
  .tuple(
    fc.constantFrom('', '', '', '', '', '', '', './', '../', '../tree/', '<root>/'),
    fc.oneof(
      { weight: 5, arbitrary: fc.tuple(component) },
      { weight: 4, arbitrary: fc.tuple(component, separator, component) },
      { weight: 2, arbitrary: fc.tuple(component, separator, component, separator, component) },
    ),
    fc.constantFrom('', '', '', '', '', '', '/', '//'),
  )
  .map(([pre, parts, post]) => pre + parts.join('') + post);

/** The pattern as shell text: every escaped character single-quoted, so the shell sees the same quoting. */
function shellText(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c !== '\\') out += c;
    else {
      const q = pattern[++i] ?? '\\';
      out += q === "'" ? `"'"` : `'${q}'`;
    }
  }
  return out;
}

/** Runs `printf "%s\0" PATTERN` for each pattern in one shell process per chunk; one word list each. */
function runShell(shell: string, patterns: readonly string[], cwd: string): string[][] {
  const out: string[][] = [];
  for (let at = 0; at < patterns.length; at += 200) {
    const chunk = patterns.slice(at, at + 200);
    const script = chunk.map((p) => `printf '%s\\0' ${shellText(p)}; printf '\\001\\0'`).join('\n');
    const args = shell === 'bash' ? ['--norc', '--noprofile', '-c', script] : ['-c', script];
    const r = spawnSync(shell, args, { cwd, env: { PATH: process.env.PATH, LC_ALL: 'C' }, maxBuffer: 1 << 28 });
    assert.equal(r.error, undefined, `${shell} could not run: ${r.error?.message}`);
    assert.equal(r.status, 0, `${shell} failed: ${r.stderr.toString()}`);
    const words = r.stdout.toString('utf8').split('\0');
    let cur: string[] = [];
    for (const w of words.slice(0, -1)) {
      if (w === '\x01') {
        out.push(cur);
        cur = [];
      } else cur.push(w);
    }
  }
  assert.equal(out.length, patterns.length);
  return out;
}

const META = /(^|[^\\])(\\\\)*[*?[]/;
/**
 * Dash's answer seen the way bash would give it. Dash lets a wildcard component match `.` and
 * `..` (bash's globskipdots does not): such words are dropped (`dots`). For `*` then `//x*` dash
 * keeps `d//x1` where bash, expanding the directory part first, gives `d/x1`: slashes are squeezed
 * on both sides for the comparison. When nothing is left the word stays as written.
 */
function dashView(pattern: string, words: readonly string[], literal: string): { set: string[]; dots: boolean } {
  const comps = pattern.replace(/\\\//g, '/').split('/');
  const kept = words.filter(
    (w) => !w.split('/').some((p, i) => (p === '.' || p === '..') && META.test(comps[i] ?? '')),
  );
  const set = (kept.length > 0 ? kept : [literal]).map(squeeze);
  return { set: [...new Set(set)].sort(), dots: kept.length < words.length };
}
const squeeze = (w: string) => w.replace(/\/\/+/g, '/');

describe('gate: glob expansion against bash and dash', function () {
  this.timeout(120_000);
  let base = '';
  let tree = '';

  before(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'planwise-globdiff-')));
    tree = join(base, 'p1', 'p2', 'p3', 'tree');
    mkdirSync(tree, { recursive: true });
    for (const d of DIRS) mkdirSync(join(tree, d), { recursive: true });
    for (const f of FILES) {
      mkdirSync(join(tree, f, '..'), { recursive: true });
      writeFileSync(join(tree, f), '');
    }
    for (const [name, target] of LINKS) symlinkSync(target, join(tree, name));
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  it('finds bash and dash (installs nothing: the test fails without bash)', () => {
    assert.equal(spawnSync('bash', ['--version']).status, 0, 'bash is required for this test');
    assert.equal(spawnSync('dash', ['-c', 'true']).status, 0, 'dash is required (apt-get install -y dash)');
  });

  for (const [how, fs] of [
    ['listing folders', nodeFs],
    ['looking literal names up', lookupFs],
  ] as const)
    it(`agrees with bash exactly and with dash as a set on 1,200 generated patterns (${how})`, async () => {
      const patterns = [
        ...new Set(fc.sample(patternArb, { seed: 20250517, numRuns: 2000 }).map((p) => p.replace('<root>', tree))),
      ].slice(0, 1200);
      assert.ok(patterns.length >= 800, `only ${patterns.length} distinct patterns`);
      const bash = runShell('bash', patterns, tree);
      const dash = runShell('dash', patterns, tree);
      const stats = { patterns: patterns.length, matched: 0, bashSame: 0, dashCompared: 0, dashSameSet: 0 };
      const dash2 = { skipped: 0, droppedDots: 0, squeezed: 0, sameOrder: 0, otherOrder: 0 };
      const bashDiff: string[] = [];
      const dashDiff: string[] = [];
      for (const [i, p] of patterns.entries()) {
        const r = await expandGlob(p, tree, fs, { remaining: 1_000_000 });
        assert.notEqual(r.kind, 'too-many');
        const mine = r.kind === 'matches' ? r.words : r.kind === 'literal' ? [r.word] : [];
        const [b, d] = [bash[i] ?? [], dash[i] ?? []];
        if (r.kind === 'matches') stats.matched++;
        if (JSON.stringify(mine) === JSON.stringify(b)) stats.bashSame++;
        else bashDiff.push(`${p}\n    mine: ${JSON.stringify(mine)}\n    bash: ${JSON.stringify(b)}`);
        // Dash has no `[^...]` negation (`^` is a member there), and no `[=c=]` or `[.c.]` inside a
        // bracket (where bash also lets an unterminated `[.` make the whole bracket unterminated).
        if (/(^|[^\\])\[\^/.test(p) || /(^|[^\\])\[[^/]*\[[=.]/.test(p)) {
          dash2.skipped++;
          continue;
        }
        stats.dashCompared++;
        const view = dashView(p, d, p.replace(/\\([\s\S])/g, '$1'));
        if (view.dots) dash2.droppedDots++;
        if (d.some((w) => w !== squeeze(w)) && mine.every((w) => w === squeeze(w))) dash2.squeezed++;
        const mineSet = [...new Set(mine.map(squeeze))].sort();
        if (JSON.stringify(mineSet) === JSON.stringify(view.set)) stats.dashSameSet++;
        else dashDiff.push(`${p}\n    mine: ${JSON.stringify(mine)}\n    dash: ${JSON.stringify(d)}`);
        if (r.kind === 'matches' && !view.dots) {
          if (JSON.stringify(d.map(squeeze)) === JSON.stringify(mine.map(squeeze))) dash2.sameOrder++;
          else dash2.otherOrder++;
        }
      }
      console.log(`      ${JSON.stringify(stats)}\n      dash: ${JSON.stringify(dash2)}`);
      assert.ok(stats.matched >= patterns.length / 5, `too few patterns match anything (${stats.matched})`);
      assert.deepEqual(bashDiff, [], `bash disagrees on ${bashDiff.length}:\n${bashDiff.slice(0, 20).join('\n')}`);
      assert.deepEqual(dashDiff, [], `dash disagrees on ${dashDiff.length}:\n${dashDiff.slice(0, 20).join('\n')}`);
    });
});

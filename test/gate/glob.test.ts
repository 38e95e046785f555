/** expandGlob and hasGlob on a real temporary tree: each rule of bash's pathname expansion. */
import assert from 'node:assert/strict';
import { promises as fsp, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expandGlob, hasGlob, type GlobFs, type GlobResult } from '../../src/core/gate/glob';

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

/** nodeFs that records the directories it lists and can refuse some. */
function counting(refuse: (dir: string) => boolean = () => false) {
  const listed: string[] = [];
  const fs: GlobFs = {
    readDir: (dir) => {
      listed.push(dir);
      return refuse(dir) ? Promise.reject(Object.assign(new Error('EACCES'), { code: 'EACCES' })) : nodeFs.readDir(dir);
    },
    isDir: (p) => nodeFs.isDir(p),
  };
  return { fs, listed };
}

const FILES = [
  ...['a', 'b', 'c1', 'abc', 'a.txt', 'b.md', '.hidden', '-n', 'sp ace', '[br]', 'st*ar', 'q?m', 'é', 'x^', 'x!'],
  ...['d/x1', 'd/x2', 'd/.y', 'd/sub/deep.txt', 'e/x3', 'A', ']x', '9', 'k]'],
];

describe('gate: glob expansion', () => {
  let root = '';
  let tree = '';
  const words = async (pattern: string, cwd = tree, fs: GlobFs = nodeFs): Promise<readonly string[]> => {
    const r = await expandGlob(pattern, cwd, fs, { remaining: 100_000 });
    assert.equal(r.kind, 'matches', `${pattern}: ${JSON.stringify(r)}`);
    return (r as Extract<GlobResult, { kind: 'matches' }>).words;
  };
  const literal = async (pattern: string, word: string) =>
    assert.deepEqual(await expandGlob(pattern, tree, nodeFs, { remaining: 100_000 }), { kind: 'literal', word });

  before(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'planwise-glob-')));
    tree = join(root, 'tree');
    mkdirSync(join(tree, 'd', 'sub'), { recursive: true });
    mkdirSync(join(tree, 'e'));
    mkdirSync(join(tree, 'many'));
    for (const f of FILES) writeFileSync(join(tree, f), '');
    for (let i = 0; i < 5000; i++) writeFileSync(join(tree, 'many', `f${i}`), '');
    symlinkSync('d', join(tree, 'ldir'));
    symlinkSync('a', join(tree, 'lfile'));
    symlinkSync('nowhere', join(tree, 'dangling'));
    symlinkSync('nowhere', join(tree, 'd', 'dl'));
    writeFileSync(join(root, 'outside.txt'), '');
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('hasGlob: unescaped * and ?, and [ with a ] after it in the same component', () => {
    for (const p of ['*', 'a?', '[ab]', 'x[!a]', 'd/*.ts', '[]', '\\**']) assert.equal(hasGlob(p), true, p);
    for (const p of ['', 'abc', '\\*', 'a\\?b', '[', 'a[b', '\\[a]', '[a\\]', '[a/b]', 'x]', '\\\\']) {
      assert.equal(hasGlob(p), false, p);
    }
  });

  it('* and ? match within a name, sorted bytewise (LC_ALL=C)', async () => {
    assert.deepEqual(await words('*'), [
      ...['-n', '9', 'A', '[br]', ']x', 'a', 'a.txt', 'abc', 'b', 'b.md', 'c1', 'd', 'dangling', 'e', 'k]'],
      ...['ldir', 'lfile', 'many', 'q?m', 'sp ace', 'st*ar', 'x!', 'x^', 'é'],
    ]);
    assert.deepEqual(await words('?'), ['9', 'A', 'a', 'b', 'd', 'e']);
    assert.deepEqual(await words('a*'), ['a', 'a.txt', 'abc']);
    assert.deepEqual(await words('*.*'), ['a.txt', 'b.md']);
    assert.deepEqual(await words('??'), ['-n', ']x', 'c1', 'k]', 'x!', 'x^', 'é'], 'é is two bytes in the C locale');
  });

  it('bracket expressions: sets, ranges, negation with ! and ^, ] first, classes', async () => {
    assert.deepEqual(await words('[ab]'), ['a', 'b']);
    assert.deepEqual(await words('[a-c]?'), ['c1']);
    assert.deepEqual(await words('[A-Z]'), ['A']);
    assert.deepEqual(await words('[!a-z]'), ['9', 'A']);
    assert.deepEqual(await words('[^a-z]'), ['9', 'A']);
    assert.deepEqual(await words('[]k]*'), [']x', 'k]'], '] first in the set is a member');
    assert.deepEqual(await words('[!]]?'), ['-n', 'c1', 'k]', 'x!', 'x^', 'é']);
    assert.deepEqual(await words('x[!^]'), ['x!']);
    assert.deepEqual(await words('x[\\^]'), ['x^']);
    assert.deepEqual(await words('[[:digit:]]'), ['9']);
    assert.deepEqual(await words('[[:upper:][:digit:]]'), ['9', 'A']);
    assert.deepEqual(await words('[[:alpha:]][[:digit:]]'), ['c1']);
    await literal('[c-a]*', '[c-a]*');
    await literal('[[:nosuch:]]', '[[:nosuch:]]');
  });

  it('an unclosed [ is an ordinary character', async () => {
    await literal('[', '[');
    await literal('*[', '*[');
    assert.deepEqual(await words('[b*'), ['[br]']);
    assert.deepEqual(await words('[br]'), ['b'], 'a closed bracket is a set, not the name [br]');
    assert.deepEqual(await words('[[]br]'), ['[br]']);
  });

  it('backslash escapes make a character literal; no match leaves the word with escapes removed', async () => {
    await literal('st\\*ar', 'st*ar');
    await literal('\\[br]', '[br]');
    assert.deepEqual(await words('st\\**'), ['st*ar']);
    assert.deepEqual(await words('q\\?*'), ['q?m']);
    assert.deepEqual(await words('sp\\ *'), ['sp ace']);
    assert.deepEqual(await words('\\a*'), ['a', 'a.txt', 'abc']);
    await literal('zz*\\*', 'zz**');
    await literal('no/such/*', 'no/such/*');
  });

  it('/ is never matched, and a leading . needs a literal .', async () => {
    await literal('d?x1', 'd?x1');
    await literal('d*x1', 'd*x1');
    assert.deepEqual(await words('.*'), ['.hidden'], '. and .. are never produced');
    assert.deepEqual(await words('\\.h*'), ['.hidden']);
    await literal('?hidden', '?hidden');
    await literal('[.]hidden', '[.]hidden');
    await literal('*hidden', '*hidden');
    await literal('.?', '.?');
    assert.deepEqual(await words('d/.*'), ['d/.y']);
    assert.deepEqual(await words('d/*'), ['d/dl', 'd/sub', 'd/x1', 'd/x2']);
  });

  it('** is just *: no descent into subdirectories', async () => {
    assert.deepEqual(await words('**'), await words('*'));
    assert.deepEqual(await words('**/x*'), ['d/x1', 'd/x2', 'e/x3', 'ldir/x1', 'ldir/x2']);
    await literal('**/deep.txt', '**/deep.txt');
    assert.deepEqual(await words('**/*/deep.txt'), ['d/sub/deep.txt', 'ldir/sub/deep.txt']);
  });

  it('keeps the pattern’s form: relative, ./, .., absolute, doubled slashes', async () => {
    assert.deepEqual(await words('d/x*'), ['d/x1', 'd/x2']);
    assert.deepEqual(await words('./x*', join(tree, 'd')), ['./x1', './x2']);
    assert.deepEqual(await words('../tree/a*'), ['../tree/a', '../tree/a.txt', '../tree/abc']);
    assert.deepEqual(await words('../*.txt'), ['../outside.txt'], 'outside the tree: the gate refuses, not glob');
    assert.deepEqual(await words(`${tree}/d/x*`), [`${tree}/d/x1`, `${tree}/d/x2`]);
    assert.deepEqual(await words('d//x*'), ['d//x1', 'd//x2']);
    assert.deepEqual(await words('*//x3'), ['e/x3'], 'bash drops one / after a globbed directory');
    assert.deepEqual(await words('*/..'), ['d/..', 'e/..', 'ldir/..', 'many/..'], 'a literal .. is joined');
    assert.deepEqual(await words('d/../[ab]'), ['d/../a', 'd/../b']);
  });

  it('a trailing / matches directories only (symlinks followed) and is kept', async () => {
    assert.deepEqual(await words('*/'), ['d/', 'e/', 'ldir/', 'many/']);
    assert.deepEqual(await words('d/*/'), ['d/sub/']);
    await literal('l*/x9/', 'l*/x9/');
  });

  it('symlinks are matched by name and descended through; dangling ones exist by name', async () => {
    assert.deepEqual(await words('l*'), ['ldir', 'lfile']);
    assert.deepEqual(await words('ldir/x*'), ['ldir/x1', 'ldir/x2']);
    assert.deepEqual(await words('dang*'), ['dangling']);
    await literal('dang*/', 'dang*/');
    assert.deepEqual(await words('*/dl'), ['d/dl', 'ldir/dl'], 'a dangling link still exists as a name');
    assert.deepEqual(await words('*/x1'), ['d/x1', 'ldir/x1']);
  });

  it('lists only directories holding a glob component; literal ones are joined', async () => {
    const { fs, listed } = counting();
    assert.deepEqual(await words('d/sub/*.txt', tree, fs), ['d/sub/deep.txt']);
    assert.deepEqual(listed, [`${tree}/d/sub/`]);
    listed.length = 0;
    assert.deepEqual(await words('[de]/sub/*', tree, fs), ['d/sub/deep.txt']);
    assert.deepEqual(listed, [tree, `${tree}/d/sub`, `${tree}/e/sub`]);
  });

  it('an unreadable directory gives no matches for its branch only', async () => {
    const { fs } = counting((dir) => dir.endsWith('/d'));
    assert.deepEqual(await words('*/x*', tree, fs), ['e/x3', 'ldir/x1', 'ldir/x2']);
    const r = await expandGlob('d/*', tree, counting((dir) => dir.endsWith('/d/')).fs, { remaining: 100 });
    assert.deepEqual(r, { kind: 'literal', word: 'd/*' });
  });

  it('the budget counts listings and candidates, and is shared across calls', async () => {
    const budget = { remaining: 10 };
    assert.deepEqual(await expandGlob('d/x*', tree, nodeFs, budget), { kind: 'matches', words: ['d/x1', 'd/x2'] });
    assert.equal(budget.remaining, 7, 'one listing, two matches');
    assert.deepEqual(await expandGlob('*', tree, nodeFs, budget), { kind: 'too-many', limit: 10 });
    assert.equal(budget.remaining, 0);
    const { fs, listed } = counting();
    assert.deepEqual(await expandGlob('d/*', tree, fs, budget), { kind: 'too-many', limit: 10 });
    assert.deepEqual(listed, [], 'an exhausted budget lists nothing');
    assert.deepEqual(await expandGlob('plain', tree, fs, budget), { kind: 'literal', word: 'plain' });
  });

  it('5,000 files against a budget of 2,000: too-many after one listing', async () => {
    const { fs, listed } = counting();
    const budget = { remaining: 2000 };
    assert.deepEqual(await expandGlob('many/*', tree, fs, budget), { kind: 'too-many', limit: 2000 });
    assert.equal(listed.length, 1);
    assert.equal(budget.remaining, 0);
    const small = { remaining: 2000 };
    const r = await expandGlob('many/f4999*', tree, fs, small);
    assert.deepEqual(r, { kind: 'matches', words: ['many/f4999'] });
    assert.equal(small.remaining, 1998);
  });

  it('a wide tree of directories stops listing when the budget runs out', async () => {
    const wide = join(root, 'wide');
    for (let i = 0; i < 1500; i++) mkdirSync(join(wide, `d${i}`), { recursive: true });
    const { fs, listed } = counting();
    const budget = { remaining: 2000 };
    assert.deepEqual(await expandGlob('*/*', wide, fs, budget), { kind: 'too-many', limit: 2000 });
    assert.ok(listed.length <= 2000 && listed.length > 400, `${listed.length} listings`);
    rmSync(wide, { recursive: true });
  });

  // bash looks a literal last component up with lstat: a dangling symlink there is a match, and
  // the folder is not read (a folder of thousands costs one lookup).
  it('looks a literal last component up instead of listing its folder, when the port can', async () => {
    mkdirSync(join(tree, 'look', 'in'), { recursive: true });
    symlinkSync('nowhere', join(tree, 'look', 'in', 'dl'));
    const { fs: listing, listed } = counting();
    const looked: string[] = [];
    const fs: GlobFs = {
      ...listing,
      exists: async (p) => {
        looked.push(p);
        return (await fsp.lstat(p).catch(() => null)) !== null;
      },
    };
    assert.deepEqual(await words('lo*/in/dl', tree, fs), ['look/in/dl']);
    assert.deepEqual(await words('m*/f4999', tree, fs), ['many/f4999']);
    assert.deepEqual(await expandGlob('m*/nope', tree, fs, { remaining: 100 }), { kind: 'literal', word: 'm*/nope' });
    assert.deepEqual(looked, [join(tree, 'look/in/dl'), join(tree, 'many/f4999'), join(tree, 'many/nope')]);
    assert.ok(!listed.includes(join(tree, 'many')), `many/ was listed: ${listed.join(', ')}`);
    // Listing gives the same words.
    assert.deepEqual(await words('lo*/in/dl'), ['look/in/dl']);
    assert.deepEqual(await words('m*/f4999'), ['many/f4999']);
  });
});

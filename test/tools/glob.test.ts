import assert from 'node:assert/strict';
import { compileGlob } from '../../src/core/tools/glob';

function check(glob: string, yes: string[], no: string[]): void {
  const m = compileGlob(glob);
  for (const p of yes) assert.equal(m(p), true, `${glob} should match ${p}`);
  for (const p of no) assert.equal(m(p), false, `${glob} should not match ${p}`);
}

describe('compileGlob', () => {
  it('matches a glob without a slash against the file name anywhere', () => {
    check('*.ts', ['a.ts', 'src/deep/b.ts'], ['a.tsx', 'ts', 'src/a.js']);
    check('?.md', ['a.md', 'docs/b.md'], ['ab.md']);
  });

  it('matches a glob with a slash against the whole relative path', () => {
    check('src/*.ts', ['src/a.ts'], ['src/x/a.ts', 'lib/src/a.ts']);
    check('src/**/*.ts', ['src/a.ts', 'src/x/y/a.ts'], ['lib/a.ts']);
    check('/src/*.ts', ['src/a.ts'], ['x/src/a.ts']);
    check('**/test/*.py', ['test/a.py', 'pkg/test/a.py'], ['pkg/tests/a.py']);
  });

  it('supports classes, alternatives, escapes and negation', () => {
    check('[ab].txt', ['a.txt', 'b.txt'], ['c.txt']);
    check('[!ab].txt', ['c.txt'], ['a.txt']);
    check('*.{js,ts}', ['a.js', 'a.ts'], ['a.py']);
    check('a\\*.txt', ['a*.txt'], ['ab.txt']);
    check('!*.ts', ['a.py', 'src/a.js'], ['a.ts']);
    check('a+b(c).txt', ['a+b(c).txt'], ['aab(c).txt']);
  });
});

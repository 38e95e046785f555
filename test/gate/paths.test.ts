/** Rules §1.1 step 8 and `cd`: arguments must stay inside a workspace root. */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { checkShellCommand, isInsideRoots } from '../../src/core/gate';
import { HOME, ROOT, TRUSTED, expectAllowed, expectBlocked } from './helpers';

describe('gate: paths (step 8)', () => {
  it('rejects an absolute path outside the workspace, naming it', () => {
    assert.equal(
      checkShellCommand('cat /etc/passwd', TRUSTED).reason,
      "blocked: path '/etc/passwd' is outside the workspace",
    );
    expectBlocked('ls -la /', 'path');
    expectBlocked('diff a.txt /etc/hosts', 'path');
  });
  it('allows an absolute path inside a root', () => {
    expectAllowed(`cat ${path.join(ROOT, 'README.md')}`);
    expectAllowed(`ls ${ROOT}`);
  });
  it('does not mistake a sibling folder with the same prefix for the root', () => {
    expectBlocked(`cat ${ROOT}-other/secret`, 'path');
  });
  it('rejects ~ paths outside the workspace', () => {
    expectBlocked('cat ~/.ssh/id_rsa', 'path', "'~/.ssh/id_rsa'");
    expectBlocked('ls ~', 'path');
    expectBlocked('cat ~root/.bashrc', 'path');
    expectBlocked('cat ~+/x', 'path');
  });
  it('resolves ~ with the given home, and refuses it when no home is known', () => {
    const inHome = { roots: [path.join(HOME, 'proj')], trusted: true, home: HOME };
    expectAllowed('cat ~/proj/README.md', inHome);
    expectBlocked('cat ~/proj/README.md', 'path', undefined, { ...inHome, home: undefined });
  });
  it('a quoted ~ is a literal folder name', () => {
    expectAllowed("ls '~/x'");
  });
  it('checks values glued to options', () => {
    expectBlocked('rg --ignore-file=/etc/x foo', 'path', "'/etc/x'");
    expectBlocked('grep -f/etc/passwd x', 'path', "'/etc/passwd'");
    expectBlocked('ls a=~/x', 'path');
    expectBlocked('ls --path=a:~/x', 'path', "'~/x'");
    expectAllowed("ls --path=a:'~/x'");
  });
  it('rejects relative paths that climb out of the workspace', () => {
    expectBlocked('cat ../secret', 'path', "'../secret'");
    expectBlocked('cat src/../../x', 'path');
    expectAllowed('cat src/../README.md');
  });
  it('allows /dev/null as an argument', () => {
    expectAllowed('diff /dev/null README.md');
  });
  it('accepts any of several roots', () => {
    const other = path.resolve('/ws/other');
    const ctx = { ...TRUSTED, roots: [ROOT, other] };
    expectAllowed(`cat ${path.join(other, 'x.txt')}`, ctx);
    expectBlocked(`cat ${path.join(other, 'x.txt')}`, 'path');
  });
  it('does not read search patterns and sed scripts as paths', () => {
    expectAllowed("rg -n '/api/v1' src");
    expectAllowed("grep -rn '/usr/bin' src");
    expectAllowed("sed -n '/^export/p' a.ts");
    expectAllowed("sed -e '/x/d' a.ts");
    expectBlocked('rg -e x /etc', 'path');
    expectBlocked('rg --files /etc', 'path');
  });
});

describe('gate: cd', () => {
  it('rejects cd out of the workspace', () => {
    expectBlocked('cd /tmp', 'path', "'cd /tmp' leaves the workspace");
    expectBlocked('cd ..', 'path');
    expectBlocked('cd ~', 'path');
    expectBlocked('cd', 'path', 'home directory');
    expectBlocked('cd -', 'path');
    expectBlocked('cd a b', 'segment');
  });
  it('resolves a relative DIR against the first root', () => {
    expectAllowed('cd src && ls');
    expectAllowed(`cd ${path.join(ROOT, 'src')} && ls`);
  });
  it('after cd DIR &&, relative paths are judged from DIR', () => {
    expectAllowed('cd src && cat ../README.md');
    expectAllowed('cd src && ls | cat ../README.md');
    expectBlocked('cd src && cat ../../x', 'path');
    expectBlocked('cd src && cd ../.. && ls', 'path');
  });
  it('after cd DIR with ; or ||, the cd may have failed, so both directories count', () => {
    expectBlocked('cd src; cat ../README.md', 'path');
    expectBlocked('cd src || cat ../README.md', 'path');
  });
  it('a cd inside a pipeline moves nothing', () => {
    expectBlocked('cd src | true && cat ../README.md', 'path');
  });
  it('git -C DIR must stay inside and sets where git resolves paths', () => {
    expectBlocked('git -C /elsewhere status', 'option', "'git -C /elsewhere' points outside the workspace");
    expectBlocked('git -C .. log', 'option');
    expectAllowed('git -C src log -- ../README.md');
    expectBlocked('git -C src log -- ../../x', 'path');
  });
});

describe('isInsideRoots', () => {
  it('is lexical and exact about folder boundaries', () => {
    assert.equal(isInsideRoots(ROOT, [ROOT]), true);
    assert.equal(isInsideRoots(path.join(ROOT, 'a', 'b'), [ROOT]), true);
    assert.equal(isInsideRoots(path.join(ROOT, 'a', '..', '..', 'x'), [ROOT]), false);
    assert.equal(isInsideRoots(`${ROOT}x`, [ROOT]), false);
    assert.equal(isInsideRoots('relative/path', [ROOT]), false);
    assert.equal(isInsideRoots(path.join(ROOT, 'a'), []), false);
  });
});

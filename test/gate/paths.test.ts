/** Rules §1.1 step 8 and `cd`: arguments must stay inside a workspace root. */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { isInsideRoots } from '../../src/core/gate';
import { HOME, ROOT, TRUSTED, expectAllowed, expectBlocked, verdictOf } from './helpers';

describe('gate: paths (step 8)', () => {
  it('rejects an absolute path outside the workspace, naming it', async () => {
    assert.equal(
      (await verdictOf('cat /etc/passwd', TRUSTED)).reason,
      "blocked: path '/etc/passwd' is outside the workspace",
    );
    await expectBlocked('ls -la /', 'path');
    await expectBlocked('diff a.txt /etc/hosts', 'path');
  });
  it('allows an absolute path inside a root', async () => {
    await expectAllowed(`cat ${path.join(ROOT, 'README.md')}`);
    await expectAllowed(`ls ${ROOT}`);
  });
  it('does not mistake a sibling folder with the same prefix for the root', async () => {
    await expectBlocked(`cat ${ROOT}-other/secret`, 'path');
  });
  it('rejects ~ paths outside the workspace', async () => {
    await expectBlocked('cat ~/.ssh/id_rsa', 'path', "'~/.ssh/id_rsa'");
    await expectBlocked('ls ~', 'path');
    await expectBlocked('cat ~root/.bashrc', 'path');
    await expectBlocked('cat ~+/x', 'path');
  });
  it('resolves ~ with the given home, and refuses it when no home is known', async () => {
    const inHome = { roots: [path.join(HOME, 'proj')], trusted: true, home: HOME };
    await expectAllowed('cat ~/proj/README.md', inHome);
    await expectBlocked('cat ~/proj/README.md', 'path', undefined, { ...inHome, home: undefined });
  });
  it('a quoted ~ is a literal folder name', async () => {
    await expectAllowed("ls '~/x'");
  });
  it('checks values glued to options', async () => {
    await expectBlocked('rg --ignore-file=/etc/x foo', 'path', "'/etc/x'");
    await expectBlocked('grep -f/etc/passwd x', 'path', "'/etc/passwd'");
    await expectBlocked('ls a=~/x', 'path');
    await expectBlocked('rg --ignore-file=a:~/x foo', 'path', "'--ignore-file=a:~/x'");
    await expectBlocked('ls a=~/x', 'path', 'bash expands this');
    await expectAllowed("ls a=':~/x'");
  });
  it('rejects relative paths that climb out of the workspace', async () => {
    await expectBlocked('cat ../secret', 'path', "'../secret'");
    await expectBlocked('cat src/../../x', 'path');
    await expectAllowed('cat src/../README.md');
  });
  it('allows /dev/null as an argument', async () => {
    await expectAllowed('diff /dev/null README.md');
  });
  it('accepts any of several roots', async () => {
    const other = path.join(HOME, 'proj');
    const ctx = { ...TRUSTED, roots: [ROOT, other] };
    await expectAllowed(`cat ${path.join(other, 'README.md')}`, ctx);
    await expectBlocked(`cat ${path.join(other, 'README.md')}`, 'path');
  });
  it('does not read search patterns and sed scripts as paths', async () => {
    await expectAllowed("rg -n '/api/v1' src");
    await expectAllowed("grep -rn '/usr/bin' src");
    await expectAllowed("sed -n '/^export/p' a.ts");
    await expectAllowed("sed -e '/x/d' a.ts");
    await expectBlocked('rg -e x /etc', 'path');
    await expectBlocked('rg --files /etc', 'path');
  });
});

describe('gate: cd', () => {
  it('rejects cd out of the workspace', async () => {
    await expectBlocked('cd /tmp', 'path', "'cd /tmp' leaves the workspace");
    await expectBlocked('cd ..', 'path');
    await expectBlocked('cd ~', 'path');
    await expectBlocked('cd', 'cd', 'home directory');
    await expectBlocked('cd -', 'cd');
    await expectBlocked('cd a b', 'cd');
    await expectBlocked('cd link', 'path', 'leaves the workspace');
    await expectBlocked('cd no-such-dir', 'cd', 'no such directory');
  });
  it('resolves a relative DIR against the first root', async () => {
    await expectAllowed('cd src && ls');
    await expectAllowed(`cd ${path.join(ROOT, 'src')} && ls`);
  });
  it('after cd DIR &&, relative paths are judged from DIR', async () => {
    await expectAllowed('cd src && cat ../README.md');
    await expectAllowed('cd src && ls | cat ../README.md');
    await expectBlocked('cd src && cat ../../x', 'path');
    await expectBlocked('cd src && cd ../.. && ls', 'path');
  });
  it('follows one working directory along the chain: a cd that always runs moves the later segments', async () => {
    // The directory exists, so `cd src` cannot fail: after `;` the shell is in src.
    await expectAllowed('cd src; cat ../README.md');
    await expectBlocked('cd src; cat ../../x', 'path');
    await expectAllowed('cd a && cd b && cat ../../README.md');
    await expectBlocked('cd a && cd b && cat ../../../x', 'path');
  });
  it('refuses a cd whose running is uncertain when later commands depend on it', async () => {
    await expectBlocked('cd src || cat ../README.md', 'cd', "'||'");
    await expectBlocked('ls && cd src; cat ../README.md', 'cd', 'unknown directory');
    await expectAllowed('ls && cd src && cat ../README.md');
  });
  it('a cd inside a pipeline is refused: it moves nothing', async () => {
    await expectBlocked('cd src | true && cat ../README.md', 'cd', 'pipeline');
  });
  it('cd follows the shell: logical for `..`, physical for the programs after it', async () => {
    await expectBlocked('cd inlink && cat ../../x', 'path');
    await expectBlocked('cd sub/deep && cat up/secret', 'path', 'through a symlink');
  });
  it('git -C DIR must stay inside and sets where git resolves paths', async () => {
    await expectBlocked('git -C /elsewhere status', 'path', "'/elsewhere' is outside the workspace");
    await expectBlocked('git -C .. log', 'path');
    await expectAllowed('git -C src log -- ../README.md');
    await expectBlocked('git -C sub diff --no-index ../link/secret f', 'path', 'through a symlink');
    await expectBlocked('git -C src log -- ../../x', 'path');
  });
});

describe('isInsideRoots', () => {
  it('is lexical and exact about folder boundaries', async () => {
    assert.equal(isInsideRoots(ROOT, [ROOT]), true);
    assert.equal(isInsideRoots(path.join(ROOT, 'a', 'b'), [ROOT]), true);
    assert.equal(isInsideRoots(path.join(ROOT, 'a', '..', '..', 'x'), [ROOT]), false);
    assert.equal(isInsideRoots(`${ROOT}x`, [ROOT]), false);
    assert.equal(isInsideRoots('relative/path', [ROOT]), false);
    assert.equal(isInsideRoots(path.join(ROOT, 'a'), []), false);
  });
});

// The Node reader's roots: each must be an existing folder, and is kept as its real path.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { NodeWorkspaceReader } from '../../src/node/fsWorkspace';

describe('NodeWorkspaceReader roots', () => {
  let dir: string;
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'planwise-roots-')));
    mkdirSync(path.join(dir, 'ws'));
    writeFileSync(path.join(dir, 'file.txt'), 'x');
    symlinkSync(path.join(dir, 'ws'), path.join(dir, 'link'));
    symlinkSync(path.join(dir, 'file.txt'), path.join(dir, 'file-link'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps a folder as its real path, however it is spelled', () => {
    for (const spelled of ['ws', 'ws/', 'link', 'link/', 'ws/../ws']) {
      assert.deepEqual(new NodeWorkspaceReader([path.join(dir, spelled)]).roots, [path.join(dir, 'ws')], spelled);
    }
    assert.deepEqual(new NodeWorkspaceReader(['/']).roots, ['/']);
  });

  it('refuses a file, a link to a file, and a missing path, naming the reason', () => {
    for (const [name, code] of [
      ['file.txt', 'ENOTDIR'],
      ['file-link', 'ENOTDIR'],
      ['missing', 'ENOENT'],
    ] as const) {
      assert.throws(() => new NodeWorkspaceReader([path.join(dir, name)]), { code }, name);
    }
    assert.throws(() => new NodeWorkspaceReader([]), /at least one root folder/);
  });

  it('refuses the whole set when one root is no folder', () => {
    assert.throws(() => new NodeWorkspaceReader([path.join(dir, 'ws'), path.join(dir, 'file.txt')]), {
      code: 'ENOTDIR',
    });
  });
});

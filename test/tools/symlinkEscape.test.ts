import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execCommandTool } from '../../src/core/tools/execCommand';
import { symlinkEscape } from '../../src/core/tools/symlinkEscape';
import { makeTempWorkspace, type TempWorkspace } from '../support/tempWorkspace';
import { contextFor } from './helpers';

describe('exec_command and symlinks pointing out of the workspace', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeTempWorkspace({ 'a.txt': 'alpha\n', 'src/b.ts': 'b\n' });
    writeFileSync(join(ws.outside, 'secret.txt'), 'TOP SECRET\n');
    ws.symlink('out-file', join(ws.outside, 'secret.txt'), 'file');
    ws.symlink('src/out-dir', ws.outside, 'dir');
    ws.symlink('src/in-link', join(ws.root, 'a.txt'), 'file');
  });
  afterEach(() => ws.cleanup());

  for (const command of [
    'cat out-file',
    'head -n 1 src/out-dir/secret.txt',
    'cd src && cat out-dir/secret.txt',
    'wc -l a.txt out-file',
  ]) {
    it(`refuses '${command}' before running it`, async () => {
      const r = await execCommandTool.run({ command }, contextFor(ws));
      assert.equal(r.blocked, true);
      assert.match(r.content, /resolves outside the workspace through a symlink/);
      assert.ok(!r.content.includes('TOP SECRET'));
    });
  }

  it('allows symlinks that stay inside and plain files', async () => {
    assert.equal(await symlinkEscape('cat src/in-link a.txt src/b.ts', ws.reader, ws.root), undefined);
    const r = await execCommandTool.run({ command: 'cat src/in-link' }, contextFor(ws));
    assert.equal(r.ok, true);
    assert.match(r.content, /alpha/);
  });

  it('ignores words that name nothing on disk', async () => {
    assert.equal(await symlinkEscape("rg -n 'no such thing' src", ws.reader, ws.root), undefined);
  });
});

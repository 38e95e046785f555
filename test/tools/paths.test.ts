import assert from 'node:assert/strict';
import { join } from 'node:path';
import { displayPath, resolveWorkspacePath } from '../../src/core/paths';
import { NodeWorkspaceReader } from '../../src/node/fsWorkspace';
import { makeTempWorkspace, type TempWorkspace } from '../support/tempWorkspace';

async function errorOf(ws: TempWorkspace, input: string, reader = ws.reader): Promise<string> {
  const r = await resolveWorkspacePath(reader, input);
  assert.ok('error' in r, `expected ${input} to be refused, got ${JSON.stringify(r)}`);
  return r.error;
}

async function realOf(ws: TempWorkspace, input: string): Promise<{ real: string; missing: boolean }> {
  const r = await resolveWorkspacePath(ws.reader, input);
  assert.ok(!('error' in r), `expected ${input} to be accepted, got ${JSON.stringify(r)}`);
  return r;
}

describe('resolveWorkspacePath', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeTempWorkspace({ 'src/a.ts': 'a', 'README.md': 'r' });
    ws.write('../outside/secret.txt', 'secret');
  });
  afterEach(() => ws.cleanup());

  it('resolves relative paths against the first root', async () => {
    assert.deepEqual(await realOf(ws, 'src/a.ts'), {
      abs: ws.path('src/a.ts'),
      real: ws.path('src/a.ts'),
      missing: false,
    });
    assert.equal((await realOf(ws, '.')).real, ws.root);
    assert.equal((await realOf(ws, './src/../README.md')).real, ws.path('README.md'));
  });

  it('accepts an absolute path inside the workspace', async () => {
    assert.equal((await realOf(ws, ws.path('src/a.ts'))).real, ws.path('src/a.ts'));
  });

  it('refuses .. that leaves the workspace, naming the path', async () => {
    const e = await errorOf(ws, '../outside/secret.txt');
    assert.match(e, /'\.\.\/outside\/secret\.txt' is outside the workspace/);
    assert.ok(e.includes(ws.root), 'the message names the workspace root');
  });

  it('refuses an absolute path outside the workspace', async () => {
    assert.match(await errorOf(ws, join(ws.outside, 'secret.txt')), /is outside the workspace/);
    assert.match(await errorOf(ws, '/etc/passwd'), /'\/etc\/passwd' is outside the workspace/);
  });

  it('refuses ~ paths', async () => {
    for (const p of ['~', '~/x', '~root/.ssh/id_rsa'])
      assert.match(await errorOf(ws, p), /starts with '~'.*outside the workspace/);
  });

  it('refuses empty paths and control characters', async () => {
    assert.match(await errorOf(ws, ''), /empty/);
    assert.match(await errorOf(ws, 'a\nb'), /control character/);
  });

  it('refuses a file symlink pointing outside, saying where it resolves', async () => {
    ws.symlink('leak.txt', join(ws.outside, 'secret.txt'));
    const e = await errorOf(ws, 'leak.txt');
    assert.match(e, /'leak\.txt' is outside the workspace \(it resolves to .*outside\/secret\.txt\)/);
  });

  it('refuses paths through a directory symlink pointing outside, existing or not', async () => {
    ws.symlink('linkdir', ws.outside, 'dir');
    assert.match(await errorOf(ws, 'linkdir'), /outside the workspace/);
    assert.match(await errorOf(ws, 'linkdir/secret.txt'), /outside the workspace/);
    assert.match(await errorOf(ws, 'linkdir/new/file.txt'), /outside the workspace/);
    assert.match(await errorOf(ws, 'src/../linkdir/secret.txt'), /outside the workspace/);
  });

  it('refuses a relative symlink that climbs out', async () => {
    ws.symlink('src/up', '../../outside', 'dir');
    assert.match(await errorOf(ws, 'src/up/secret.txt'), /outside the workspace/);
  });

  it('refuses a dangling symlink, whose target cannot be checked', async () => {
    ws.symlink('dangling', join(ws.outside, 'not-yet'));
    assert.match(await errorOf(ws, 'dangling'), /'dangling' is a symlink whose target does not exist/);
  });

  it('refuses a symlink loop with a clear message', async () => {
    ws.symlink('loop1', ws.path('loop2'));
    ws.symlink('loop2', ws.path('loop1'));
    assert.match(await errorOf(ws, 'loop1/x'), /loop of symlinks|symlink whose target does not exist/);
  });

  it('accepts symlinks that stay inside, reporting the real path', async () => {
    ws.symlink('alias.ts', ws.path('src/a.ts'));
    ws.symlink('srclink', ws.path('src'), 'dir');
    assert.equal((await realOf(ws, 'alias.ts')).real, ws.path('src/a.ts'));
    assert.equal((await realOf(ws, 'srclink/a.ts')).real, ws.path('src/a.ts'));
  });

  it('accepts a missing path inside, resolving its nearest existing ancestor', async () => {
    ws.symlink('srclink', ws.path('src'), 'dir');
    assert.deepEqual(await realOf(ws, 'srclink/new/deep.ts'), {
      abs: ws.path('srclink/new/deep.ts'),
      real: ws.path('src/new/deep.ts'),
      missing: true,
    });
  });

  it('accepts paths in any root of a multi-root workspace', async () => {
    const second = ws.mkdir('../second');
    const reader = new NodeWorkspaceReader([ws.root, second]);
    const r = await resolveWorkspacePath(reader, join(second, 'x.txt'));
    assert.ok(!('error' in r));
    const e = await errorOf(ws, join(ws.outside, 'secret.txt'), reader);
    assert.ok(e.includes(second), 'the message lists every root');
  });

  it('displays paths relative to the first root', () => {
    assert.equal(displayPath([ws.root], ws.path('src/a.ts')), 'src/a.ts');
    assert.equal(displayPath([ws.root], ws.root), '.');
    assert.equal(displayPath([ws.root], ws.outside), ws.outside);
  });
});

/** The Node workspace reader's file reads: small files on the event loop, the rest on the thread pool, the same bytes either way. */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeWorkspaceReader, SYNC_READ_MAX_BYTES } from '../../src/node/fsWorkspace';

describe('node: NodeWorkspaceReader.readFile', () => {
  let dir: string;
  let reader: NodeWorkspaceReader;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'planwise-reader-'));
    reader = new NodeWorkspaceReader([dir]);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const bytes = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 7) % 251));

  it('reads small, empty, exactly-at-the-limit and large files whole', async () => {
    for (const [name, n] of [
      ['small', 12],
      ['empty', 0],
      ['limit', SYNC_READ_MAX_BYTES],
      ['large', SYNC_READ_MAX_BYTES + 1],
      ['huge', 3 * SYNC_READ_MAX_BYTES + 5],
    ] as const) {
      writeFileSync(join(dir, name), bytes(n));
      assert.ok(Buffer.from(await reader.readFile(join(dir, name))).equals(bytes(n)), name);
    }
  });

  it('reads a file whose size the kernel reports as 0 to its end (/proc, Linux)', async () => {
    const text = Buffer.from(await reader.readFile('/proc/self/status')).toString('utf8');
    assert.match(text, /^Name:/m);
  });

  it('rejects a missing file and a directory with their error codes', async () => {
    await assert.rejects(reader.readFile(join(dir, 'missing')), { code: 'ENOENT' });
    mkdirSync(join(dir, 'sub'));
    await assert.rejects(reader.readFile(join(dir, 'sub')), { code: 'EISDIR' });
  });
});

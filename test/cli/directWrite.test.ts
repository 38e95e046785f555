/**
 * writeOnce: the one line `--version` and `check-command` print goes straight to stdout's
 * descriptor. A real pipe whose reader takes the bytes slowly is hard to arrange, so the short write
 * and the full pipe are played by Node's own fs.writeSync, replaced for the test.
 */
import assert from 'node:assert/strict';
import fs, { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeOnce } from '../../src/cli/directWrite';
import type { CliIO } from '../../src/cli/io';

const io = (stdoutFd: number | undefined) => ({ stdoutFd }) as unknown as CliIO;

describe('writeOnce', () => {
  const realWriteSync = fs.writeSync;
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'planwise-direct-write-'))));
  afterEach(() => {
    (fs as { writeSync: typeof fs.writeSync }).writeSync = realWriteSync;
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes the whole text, multi-byte characters included, to the descriptor', () => {
    const file = join(dir, 'out');
    const fd = fs.openSync(file, 'w');
    try {
      assert.equal(writeOnce(io(fd), 'allowed: read-only command — ok\n'), '');
    } finally {
      fs.closeSync(fd);
    }
    assert.equal(readFileSync(file, 'utf8'), 'allowed: read-only command — ok\n');
  });

  it('gives the whole text back when there is no descriptor', () => {
    assert.equal(writeOnce(io(undefined), 'x\n'), 'x\n');
  });

  it('finishes a write that fell short, byte by byte where it stopped', () => {
    const got: Buffer[] = [];
    (fs as { writeSync: unknown }).writeSync = (_fd: number, data: string | Buffer) => {
      const bytes = Buffer.from(data as string);
      const n = Math.min(3, bytes.length); // a reader that takes three bytes at a time
      got.push(bytes.subarray(0, n));
      return n;
    };
    assert.equal(writeOnce(io(1), 'é-gate ✓\n'), '');
    assert.equal(Buffer.concat(got).toString('utf8'), 'é-gate ✓\n');
  });

  it('hands back what a full non-blocking pipe did not take, and reports a closed reader', () => {
    let calls = 0;
    const eagain = Object.assign(new Error('EAGAIN'), { code: 'EAGAIN' });
    (fs as { writeSync: unknown }).writeSync = () => {
      if (++calls === 1) return 4;
      throw eagain;
    };
    assert.equal(writeOnce(io(1), 'abcdefgh\n'), 'efgh\n');
    (fs as { writeSync: unknown }).writeSync = () => {
      throw eagain;
    };
    assert.equal(writeOnce(io(1), 'whole\n'), 'whole\n');
    (fs as { writeSync: unknown }).writeSync = () => {
      throw Object.assign(new Error('EPIPE'), { code: 'EPIPE' });
    };
    assert.equal(writeOnce(io(1), 'gone\n'), 'closed');
  });
});

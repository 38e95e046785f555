import assert from 'node:assert/strict';
import type { CommandRunner, RunOptions, RunResult } from '../../src/core/ports';
import { TrustGatedRunner, TrustState, UNTRUSTED_SHELL_ERROR, capabilitiesFor } from '../../src/host/trust';

const OPTIONS: RunOptions = { cwd: '/', timeoutMs: 1000, maxOutputBytes: 1024 };

class RecordingRunner implements CommandRunner {
  readonly calls: string[] = [];
  async run(command: string): Promise<RunResult> {
    this.calls.push(command);
    return { exitCode: 0, stdout: 'ok', stderr: '', timedOut: false, truncated: false, durationMs: 1 };
  }
}

describe('workspace trust rules', () => {
  it('keeps planning with file tools in Restricted Mode and turns shell and verify off, with a reason', () => {
    const untrusted = capabilitiesFor(false);
    assert.equal(untrusted.fileTools, true);
    assert.equal(untrusted.shell, false);
    assert.equal(untrusted.verify, false);
    assert.match(untrusted.explanation ?? '', /Restricted Mode/);
    assert.match(untrusted.explanation ?? '', /no reload/);
    assert.deepEqual(capabilitiesFor(true), { fileTools: true, shell: true, verify: true });
  });

  it('tells listeners once when trust is granted', () => {
    const trust = new TrustState(false);
    const seen: boolean[] = [];
    trust.onDidChange((t) => seen.push(t));
    trust.grant();
    trust.grant();
    assert.deepEqual(seen, [true]);
    assert.equal(trust.capabilities.shell, true);
  });

  it('refuses shell commands while untrusted and runs them after trust is granted, without a new runner', async () => {
    const trust = new TrustState(false);
    const inner = new RecordingRunner();
    const runner = new TrustGatedRunner(trust, inner);
    await assert.rejects(runner.run('git status', OPTIONS), (err: Error) => err.message === UNTRUSTED_SHELL_ERROR);
    assert.deepEqual(inner.calls, []);
    trust.grant();
    assert.equal((await runner.run('git status', OPTIONS)).stdout, 'ok');
    assert.deepEqual(inner.calls, ['git status']);
  });

  it('explains the refusal in words the model can act on', () => {
    assert.match(UNTRUSTED_SHELL_ERROR, /read_file|list_files|code_search/);
  });
});

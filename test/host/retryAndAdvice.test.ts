/** The host's words for a retry's wait, a timeout, an overflow and a refused Language Model consent. */
import assert from 'node:assert/strict';
import { ModelError } from '../../src/core/agent/model';
import { adviceForModelError } from '../../src/host/errors';
import { compactedText, retryText } from '../../src/host/panel/translate';
import { countdownText, noticeCountdownText, noticeRetriedText } from '../../src/host/status/retryFormat';
import { readSettings } from '../../src/host/config';

describe('retry countdown, timeout and provider advice', () => {
  it('counts the wait down as m:ss, and the panel notice says how long and that Stop cancels it', () => {
    assert.deepEqual(countdownText(118_200, 2, 4, 'the endpoint answered 429 and asked to wait 2 min'), {
      text: '$(watch) Planwise: retrying in 1:59',
      tooltip:
        'Planwise retries the model request in 1:59 (attempt 2 of 4): the endpoint answered 429 and asked to wait 2 min. Click to stop.',
    });
    assert.equal(
      retryText(120_000, 2, 4, 'the endpoint answered 429 and asked to wait 2 min'),
      'Retrying in 2 min (attempt 2 of 4): the endpoint answered 429 and asked to wait 2 min. Stop cancels the wait.',
    );
  });

  it('the panel notice of the wait counts down too, and says when the request went out again', () => {
    assert.equal(
      noticeCountdownText(3_000, 2, 4, 'the endpoint answered 429 and asked to wait 3 s'),
      'Retrying in 0:03 (attempt 2 of 4): the endpoint answered 429 and asked to wait 3 s. Stop cancels the wait.',
    );
    assert.equal(
      noticeRetriedText(120_000, 2, 4, 'the endpoint answered 429 and asked to wait 2 min'),
      'Waited 2:00 and sent the request again (attempt 2 of 4): the endpoint answered 429 and asked to wait 2 min.',
    );
  });

  it('a compaction is one transcript line with before/after', () => {
    const line = compactedText({
      type: 'context.compacted',
      turn_id: 't',
      trigger: 'threshold',
      before_tokens: 104_000,
      after_tokens: 76_000,
      window_tokens: 128_000,
      stubbed_results: 40,
      omitted_messages: 0,
      seq: 1,
      at: 0,
    });
    assert.equal(
      line,
      'Context compacted (the thread passed the compaction threshold): about 104k → 76k of 128k tokens; ' +
        '40 older tool results shortened to stubs. The full thread is kept; spooled results stay readable with read_spool.',
    );
  });

  it('a timeout opens the setting that raises it', () => {
    const first = adviceForModelError(new ModelError('timeout', '… the first-byte timeout fired …'), 'u', false);
    assert.equal(first.setting, 'planwise.request.firstByteTimeoutSeconds');
    const idle = adviceForModelError(new ModelError('timeout', '… so the idle-stream timeout fired …'), 'u', false);
    assert.equal(idle.setting, 'planwise.request.idleTimeoutSeconds');
  });

  it('a refused consent with vscode-lm never asks for an API key', () => {
    const a = adviceForModelError(new ModelError('auth', 'VS Code did not allow Planwise …'), 'u', false, 'vscode-lm');
    assert.ok(!a.actions.includes('Set API Key'));
    assert.equal(a.message, 'VS Code did not allow Planwise …');
  });

  it('reads the provider, the timeouts and the compaction share, and refuses bad values', () => {
    const { settings, problems } = readSettings(
      (k) =>
        ({
          provider: 'vscode-lm',
          'request.firstByteTimeoutSeconds': 600,
          'request.idleTimeoutSeconds': 0,
          'context.compactAtPercent': 150,
        })[k as string],
    );
    assert.equal(settings.provider, 'vscode-lm');
    assert.equal(settings.request.firstByteTimeoutSeconds, 600);
    assert.equal(settings.request.idleTimeoutSeconds, 120);
    assert.equal(settings.context.compactAtPercent, 80);
    assert.deepEqual(
      problems.map((p) => p.key),
      ['planwise.request.idleTimeoutSeconds', 'planwise.context.compactAtPercent'],
    );
  });
});

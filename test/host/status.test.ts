import assert from 'node:assert/strict';
import {
  compactNumber,
  severityOf,
  statusText,
  statusTooltip,
  statusView,
  WARNING_RATIO,
} from '../../src/host/status/format';
import type { Budget } from '../../src/protocol';

function budget(patch: Partial<Budget> = {}): Budget {
  return {
    toolCalls: { used: 12, max: 120 },
    loops: { used: 3, max: 60 },
    previewBytes: { used: 12_800, max: 98_304 },
    blockedCalls: { consecutive: 0, total: 1, fuse: 32 },
    tokens: { input: 41_000, output: 2_300, cap: 100_000 },
    contextPercent: 34.4,
    ...patch,
  };
}

describe('status-bar budget', () => {
  it('says tool calls, context and spend against the cap in words', () => {
    assert.equal(
      statusText(budget()),
      '$(checklist) Planwise: 12 of 120 tool calls · 34% of context · 43k of 100k tokens',
    );
  });

  it('with a tracker, says the step in progress (or the steps done) instead of the calls', () => {
    const step = { counts: { done: 1, inProgress: 1, pending: 3, blocked: 0, total: 5 }, percent: 20 };
    assert.equal(statusText(budget(), step), '$(checklist) Planwise: step 2 of 5 · 34% of context');
    const between = { counts: { done: 2, inProgress: 0, pending: 3, blocked: 0, total: 5 }, percent: 40 };
    assert.equal(statusView(budget(), null, between).text, '$(checklist) Planwise: 2 of 5 steps done · 34% of context');
  });

  it('shows unlimited limits and a missing cap plainly', () => {
    assert.equal(
      statusText(budget({ toolCalls: { used: 7, max: 0 }, tokens: { input: 900, output: 50, cap: 0 } })),
      '$(checklist) Planwise: 7 tool calls · 34% of context',
    );
    assert.equal(statusText(null), '$(checklist) Planwise');
  });

  it('formats numbers compactly', () => {
    assert.deepEqual([999, 1000, 1250, 12_345, 999_999, 1_500_000].map(compactNumber), [
      '999',
      '1k',
      '1.3k',
      '12k',
      '1000k',
      '1.5M',
    ]);
  });

  it('breaks every budget down in the tooltip, in words with units', () => {
    const t = statusTooltip(budget({ contextWindow: 128_000 }), null);
    for (const row of [
      '- Tool calls: 12 of 120',
      '- Requests to the model this turn: 3 of 60',
      '- Tool output read: 12.5 KB of 96 KB',
      '- Tool calls refused: 1 (0 in a row); the turn stops at 32',
      '- Tokens: 41,000 in, 2,300 out',
      '- Context used: 34% of 128k tokens',
      '- Planning spend: 43,300 of 100,000 tokens',
    ]) {
      assert.ok(t.includes(row), `missing row ${row} in\n${t}`);
    }
    assert.doesNotMatch(t, /KiB|Loop iterations|Preview|\|/);
    assert.match(t, /Click to open the Planwise panel/);
    const uncapped = statusTooltip(budget({ tokens: { input: 1, output: 1, cap: 0 } }), null);
    assert.match(uncapped, /- Planning spend: 2 tokens \(no cap\)/);
    assert.match(uncapped, /- Context used: 34%\n/, 'no window, no window figure');
  });

  it('stays normal below the warning share of every limit', () => {
    assert.equal(severityOf(budget(), false), 'normal');
    assert.equal(severityOf(null, false), 'normal');
  });

  const near: [string, Partial<Budget>][] = [
    ['tool calls', { toolCalls: { used: 96, max: 120 } }],
    ['loops', { loops: { used: 48, max: 60 } }],
    ['preview', { previewBytes: { used: 80_000, max: 98_304 } }],
    ['blocked calls', { blockedCalls: { consecutive: 4, total: 26, fuse: 32 } }],
    ['planning spend', { tokens: { input: 70_000, output: 10_000, cap: 100_000 } }],
    ['context', { contextPercent: 80 }],
  ];
  for (const [what, patch] of near) {
    it(`warns at ${WARNING_RATIO * 100}% of the ${what} limit`, () => {
      assert.equal(severityOf(budget(patch), false), 'warning');
    });
  }

  it('turns to the error colour at a limit or while a grant prompt waits, and the click offers more', () => {
    assert.equal(severityOf(budget({ toolCalls: { used: 120, max: 120 } }), false), 'error');
    const grant = { requestId: 'g', kind: 'session_tool_calls' as const, used: 400, max: 400 };
    const view = statusView(budget(), grant);
    assert.equal(view.severity, 'error');
    assert.equal(view.click, 'grantMore');
    assert.match(view.tooltip, /used all its tool calls for this session \(400 of 400\)\. Click to allow more\./);
    assert.match(view.accessibilityLabel, /activate to grant more/);
    assert.equal(statusView(budget(), null).click, 'openPanel');
  });

  it('ignores limits of 0 (unlimited) when picking the colour', () => {
    const b = budget({ toolCalls: { used: 5000, max: 0 }, tokens: { input: 10 ** 7, output: 0, cap: 0 } });
    assert.equal(severityOf(b, false), 'normal');
  });
});

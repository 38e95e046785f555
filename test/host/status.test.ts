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
  it('shows tool calls, context and spend against the cap compactly', () => {
    assert.equal(statusText(budget()), '$(checklist) Planwise: 12/120 calls · ctx 34% · 43k/100k tok');
  });

  it('shows unlimited limits and a missing cap plainly', () => {
    assert.equal(
      statusText(budget({ toolCalls: { used: 7, max: 0 }, tokens: { input: 900, output: 50, cap: 0 } })),
      '$(checklist) Planwise: 7/∞ calls · ctx 34%',
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

  it('breaks every budget down in the tooltip', () => {
    const t = statusTooltip(budget(), null);
    for (const row of [
      '| Tool calls | 12 | 120 |',
      '| Loop iterations | 3 | 60 |',
      '| Preview | 12.5 KiB | 96 KiB |',
      '| Blocked calls | 1 (0 in a row) | 32 |',
      '| Tokens in / out | 41,000 / 2,300 | |',
      '| Context | 34% | 100% |',
      '| Planning spend | 43,300 | 100,000 |',
    ]) {
      assert.ok(t.includes(row), `missing row ${row} in\n${t}`);
    }
    assert.match(t, /Click to open the Planwise panel/);
    assert.match(
      statusTooltip(budget({ tokens: { input: 1, output: 1, cap: 0 } }), null),
      /\| Planning spend \| 2 \| no cap \|/,
    );
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
    assert.match(view.tooltip, /session tool-call limit was reached \(400\/400\)\. Click to grant more\./);
    assert.match(view.accessibilityLabel, /activate to grant more/);
    assert.equal(statusView(budget(), null).click, 'openPanel');
  });

  it('ignores limits of 0 (unlimited) when picking the colour', () => {
    const b = budget({ toolCalls: { used: 5000, max: 0 }, tokens: { input: 10 ** 7, output: 0, cap: 0 } });
    assert.equal(severityOf(b, false), 'normal');
  });
});

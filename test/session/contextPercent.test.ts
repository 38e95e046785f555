/**
 * One context-% measure: the engine computes it once (the share of the window the last request
 * used) and carries it in `budget.updated`, the gate card and `context.reset`; every place that
 * shows it (the status bar, the panel header, the gate, the fresh-context notice, the CLI's budget
 * line and gate prompt) reads that value, so they all say the same number at each point.
 */
import assert from 'node:assert/strict';
import { printGate } from '../../src/cli/prompts/gate';
import { budgetLine } from '../../src/cli/render/budget';
import { Printer } from '../../src/cli/render/printer';
import { makeStyle } from '../../src/cli/render/style';
import { EventTranslator } from '../../src/host/panel/translate';
import { toBudget } from '../../src/host/panel/translateParts';
import { gateOf } from '../../src/host/prompts/hostApprover';
import { statusText } from '../../src/host/status/format';
import { meterParts } from '../../webview/budget';
import { Capture } from '../cli/cliHarness';
import { sse } from '../support/scriptedServer';
import { planResponse, samplePlan, startHarness, type Harness } from '../support/sessionHarness';

const shown = {
  statusBar: (text: string) => Number(/(\d+)% of context/.exec(text)?.[1]),
  cli: (text: string) =>
    Number(
      /(\d+)% of context|context (\d+)%/
        .exec(text)
        ?.slice(1)
        .find((x) => x !== undefined),
    ),
};

describe('one context-% measure', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('the status bar, panel header, gate, fresh-context notice and CLI all show the engine’s value', async () => {
    let gateSeen: { status: number; header: number; gate: number; cliGate: number; cliBudget: number } | undefined;
    // A 10,000-token window: the plan request reports 1,234 prompt tokens (12%).
    h = await startHarness(
      [
        sse.textTurn(planResponse(samplePlan('Greet')), { usage: [1234, 50] }),
        sse.textTurn('Nothing needed changing.', { usage: [333, 10] }),
      ],
      {
        config: { contextWindow: 10_000 },
        approve: (request) => {
          const budget = h!.eventsOf('budget.updated').at(-1)!.budget;
          const out = new Capture();
          printGate(new Printer(out), makeStyle(false), request, 'p.md');
          gateSeen = {
            status: shown.statusBar(statusText(toBudget(budget))),
            header: Number(
              meterParts(toBudget(budget))
                .find((p) => p.label === 'Context')!
                .text.replace('%', ''),
            ),
            gate: Math.round(gateOf(request.card, 'r', 'p.md').contextPercent),
            cliGate: shown.cli(out.text),
            cliBudget: shown.cli(budgetLine(budget)),
          };
          return { decision: 'fresh_context' };
        },
      },
    );
    await h.session.start('greet');
    const engine = h.eventsOf('budget.updated').map((e) => e.budget.contextPercent);
    assert.ok(engine.includes(12), `the engine's values: ${engine.join(', ')}`);
    assert.deepEqual(gateSeen, { status: 12, header: 12, gate: 12, cliGate: 12, cliBudget: 12 });

    // Fresh context: the reset carries the share it cleared, and the notices say that same number.
    const reset = h.eventsOf('context.reset')[0]!;
    assert.equal(reset.previous_context_usage_percent, 12);
    const translator = new EventTranslator({ relativePath: (p) => p });
    const ops = translator.translate(reset);
    assert.match(JSON.stringify(ops), /12% full/);
    // After the build's request, every budget.updated value is the engine's again (333 of 10,000: 3%).
    const last = h.eventsOf('budget.updated').at(-1)!.budget;
    assert.equal(last.contextPercent, 3);
    assert.equal(shown.statusBar(statusText(toBudget(last))), 3);
    assert.equal(shown.cli(budgetLine(last)), 3);
  });

  it('a response without usage is measured by the context keeper (calibrated by the last usage), so the share never falls as the thread grows', async () => {
    // The first request reports 3,000 prompt tokens for a request of ~7,000 characters: the
    // provider's tokenizer counts ~2.4 characters a token. The plan's response reports no usage.
    h = await startHarness(
      [
        sse.turn(
          sse.parallelToolCalls([{ name: 'read_file', args: { path: 'README.md' } }], false),
          sse.finish('tool_calls'),
          sse.usage(3000, 10),
        ),
        sse.textTurn(planResponse(samplePlan('Greet')), { usage: null }),
      ],
      { config: { contextWindow: 10_000 } },
    );
    await h.session.start('greet');
    const shares = h
      .eventsOf('budget.updated')
      .map((e) => e.budget.contextPercent)
      .filter((p, i, all) => i === 0 || p !== all[i - 1]);
    assert.equal(shares[0], 30);
    // The keeper's calibrated estimate: 3,000 plus the few hundred characters added since, at the
    // provider's rate (a characters/4 guess would have said ~18% here).
    assert.equal(shares.length, 2, `the shares: ${shares.join(', ')}`);
    assert.ok(shares[1]! >= 30 && shares[1]! <= 32, `the shares: ${shares.join(', ')}`);
    assert.equal(h.people.approvals[0]?.card.contextPercent !== undefined, true);
    assert.ok(Math.round(h.people.approvals[0]!.card.contextPercent) >= 30);
  });
});

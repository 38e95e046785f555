import assert from 'node:assert/strict';
import { TurnGuards } from '../../src/core/agent/guards';
import type { Admission, GuardAction, GuardCall } from '../../src/core/agent/guards';

const call = (i: number): GuardCall => ({ tool: 'read_file', kind: 'read', args: { path: `f${i}` } });

/** Admits `n` calls (each answered and reported); returns the first refusal, if any. */
function calls(g: TurnGuards, n: number, from = 0): Admission | undefined {
  for (let i = from; i < from + n; i++) {
    const a = g.beforeCall(call(i));
    if (!a.admit) return a;
    g.previewFor(10);
    g.afterCall({
      ...call(i),
      blocked: false,
      ok: true,
      lowSignal: false,
      resultHash: `r${i}`,
      bytes: 10,
      category: 'navigation',
    });
  }
  return undefined;
}

function loops(g: TurnGuards, n: number): GuardAction | undefined {
  for (let i = 0; i < n; i++) {
    const a = g.onLoop();
    if (a.type !== 'continue') return a;
  }
  return undefined;
}

describe('guards: tool-call and loop budgets', () => {
  const perTurn: { mode: 'plan' | 'build'; configured: number; allowed: number }[] = [
    { mode: 'plan', configured: 30, allowed: 120 },
    { mode: 'plan', configured: 150, allowed: 150 },
    { mode: 'build', configured: 30, allowed: 30 },
  ];
  for (const p of perTurn) {
    it(`${p.mode}, configured ${p.configured}: ${p.allowed} calls per turn, then a stop_turn on tool_calls`, () => {
      const g = new TurnGuards({ toolCallsPerTurn: p.configured, sessionToolCalls: 0 }, p.mode);
      assert.equal(calls(g, p.allowed), undefined);
      const refused = g.beforeCall(call(999));
      assert.equal(refused.admit, false);
      const action = !refused.admit ? refused.action : undefined;
      assert.deepEqual(action && { ...action, reason: '' }, {
        type: 'stop_turn',
        budget: 'tool_calls',
        used: p.allowed,
        max: p.allowed,
        synthesis: true,
        reason: '',
      });
      assert.match(
        !refused.admit ? refused.stub : '',
        new RegExp(`read_file was not run: This turn used all ${p.allowed} of its tool calls`),
      );
      assert.equal(g.stats.stopped, 'tool_calls');
    });
  }

  const loopTable: { mode: 'plan' | 'build'; configured: number; allowed: number }[] = [
    { mode: 'plan', configured: 10, allowed: 60 },
    { mode: 'build', configured: 10, allowed: 10 },
  ];
  for (const l of loopTable) {
    it(`${l.mode}, configured ${l.configured} loops: ${l.allowed} iterations, then the loop prompt`, () => {
      const g = new TurnGuards({ loopsPerTurn: l.configured }, l.mode);
      assert.equal(loops(g, l.allowed), undefined);
      assert.deepEqual(g.onLoop(), { type: 'ask_grant', kind: 'tool_loop', used: l.allowed, max: l.allowed });
    });
  }

  it('a loop grant keeps tools enabled this turn and names tool_loop_limit_increased; it lasts one turn', () => {
    const g = new TurnGuards({ loopsPerTurn: 5 }, 'build');
    loops(g, 5);
    assert.equal(g.onLoop().type, 'ask_grant');
    assert.deepEqual(g.grant('tool_loop', 3), { event: 'tool_loop_limit_increased', granted: 3, max: 8 });
    assert.equal(loops(g, 3), undefined, 'the pending iteration and two more run');
    assert.equal(g.onLoop().type, 'ask_grant');
    g.newTurn();
    assert.deepEqual(g.stats.loops, { used: 0, max: 5 });
  });

  it('a loop denial stops the turn on tool_loop', () => {
    const g = new TurnGuards({ loopsPerTurn: 2 }, 'build');
    loops(g, 2);
    const stop = g.deny('tool_loop');
    assert.deepEqual(
      { ...stop, reason: '' },
      { type: 'stop_turn', budget: 'tool_loop', used: 2, max: 2, synthesis: true, reason: '' },
    );
    assert.match(stop.reason, /all 2 of its tool loop iterations and no more were granted/);
    assert.equal(g.onLoop().type, 'stop_turn');
  });

  it('an approved-plan loop limit can replace the configured one for a turn', () => {
    const g = new TurnGuards({ loopsPerTurn: 40 }, 'build');
    g.newTurn({ loopsPerTurn: 90 });
    assert.equal(loops(g, 90), undefined);
    assert.equal(g.onLoop().type, 'ask_grant');
    g.newTurn();
    assert.equal(g.stats.loops.max, 40);
  });

  it('the session limit asks for more calls; the pending call is retried after a grant', () => {
    const g = new TurnGuards({ sessionToolCalls: 5 }, 'build');
    assert.equal(calls(g, 5), undefined);
    const pending = g.beforeCall(call(5));
    assert.equal(pending.admit, false);
    assert.deepEqual(!pending.admit && pending.action, {
      type: 'ask_grant',
      kind: 'session_tool_calls',
      used: 5,
      max: 5,
    });
    assert.equal(g.stats.toolCalls.used, 5, 'a pending call does not count');
    assert.deepEqual(g.grant('session_tool_calls', 10), {
      event: 'session_tool_limit_increased',
      granted: 10,
      max: 15,
    });
    assert.equal(g.beforeCall(call(5)).admit, true);
  });

  it('a granted session limit persists into the next turn; per-turn counts reset, session counts do not', () => {
    const g = new TurnGuards({ sessionToolCalls: 4 }, 'build');
    calls(g, 4);
    g.grant('session_tool_calls', 2);
    calls(g, 2, 10);
    g.newTurn();
    assert.deepEqual(g.stats.toolCalls, { used: 0, max: 64 });
    assert.deepEqual(g.stats.sessionCalls, { used: 6, max: 6 });
    const pending = g.beforeCall(call(20));
    assert.equal(!pending.admit && pending.action?.type, 'ask_grant');
  });

  it('a session denial stays a denial: stop_turn on session_calls, and later calls are refused', () => {
    const g = new TurnGuards({ sessionToolCalls: 3 }, 'plan');
    calls(g, 3);
    const stop = g.deny('session_tool_calls');
    assert.deepEqual(
      { budget: stop.budget, used: stop.used, max: stop.max },
      { budget: 'session_calls', used: 3, max: 3 },
    );
    const again = g.beforeCall(call(9));
    assert.equal(!again.admit && again.action?.type, 'stop_turn');
    assert.match(!again.admit ? again.stub : '', /session's 3 tool calls are used up and no more were granted/);
  });

  it('a fresh context restarts the session count but keeps the granted limit', () => {
    const g = new TurnGuards({ sessionToolCalls: 2 }, 'plan');
    calls(g, 2);
    g.grant('session_tool_calls', 5);
    g.newTurn({ mode: 'build', freshContext: true });
    assert.deepEqual(g.stats.sessionCalls, { used: 0, max: 7 });
  });

  it('the per-turn budget is checked before the session limit', () => {
    const g = new TurnGuards({ toolCallsPerTurn: 2, sessionToolCalls: 2 }, 'build');
    calls(g, 2);
    const refused = g.beforeCall(call(3));
    assert.equal(!refused.admit && refused.action?.type, 'stop_turn');
  });

  for (const bad of [0, -1, 2.5]) {
    it(`a grant of ${bad} is refused with a clear message`, () => {
      const g = new TurnGuards({}, 'build');
      assert.throws(() => g.grant('session_tool_calls', bad), /whole number above 0/);
    });
  }

  it('0 limits are unlimited', () => {
    const g = new TurnGuards({ toolCallsPerTurn: 0, loopsPerTurn: 0, sessionToolCalls: 0 }, 'plan');
    assert.equal(calls(g, 500), undefined);
    assert.equal(loops(g, 500), undefined);
  });

  it('planning token cap: past it the turn stops on tokens, without claiming a synthesis pass', () => {
    const g = new TurnGuards({ planningTokenCap: 1000 }, 'plan');
    assert.equal(g.onUsage({ promptTokens: 600, completionTokens: 400 }).type, 'continue');
    const stop = g.onUsage({ promptTokens: 1, completionTokens: 0 });
    assert.deepEqual(stop.type === 'stop_turn' && { b: stop.budget, u: stop.used, m: stop.max, s: stop.synthesis }, {
      b: 'tokens',
      u: 1001,
      m: 1000,
      s: false,
    });
    const build = new TurnGuards({ planningTokenCap: 1000 }, 'build');
    assert.equal(build.onUsage({ promptTokens: 5000, completionTokens: 0 }).type, 'continue');
  });

  it('snapshot gives the budget.updated payload', () => {
    const g = new TurnGuards({ blockedCap: 2, planningTokenCap: 5000 }, 'plan');
    g.onLoop();
    calls(g, 3);
    const a = g.beforeCall({ tool: 'exec_command', kind: 'shell', args: { command: 'rm x' } });
    assert.equal(a.admit, true);
    g.afterCall({
      tool: 'exec_command',
      kind: 'shell',
      args: { command: 'rm x' },
      blocked: true,
      ok: false,
      lowSignal: false,
      resultHash: '',
      bytes: 0,
      category: 'mutation',
    });
    g.onUsage({ promptTokens: 700, completionTokens: 50 });
    assert.deepEqual(g.snapshot(12), {
      toolCalls: { used: 4, max: 120 },
      loops: { used: 1, max: 60 },
      previewBytes: { used: 30, max: 96 * 1024 },
      blockedCalls: { consecutive: 1, total: 1, fuse: 8 },
      tokens: { input: 700, output: 50, cap: 5000 },
      contextPercent: 12,
    });
  });
});

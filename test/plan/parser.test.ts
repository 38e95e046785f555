import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  PlanStreamParser,
  extractPlan,
  finalizeResponse,
  canonicalPlanBlock,
  PLAN_OPEN_TAG,
  PLAN_CLOSE_TAG,
} from '../../src/core/plan/parser';

/** Feeds the chunks and returns the joined visible text, joined plan deltas and the parser. */
function run(chunks: readonly string[]) {
  const parser = new PlanStreamParser();
  let visible = '';
  let plan = '';
  const visibleDeltas: string[] = [];
  for (const c of chunks) {
    const out = parser.push(c);
    visible += out.visible;
    plan += out.plan;
    visibleDeltas.push(out.visible);
  }
  const last = parser.end();
  visible += last.visible;
  plan += last.plan;
  visibleDeltas.push(last.visible);
  return { parser, visible, plan, visibleDeltas };
}

/** Splits text at the given cut points (indices into UTF-16 code units, so surrogate pairs may split). */
function chunkAt(text: string, cuts: number[]): string[] {
  const sorted = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let prev = 0;
  for (const c of sorted) {
    out.push(text.slice(prev, c));
    prev = c;
  }
  out.push(text.slice(prev));
  return out;
}

function hasLoneSurrogate(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const n = s.charCodeAt(i + 1);
      if (!(n >= 0xdc00 && n <= 0xdfff)) return true;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) return true;
  }
  return false;
}

describe('plan stream parser (rules §2)', () => {
  it('gives the rules example exactly: visible "Intro\\n\\nOutro", plan "- Step 1"', () => {
    const r = run(['Intro\n<propo', 'sed_plan>\n- Step', ' 1\n</proposed_plan>\nOutro']);
    assert.equal(r.visible, 'Intro\n\nOutro');
    assert.equal(r.plan, '- Step 1');
    assert.equal(r.parser.planText, '- Step 1');
    assert.equal(r.parser.sawPlan, true);
  });

  it('never lets a partial opening tag reach the visible text of a push', () => {
    const parser = new PlanStreamParser();
    const first = parser.push('Intro\n<propo');
    assert.equal(first.visible, 'Intro\n');
    assert.equal(first.plan, '');
    const second = parser.push('sed_plan>\n- Step');
    assert.equal(second.visible, '');
    assert.equal(second.plan, '- Step');
  });

  it('holds a partial closing tag until it is complete', () => {
    const parser = new PlanStreamParser();
    parser.push('<proposed_plan>plan body</propos');
    assert.equal(parser.planText, 'plan body');
    const out = parser.push('ed_plan>after');
    assert.equal(out.plan, '');
    assert.equal(out.visible, 'after');
  });

  it('releases a held "<" that turned out not to be a tag', () => {
    const parser = new PlanStreamParser();
    assert.equal(parser.push('a <').visible, 'a ');
    assert.equal(parser.push(' b').visible, '< b');
    assert.equal(parser.end().visible, '');
    assert.equal(parser.sawPlan, false);
    assert.equal(parser.planText, undefined);
  });

  it('releases a held tag prefix at end of stream', () => {
    const r = run(['text <proposed_pl']);
    assert.equal(r.visible, 'text <proposed_pl');
    assert.equal(r.parser.sawPlan, false);
  });

  it('treats an unclosed block at the end of the stream as the plan', () => {
    const r = run(['Before\n<proposed_plan>\n# Title\n', '## Summary\nText\n']);
    assert.equal(r.visible, 'Before\n');
    assert.equal(r.plan, '# Title\n## Summary\nText');
    assert.equal(r.parser.planText, '# Title\n## Summary\nText');
    assert.equal(r.parser.insidePlan, true);
  });

  it('keeps a surrogate pair split across chunks intact', () => {
    const text = 'A😀B<proposed_plan>é😀漢</proposed_plan>z😀';
    const cut = text.indexOf('😀') + 1; // between the two halves of the pair
    const parser = new PlanStreamParser();
    const first = parser.push(text.slice(0, cut));
    assert.equal(first.visible, 'A');
    assert.equal(hasLoneSurrogate(first.visible), false);
    const rest = parser.push(text.slice(cut));
    assert.equal(rest.visible.startsWith('😀B'), true);
    parser.end();
    assert.equal(parser.planText, 'é😀漢');
    assert.equal(parser.visibleText, 'A😀Bz😀');
  });

  it('the last block wins and the push that restarts says so', () => {
    const parser = new PlanStreamParser();
    parser.push('<proposed_plan>first</proposed_plan> mid ');
    const out = parser.push('<proposed_plan>second</proposed_plan>');
    assert.equal(out.planRestarted, true);
    assert.equal(out.plan, 'second');
    assert.equal(parser.planText, 'second');
    assert.equal(parser.end().visible, '');
    assert.equal(parser.visibleText, ' mid ');
  });

  it('refuses a push after end', () => {
    const parser = new PlanStreamParser();
    parser.end();
    assert.throws(() => parser.push('x'), /after end\(\)/);
  });

  it('property: every chunking gives the same visible text and plan, deltas add up to planText', () => {
    const piece = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 12 }),
      fc.constantFrom(PLAN_OPEN_TAG, PLAN_CLOSE_TAG, '<', '</', '<proposed', '😀', '\n', '  ', 'é'),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 20 }), fc.array(fc.nat(), { maxLength: 12 }), (pieces, cuts) => {
        const text = pieces.join('');
        const whole = run([text]);
        const chunked = run(chunkAt(text, cuts));
        assert.equal(chunked.visible, whole.visible);
        assert.equal(chunked.parser.planText, whole.parser.planText);
        assert.equal(chunked.parser.sawPlan, whole.parser.sawPlan);
        // With at most one block, the streamed deltas are exactly the plan.
        if (text.split(PLAN_OPEN_TAG).length <= 2) assert.equal(chunked.plan, chunked.parser.planText ?? '');
        // No delta ever carries half of a surrogate pair when the input had none.
        if (!hasLoneSurrogate(text)) {
          for (const d of chunked.visibleDeltas) assert.equal(hasLoneSurrogate(d), false);
        }
        const e = extractPlan(text);
        assert.equal(e.visible, whole.visible);
        assert.equal(e.plan, whole.parser.planText);
      }),
      { numRuns: 500 },
    );
  });

  it('property: a tagged plan never leaks tag text into the visible transcript, at any chunking', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 30 }).filter((s) => !s.includes('<') && !s.includes('>')),
        fc.string({ unit: 'grapheme', maxLength: 30 }).filter((s) => !s.includes('<') && !s.includes('>')),
        fc.string({ unit: 'grapheme', maxLength: 30 }).filter((s) => !s.includes('<') && !s.includes('>')),
        fc.array(fc.nat(), { maxLength: 10 }),
        (before, plan, after, cuts) => {
          const text = `${before}${PLAN_OPEN_TAG}${plan}${PLAN_CLOSE_TAG}${after}`;
          const r = run(chunkAt(text, cuts));
          assert.equal(r.visible, before + after);
          assert.equal(r.parser.planText, plan.trim());
          for (const d of r.visibleDeltas) assert.equal(/[<>]/.test(d), false);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('extractPlan and the completed response (rules §2)', () => {
  it('splits a completed response into visible text and plan', () => {
    assert.deepEqual(extractPlan('Hi\n<proposed_plan>\n# P\n</proposed_plan>\nBye'), {
      visible: 'Hi\n\nBye',
      plan: '# P',
    });
  });

  it('has no plan key when there is no block', () => {
    assert.deepEqual(extractPlan('just prose'), { visible: 'just prose' });
  });

  it('the completed content wins over the streamed text', () => {
    const parser = new PlanStreamParser();
    parser.push('streamed prose <proposed_plan>old plan</proposed_plan>');
    const out = finalizeResponse(parser, 'final prose\n<proposed_plan>\nnew plan\n</proposed_plan>');
    assert.equal(out.visible, 'final prose\n');
    assert.equal(out.plan, 'new plan');
    assert.equal(out.response, `final prose\n${canonicalPlanBlock('new plan')}`);
  });

  it('attaches the streamed plan exactly once when the completed content has no block', () => {
    const parser = new PlanStreamParser();
    parser.push('prose <proposed_plan>the plan</proposed_plan>');
    const out = finalizeResponse(parser, 'prose ');
    assert.equal(out.plan, 'the plan');
    assert.equal(out.response.split(PLAN_OPEN_TAG).length - 1, 1);
    assert.equal(out.response, `prose \n${canonicalPlanBlock('the plan')}`);
  });

  it('never duplicates a plan that is both streamed and in the completed content', () => {
    const full = 'Intro\n<proposed_plan>\nP\n</proposed_plan>\n';
    const parser = new PlanStreamParser();
    parser.push(full);
    const out = finalizeResponse(parser, full);
    assert.equal(out.response.split(PLAN_OPEN_TAG).length - 1, 1);
    assert.equal(out.response.split(PLAN_CLOSE_TAG).length - 1, 1);
    assert.equal(out.plan, 'P');
  });

  it('uses the streamed text when no completed content arrives, and leaves prose alone without a plan', () => {
    const withPlan = new PlanStreamParser();
    withPlan.push('a <proposed_plan>b');
    assert.deepEqual(finalizeResponse(withPlan), {
      visible: 'a ',
      plan: 'b',
      response: `a \n${canonicalPlanBlock('b')}`,
    });
    const prose = new PlanStreamParser();
    prose.push('only prose');
    assert.deepEqual(finalizeResponse(prose, ''), { visible: 'only prose', response: 'only prose' });
  });
});

import assert from 'node:assert/strict';
import { validatePlan, buildRepairFeedback, CANONICAL_STEP_FORM } from '../../src/core/plan/validator';
import { PLACEHOLDERS } from '../../src/core/plan/placeholders';
import { buildPlan, withStep } from './planBuilder';

const messages = (md: string) => validatePlan(md).errors.map((e) => e.message);

describe('plan validator: placeholders (rules §3)', () => {
  const literal = [
    '[step]',
    '[paths]',
    '[check]',
    '[explicit assumption]',
    '[todo]',
    'todo:',
    '[decision needed]',
    'tbd',
    '[file, symbol, or behavior confirmed from the repo]',
  ];
  for (const token of literal) {
    it(`"${token}" anywhere in the plan, in any case, blocks it`, () => {
      for (const written of [token, token.toUpperCase()]) {
        const md = buildPlan({ assumptions: `- default chosen: ${written} here` });
        const r = validatePlan(md);
        assert.equal(r.valid, false, written);
        assert.deepEqual(
          r.errors.map((e) => e.message),
          [`line 19: placeholder "${token}" left in the plan; replace it with the real content`],
        );
      }
    });
  }

  it('covers every rules literal and the template phrases', () => {
    for (const token of literal) assert.ok(PLACEHOLDERS.includes(token), token);
    for (const phrase of ['[task title]', '[action]', '[path/to/file.rs]', '[targeted check]', '[if any]']) {
      assert.ok(PLACEHOLDERS.includes(phrase), phrase);
    }
  });

  it('catches the canonical step form copied verbatim', () => {
    assert.deepEqual(messages(withStep(CANONICAL_STEP_FORM)), [
      'line 9: placeholder "[path/to/file.ts]" left in the plan; replace it with the real content',
    ]);
  });
});

describe('plan validator: open decisions (rules §3)', () => {
  for (const line of [
    'Next open decision: keep the cache or not',
    'Open question: which port?',
    '- OPEN QUESTIONS: two',
  ]) {
    it(`"${line}" blocks approval`, () => {
      const r = validatePlan(buildPlan({ extra: line }));
      assert.equal(r.valid, false);
      assert.equal(r.errors.length, 1);
      assert.match(r.errors[0]?.message ?? '', /^line 15: unresolved open decision ".*"; decide it/);
      assert.equal(r.errors[0]?.line, 15);
    });
  }

  for (const resolution of [
    'none',
    'no open items',
    'No remaining scope decisions',
    'no further decisions',
    'resolved',
    'closed',
    'n/a',
    'not applicable',
  ]) {
    it(`is resolved by "${resolution}"`, () => {
      assert.deepEqual(messages(buildPlan({ extra: `Next open decision: ${resolution}` })), []);
      assert.deepEqual(messages(buildPlan({ extra: `Open question: ${resolution}` })), []);
    });
  }

  it('"unresolved" does not count as "resolved"', () => {
    assert.equal(validatePlan(buildPlan({ extra: 'Open question: unresolved port choice' })).valid, false);
  });
});

describe('plan validator: file links are warnings (rules §3)', () => {
  const warnings = (md: string) => validatePlan(md).summary.warnings.map((w) => w.message);

  it('warns about a markdown link to a file, and the plan stays valid', () => {
    const md = buildPlan({ summary: 'See [main.rs](src/main.rs#L42).' });
    assert.deepEqual(messages(md), []);
    assert.equal(validatePlan(md).valid, true);
    assert.deepEqual(validatePlan(md).summary.warnings, [
      {
        message:
          'line 5: file reference written as a markdown link "[main.rs](src/main.rs#L42)"; write it as plain text or inline code, e.g. src/main.rs:42',
        line: 5,
      },
    ]);
  });

  it("warns about the seed's two incorrect forms, vscode-file:// and file:// links", () => {
    assert.equal(
      warnings(buildPlan({ summary: '[main.rs:42](vscode-file://vscode-app/.../workbench.html)' })).length,
      1,
    );
    assert.equal(warnings(buildPlan({ summary: '[main.rs](file:///Users/you/repo/src/main.rs#L42)' })).length, 1);
  });

  it('warns about a bare file:// or vscode-file:// URI', () => {
    assert.deepEqual(warnings(buildPlan({ summary: 'Open vscode-file://vscode-app/x.html now.' })), [
      'line 5: editor URI "vscode-file://vscode-app/x.html" in the plan; write the file reference as plain text, e.g. src/main.rs:42',
    ]);
    assert.equal(warnings(buildPlan({ summary: 'at file:///repo/src/a.ts' })).length, 1);
  });

  it('says nothing of plain references and links to web pages', () => {
    assert.deepEqual(
      warnings(buildPlan({ summary: 'Fix `src/main.rs:42` and src/a.ts:42, per [the RFC](https://example.org/rfc).' })),
      [],
    );
  });

  it('names the warnings in the repair request when the plan is rejected for something else', () => {
    const md = buildPlan({ summary: 'See [main.rs](src/main.rs#L42).', assumptions: '- tbd' });
    const r = validatePlan(md);
    assert.equal(r.valid, false);
    const feedback = buildRepairFeedback(md, r.errors, r.summary);
    assert.match(
      feedback,
      /Also fix \(these alone would not reject the plan\):\n- line 5: file reference written as a markdown link/,
    );
  });
});

describe('repair feedback (rules §3)', () => {
  const md = buildPlan({
    steps: [
      '1. Make it better',
      '2. Add retry loop -> files: [src/upload.ts] -> verify: [npm test]',
      '3. Tidy -> files: [src/a.ts] -> verify: [it works]',
    ].join('\n'),
    assumptions: '- backoff TBD',
  });
  const r = validatePlan(md);
  const feedback = buildRepairFeedback(md, r.errors, r.summary);

  it('says how many of the steps failed and which, with reasons', () => {
    assert.match(feedback, /^2 of 3 implementation steps failed validation\.$/m);
    assert.match(feedback, /^- step 1: 1\. Make it better$/m);
    assert.match(feedback, /must name a concrete file, symbol, or behavior target/);
    assert.match(feedback, /must include a `verify:` or `verification:` marker/);
    assert.match(feedback, /^- step 3: 3\. Tidy/m);
    assert.match(feedback, /"it works" is neither a command nor a check a person can carry out/);
    assert.doesNotMatch(feedback, /^- step 2/m);
  });

  it('lists the other problems, the canonical step form and the rejected draft', () => {
    assert.match(feedback, /placeholder "tbd"/);
    assert.ok(feedback.includes(`\n${CANONICAL_STEP_FORM}\n`));
    assert.ok(feedback.includes(`<rejected_plan>\n${md}\n</rejected_plan>`));
  });

  it('bounds the rejected draft to 8 KiB without splitting a character', () => {
    const big = buildPlan({ summary: 'é😀'.repeat(4000) });
    const v = validatePlan(big);
    const fb = buildRepairFeedback(big, v.errors, v.summary);
    const draft = /<rejected_plan>\n([\s\S]*)\n<\/rejected_plan>/.exec(fb)?.[1] ?? '';
    const bytes = new TextEncoder().encode(draft).length;
    assert.ok(bytes <= 8192 && bytes > 8180, `draft is ${bytes} bytes`);
    assert.ok(big.startsWith(draft));
    assert.doesNotMatch(draft, /\uFFFD/);
    assert.match(fb, /Rejected draft \(first 8192 of \d+ bytes\):/);
  });
});

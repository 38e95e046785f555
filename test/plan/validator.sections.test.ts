import assert from 'node:assert/strict';
import { validatePlan } from '../../src/core/plan/validator';
import { buildPlan } from './planBuilder';

const names = (md: string) => validatePlan(md).summary.sections;

describe('plan validator: sections (rules §3)', () => {
  const canonical: [string, string, string][] = [
    ['summary', 'Summary', 'Summary'],
    ['steps', 'Implementation Steps', 'Steps'],
    ['validation', 'Test Cases and Validation', 'Validation'],
    ['assumptions', 'Assumptions and Defaults', 'Assumptions'],
  ];

  for (const [key, name, alias] of canonical) {
    it(`accepts "${name}" and its alias "${alias}" case-insensitively, with emphasis and a trailing colon`, () => {
      for (const heading of [
        `## ${name}`,
        `## ${alias}`,
        `### ${name.toUpperCase()}:`,
        `## **${alias.toLowerCase()}**`,
        `## \`${name}\``,
        `**${name}:**`,
        `${alias}`,
      ]) {
        const md = buildPlan({ headings: { [key]: heading } });
        const r = validatePlan(md);
        assert.deepEqual(r.errors, [], `heading ${JSON.stringify(heading)}`);
        assert.ok(r.summary.sections.includes(name));
      }
    });
  }

  it('reports each missing required section with its alias and what to add', () => {
    const md = '# T\n\n## Expected Outcomes\n\n- x\n';
    assert.deepEqual(
      validatePlan(md).errors.map((e) => e.message),
      [
        'missing required section "Summary": add a "## Summary" heading',
        'missing required section "Implementation Steps" (or its short form "Steps"): add a "## Implementation Steps" heading',
        'missing required section "Test Cases and Validation" (or its short form "Validation"): add a "## Test Cases and Validation" heading',
        'missing required section "Assumptions and Defaults" (or its short form "Assumptions"): add a "## Assumptions and Defaults" heading',
      ],
    );
  });

  it('accepts a section given inline as "Label: text", and takes the text as its content', () => {
    const md = buildPlan({
      headings: { summary: 'Summary: Retry a failed upload once.', validation: 'Validation: npm test' },
      summary: '',
      validation: '',
    });
    const r = validatePlan(md);
    assert.deepEqual(r.errors, []);
    assert.equal(r.summary.summary, 'Retry a failed upload once.');
    assert.deepEqual(r.summary.validationItems, ['npm test']);
  });

  it('does not take a bulleted "- Summary: x" or an indented label for a section', () => {
    const md = '# T\n\n- Summary: a bullet\n  Steps: indented\n';
    assert.deepEqual(names(md), []);
  });

  it('tolerates the optional and any other sections and lists them in order', () => {
    const md = buildPlan({
      extra: '## Expected Outcomes\n\n- x\n\n## Dependencies and Prerequisites\n\n- y\n\n## Risks\n\n- z',
    });
    const r = validatePlan(md);
    assert.equal(r.valid, true);
    assert.deepEqual(r.summary.sections, [
      'Summary',
      'Implementation Steps',
      'Test Cases and Validation',
      'Expected Outcomes',
      'Dependencies and Prerequisites',
      'Risks',
      'Assumptions and Defaults',
    ]);
  });

  it('requires a non-empty Summary and at least one validation item and one assumption', () => {
    assert.deepEqual(
      validatePlan(buildPlan({ summary: '', validation: '', assumptions: '' })).errors.map((e) => e.message),
      [
        'section "Summary" is empty: write 1-3 lines on the goal, the user impact and what changes',
        'section "Test Cases and Validation" has no items: list at least one command or check, e.g. "- tests: npm test"',
        'section "Assumptions and Defaults" has no items: list at least one assumption or default chosen',
      ],
    );
  });

  it('requires at least one numbered step', () => {
    const r = validatePlan(buildPlan({ steps: '- add a retry to src/upload.ts' }));
    assert.equal(r.summary.steps.length, 0);
    assert.deepEqual(
      r.errors.map((e) => e.message),
      [
        'section "Implementation Steps" has no numbered steps: write each step as "1. Action -> files: [path/to/file.ts] -> verify: [npm test]"',
      ],
    );
  });

  it('keeps deeper unknown headings inside the current section as subsections', () => {
    const md = buildPlan({
      steps: [
        '### Phase 1',
        '1. A -> files: [a.ts] -> verify: [npm test]',
        '### Phase 2',
        'a note that belongs to no step',
        '2. B -> files: [b.ts] -> verify: [npm test]',
      ].join('\n'),
      validation: '#### Unit\n- tests: npm test',
    });
    const r = validatePlan(md);
    assert.deepEqual(r.errors, []);
    assert.deepEqual(
      r.summary.steps.map((s) => s.text),
      ['1. A -> files: [a.ts] -> verify: [npm test]', '2. B -> files: [b.ts] -> verify: [npm test]'],
    );
    assert.deepEqual(r.summary.validationItems, ['tests: npm test']);
    assert.equal(r.summary.sections.includes('Phase 1'), false);
  });

  it('a heading at the same level as the section starts a new one', () => {
    const md = buildPlan({ steps: '1. A -> files: [a.ts] -> verify: [npm test]\n\n## Risks\n\n2. not a step' });
    const r = validatePlan(md);
    assert.equal(r.summary.steps.length, 1);
    assert.ok(r.summary.sections.includes('Risks'));
  });

  it('ignores headings and numbered lines inside fenced code blocks', () => {
    const md = buildPlan({ validation: '```sh\n# Summary\n1. not a step\n```\n- tests: npm test' });
    const r = validatePlan(md);
    assert.equal(r.valid, true);
    assert.equal(r.summary.sections.filter((s) => s === 'Summary').length, 1);
    assert.equal(r.summary.steps.length, 1);
  });

  it('collects items without bullets, numbers or checkboxes, and the title without emphasis', () => {
    const md = buildPlan({
      title: '**Retry** uploads',
      validation: '- [ ] tests: npm test\n* lint: npx eslint .\n1. build: npm run build',
    });
    const r = validatePlan(md);
    assert.equal(r.summary.title, 'Retry uploads');
    assert.deepEqual(r.summary.validationItems, ['tests: npm test', 'lint: npx eslint .', 'build: npm run build']);
  });
});

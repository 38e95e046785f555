/**
 * A build's final card as the host would post it: the engine's closing audit (`buildReport` over a
 * tracker, verify results, a scope and the ledger's facts) through the host's translator into the
 * panel's `build_report` item. One out-of-scope file (written by a shell command), one failed
 * verify (its step left in progress), one check awaiting the person, one planned file never
 * touched, and the checkpoint of the one completed step. `hostile` puts markup in every text the model or the workspace controls.
 */
import { buildReport } from '../../src/core/build/report';
import { scopeOfPlan } from '../../src/core/build/scope';
import { validatePlan } from '../../src/core/plan/validator';
import { verifyEntryOf } from '../../src/core/plan/verification';
import type { VerifyRecord } from '../../src/core/verify/verifier';
import { EventTranslator } from '../../src/host/panel/translate';
import type { BuildReportItem, DeltaOp } from '../../src/protocol';

const ROOT = '/ws';

export function reportScene(hostile = ''): { item: BuildReportItem; ops: DeltaOp[] } {
  const tag = hostile === '' ? '' : ` ${hostile}`;
  // The plan gives the scope; hostile text goes in what the tracker, the ledger and the title carry.
  const plan = [
    '# Rate limiting',
    '## Summary',
    'Limit the public routes.',
    '## Implementation Steps',
    '1. Add the limiter -> files: src/limit.ts -> verify: npm test',
    '2. Wire it in -> files: src/app.ts -> verify: node -e "process.exit(1)"',
    '3. Document it -> files: README.md, docs/limits.md -> verify: confirm the README shows the limits',
    '## Test Cases and Validation',
    '- tests: npm test',
    '## Assumptions and Defaults',
    '- none',
    '',
  ].join('\n');
  const parsed = validatePlan(plan);
  if (!parsed.valid) throw new Error(parsed.errors.map((e) => e.message).join('; '));
  const results: Record<string, Partial<VerifyRecord>> = {
    '1:npm test': { status: 'passed', exitCode: 0 },
    '2:node -e "process.exit(1)"': { status: 'failed', exitCode: 1 },
  };
  const outOfScope = hostile === '' ? 'scripts/gen.sh' : `scripts/<img src=x onerror=alert(1)>.sh`;
  const report = buildReport({
    planFile: `${ROOT}/.vtcode/plans/2026-12-01-rate-limiting.md`,
    title: `Rate limiting${tag}`,
    outcome: 'done',
    tracker: {
      title: 'Rate limiting',
      items: [
        { description: `Add the limiter${tag}`, status: 'completed', files: [], verify: ['npm test'], children: [] },
        {
          description: 'Wire it in',
          status: 'in_progress',
          files: [],
          verify: ['node -e "process.exit(1)"'],
          children: [],
        },
        {
          description: 'Document it',
          status: 'in_progress',
          files: [],
          verify: ['confirm the README shows the limits'],
          children: [],
        },
      ],
    },
    entryOf: verifyEntryOf,
    latest: (step, entry) => results[`${step}:${entry}`] as VerifyRecord | undefined,
    scope: scopeOfPlan(parsed.summary),
    lines: {
      '1': { 'src/limit.ts': { added: 40, removed: 0 } },
      '2': { 'src/app.ts': { added: 3, removed: 1 }, [outOfScope]: { added: 12, removed: 0 } },
      '3': { 'README.md': { added: 8, removed: 2 } },
    },
    touched: ['src/limit.ts', 'src/app.ts', outOfScope, 'README.md'],
    drift: [
      {
        path: outOfScope,
        action: 'create',
        allowedBy: 'person (this file)',
        step: '2',
        command: hostile === '' ? 'sh scripts/make.sh' : `sh -c '${hostile}'`,
      },
    ],
  });
  const translator = new EventTranslator({
    relativePath: (p) => (p.startsWith(`${ROOT}/`) ? p.slice(ROOT.length + 1) : p),
  });
  const ops = translator.translate({
    seq: 42,
    at: 1_700_000_000_000,
    type: 'plan.execution.completed',
    plan_file: report.planFile,
    report_file: `${ROOT}/.vtcode/plans/2026-12-01-rate-limiting.report.md`,
    outcome: report.outcome,
    complete: report.complete,
    report,
    markdown: '',
    session: 'sbuild1',
    checkpoints: ['1'],
  });
  const add = ops.find((o) => o.op === 'item.add');
  if (!add || add.op !== 'item.add' || add.item.kind !== 'build_report') throw new Error('no build_report item');
  return { item: add.item, ops };
}

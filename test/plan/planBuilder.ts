/** Builds small plans for validator tests: every part replaceable, the rest a valid default. */
export interface PlanParts {
  title?: string;
  summary?: string;
  steps?: string;
  validation?: string;
  assumptions?: string;
  extra?: string;
  headings?: { summary?: string; steps?: string; validation?: string; assumptions?: string };
}

export function buildPlan(parts: PlanParts = {}): string {
  const h = parts.headings ?? {};
  return [
    `# ${parts.title ?? 'Retry uploads'}`,
    '',
    h.summary ?? '## Summary',
    '',
    parts.summary ?? 'Retry a failed upload once; nothing else changes.',
    '',
    h.steps ?? '## Implementation Steps',
    '',
    parts.steps ?? '1. Add retry loop -> files: [src/upload.ts] -> verify: [npm test]',
    '',
    h.validation ?? '## Test Cases and Validation',
    '',
    parts.validation ?? '- tests: `npm test`',
    '',
    parts.extra ?? '',
    '',
    h.assumptions ?? '## Assumptions and Defaults',
    '',
    parts.assumptions ?? '- one retry is enough',
    '',
  ].join('\n');
}

/** A plan whose only step is `step`. */
export function withStep(step: string): string {
  return buildPlan({ steps: step });
}

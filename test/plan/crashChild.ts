/**
 * Child process of the crash-safety test: writes plan revisions, trackers and rejected drafts in
 * a loop until it is killed. Usage: node crashChild.cjs <workspace-root>
 */
import { NodeWorkspaceReader, NodeWorkspaceWriter } from '../../src/node/fsWorkspace';
import { PlanStore } from '../../src/core/plan/store';
import { validatePlan } from '../../src/core/plan/validator';
import { trackerFromPlan } from '../../src/core/plan/tracker';
import { buildPlan } from './planBuilder';

const STEM = 'crash';

function revision(i: number): string {
  const n = 1 + (i % 5);
  const steps = Array.from(
    { length: n },
    (_, k) => `${k + 1}. Step ${k + 1} of the work -> files: [src/m${k + 1}.ts] -> verify: [npm test]`,
  ).join('\n');
  return buildPlan({ steps, summary: `Revision ${i} of ${process.pid}: ${'detail '.repeat(i % 50)}` });
}

async function main(): Promise<void> {
  const root = process.argv[2];
  if (!root) throw new Error('usage: crashChild <workspace-root>');
  const reader = new NodeWorkspaceReader([root]);
  const store = new PlanStore(reader, new NodeWorkspaceWriter(), { root: reader.roots[0] as string, now: Date.now });
  const exists = (await reader.stat(`${store.plansDir}/${STEM}.md`)) !== undefined;
  if (!exists) await store.save(revision(0), { name: STEM });
  process.stdout.write('go\n');
  for (let i = 1; ; i++) {
    const text = revision(i);
    const r = await store.save(text, { stem: STEM });
    if (!r.ok) throw new Error(`a valid revision was rejected: ${r.errors.map((e) => e.message).join('; ')}`);
    if (i % 3 === 0) await store.saveTracker(STEM, trackerFromPlan(validatePlan(text).summary));
    if (i % 4 === 0) await store.save(buildPlan({ summary: '', assumptions: '- TBD' }), { stem: STEM });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});

/**
 * A one-step plan whose verification is a person's check, and a build that starts the step,
 * writes its file and reports it done: the check then waits for the person.
 */
import { sse, type Script } from '../support/scriptedServer';
import { planResponse, samplePlan, type HarnessOptions } from '../support/sessionHarness';

export const CHECK = 'confirm the page shows the greeting';

export function checkStepBuild(): { script: Script; options: HarnessOptions } {
  return {
    script: [
      sse.textTurn(planResponse(samplePlan('Show the greeting', 'src/greet.ts', CHECK))),
      sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index: 1, status: 'in_progress' } }]),
      sse.toolTurn([{ name: 'write_file', args: { path: 'src/greet.ts', content: 'export const g = 1;\n' } }]),
      sse.toolTurn([{ name: 'task_tracker', args: { action: 'update', index: 1, status: 'completed' } }]),
      sse.textTurn('Written; the page check is yours.'),
    ],
    options: { files: { 'src/.keep': '' }, approve: () => ({ decision: 'execute' }) },
  };
}

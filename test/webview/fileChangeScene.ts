/**
 * The panel's state after a real build that edits src/a.ts and creates src/b.ts (with markup in
 * it): the engine the VS Code host builds, its result events through the host's translator. Run as
 * its own process (`node --import tsx`), it prints that state as JSON, so a page test can use it
 * from a process whose globals a jsdom test has replaced.
 */
import type { ToolCallItem, ViewState } from '../../src/protocol';
import { sse } from '../support/scriptedServer';
import { planResponse, samplePlan } from '../support/sessionHarness';
import { startEngineHost, until } from '../host/engineHost';

const SOURCE = 'export const a = 1;\nexport const b = 2;\nexport const c = 3;\n';

export async function builtState(): Promise<ViewState> {
  const h = await startEngineHost(
    [
      sse.textTurn(planResponse(samplePlan('Change the constants', 'src/'))),
      sse.toolTurn([
        {
          name: 'edit_file',
          args: {
            path: 'src/a.ts',
            old_text: 'export const b = 2;\n',
            new_text: 'export const b = 20;\nexport const bb = 22;\n',
          },
        },
      ]),
      sse.toolTurn([
        { name: 'write_file', args: { path: 'src/b.ts', content: 'const t = "<img src=x onerror=alert(1)>";\n' } },
      ]),
      sse.textTurn('Done.'),
    ],
    { files: { 'src/a.ts': SOURCE } },
  );
  try {
    const run = h.controller.start('change the constants', 'plan');
    await until(() => h.pending.has('approval'), 'the gate');
    await h.controller.decide('execute');
    await run;
    const changed = () =>
      h.hub.state.transcript.filter((i): i is ToolCallItem => i.kind === 'tool_call' && i.change !== undefined);
    await until(() => changed().length === 2, 'two file changes');
    return h.hub.state;
  } finally {
    await h.close();
  }
}

if (require.main === module) {
  void builtState().then(
    // Exits once the state is written: nothing the engine host leaves behind keeps the process up.
    (state) => process.stdout.write(JSON.stringify(state), () => process.exit(0)),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}

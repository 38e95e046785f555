// One side of the runloop figure in a process of its own, so its CPU time is its own: started
// with `planwise` or `bare` as its argument and driven over IPC by runloop.mjs. Each
// `{ cmd: 'run', baseURL, workspace, task }` runs one whole session against `baseURL` and answers
// `{ ok, cpuMs, ms }` (the CPU time of this process during the run, and the run's wall time).
import v8 from 'node:v8';
import vm from 'node:vm';
import { runBareLoop } from './bareLoop.mjs';
import { loadPlanwise, runPlanwiseSession } from './planwiseLoop.mjs';

const side = process.argv[2];
const RAISED = 1_000_000;
/** Raised so that no guard stops a 1,000-call turn; every guard still runs. */
const NO_STOP_BUDGETS = {
  toolCallsPerTurn: RAISED,
  loopsPerTurn: RAISED,
  sessionToolCalls: RAISED,
  previewTurnBytes: { plan: RAISED * 1000 },
  lowSignal: { consecutive: RAISED, total: RAISED },
};

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');
const mod = await loadPlanwise();

async function run({ baseURL, workspace, task }) {
  if (side === 'bare') {
    const tools = mod.planningToolSchemas();
    await runBareLoop({ workspace, baseURL, system: mod.PLANNING_SYSTEM_PROMPT, tools, userText: task });
  } else {
    await runPlanwiseSession(mod, { workspace, baseURL, userTurns: [task], budgets: NO_STOP_BUDGETS });
  }
}

process.on('message', async (msg) => {
  if (msg.cmd !== 'run') return;
  try {
    gc();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await run(msg);
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    process.send({ ok: true, cpuMs: (cpu.user + cpu.system) / 1000, ms });
  } catch (err) {
    process.send({ ok: false, error: err instanceof Error ? err.message : String(err) });
  }
});
process.on('disconnect', () => process.exit(0));
process.send({ ok: true, ready: true, missing: mod.missing });

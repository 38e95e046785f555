/**
 * The entry point VS Code's extension host calls (`--extensionTestsPath`), bundled by
 * test/runTest.ts. It installs the context-key probe before Planwise can activate, then runs the
 * scenarios of this launch (PLANWISE_ELECTRON_SUITE) with mocha's BDD interface.
 */
import Mocha from 'mocha';
import { ContextKeyProbe } from './contextKeys';
import { electronEnv, useProbe } from './helpers';

useProbe(ContextKeyProbe.install());

/** The scenario modules of each launch, loaded after mocha's globals exist. */
const SUITES = {
  main: async () => {
    await import('./planning.scenario');
    await import('./revise.scenario');
    await import('./secrets.scenario');
  },
  untrusted: async () => {
    await import('./untrusted.scenario');
  },
  reopened: async () => {
    await import('./reopened.scenario');
  },
} as const;

export async function run(): Promise<void> {
  const env = electronEnv();
  const mocha = new Mocha({ ui: 'bdd', timeout: 180_000, color: true, bail: true });
  mocha.suite.emit('pre-require', globalThis, `electron-${env.suite}`, mocha);
  await SUITES[env.suite]();
  const failures = await new Promise<number>((resolve) => mocha.run(resolve));
  if (failures > 0) throw new Error(`${failures} electron scenario(s) failed in the "${env.suite}" launch.`);
}

// Runs the unit suites, each in its own mocha process: the webview component tests install a
// DOM (jsdom) into the global scope, which must not leak into the engine's tests (the openai SDK,
// for one, refuses to run where it sees a browser). Every suite runs even when an earlier one
// failed; the exit code is non-zero when any failed. Extra arguments are passed to every mocha.
import { spawnSync } from 'node:child_process';

const suites = [
  { name: 'engine, hosts and tools', spec: ['test/**/*.test.ts'], ignore: ['test/webview/**'] },
  { name: 'webview', spec: ['test/webview/**/*.test.ts', 'test/webview/**/*.test.tsx'], ignore: [] },
];

let failed = false;
for (const suite of suites) {
  console.log(`\n### ${suite.name}`);
  const args = ['mocha', ...suite.spec, ...suite.ignore.flatMap((g) => ['--ignore', g]), ...process.argv.slice(2)];
  const r = spawnSync('npx', args, { stdio: 'inherit' });
  if (r.status !== 0) failed = true;
}
process.exitCode = failed ? 1 : 0;

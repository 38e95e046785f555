// End-to-end suite: a real VS Code (code-server) driven by Chromium. Run with `npm run test:e2e`,
// which installs code-server into .e2e-cache/ first (`npm run e2e:setup`). Naming files
// (`mocha --config .mocharc.e2e.cjs test/e2e/review.e2e.ts`) runs just those: mocha would add them
// to the configured spec, so the whole suite is the spec only when no file is named.
const named = process.argv.slice(2).some((a) => a.endsWith('.e2e.ts'));
module.exports = {
  'node-option': ['import=tsx'],
  extension: ['ts'],
  spec: named ? [] : ['test/e2e/**/*.e2e.ts'],
  timeout: 180000,
  slow: 30000,
  reporter: process.env.PLANWISE_MOCHA_REPORTER || 'spec',
};

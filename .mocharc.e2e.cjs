// End-to-end suite: a real VS Code (code-server) driven by Chromium. Run with `npm run test:e2e`,
// which installs code-server into .e2e-cache/ first (`npm run e2e:setup`).
module.exports = {
  'node-option': ['import=tsx'],
  extension: ['ts'],
  spec: ['test/e2e/**/*.e2e.ts'],
  timeout: 180000,
  slow: 30000,
  reporter: process.env.PLANWISE_MOCHA_REPORTER || 'spec',
};

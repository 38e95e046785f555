// Mocha runs TypeScript sources directly through tsx; no separate compile step.
// The spec list lives in package.json's test script, so `npx mocha test/plan/*.test.ts` runs just those.
module.exports = {
  'node-option': ['import=tsx'],
  extension: ['ts', 'tsx'],
  ignore: ['test/e2e/**'],
  timeout: 20000,
  reporter: process.env.PLANWISE_MOCHA_REPORTER || 'spec',
};

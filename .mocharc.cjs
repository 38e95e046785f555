// Mocha runs TypeScript sources directly through tsx; no separate compile step.
module.exports = {
  'node-option': ['import=tsx'],
  extension: ['ts', 'tsx'],
  spec: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
  ignore: ['test/e2e/**'],
  timeout: 20000,
  reporter: process.env.PLANWISE_MOCHA_REPORTER || 'spec',
};

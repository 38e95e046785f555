// Preloaded into code-server's Node processes by the activation figure (NODE_OPTIONS=--require,
// test/e2e/reload.e2e.ts). In the extension host only, it times what VS Code's own activation figure
// counts, at a microsecond's resolution instead of VS Code's whole milliseconds: loading each
// extension's main file (Module._load, with its require('vscode')) and the call of its activate().
// One JSON line per activation goes to $PLANWISE_E2E_ACTIVATION_LOG: {extension, loadMs, activateMs}.
// Only Planwise's main (dist/extension.js) and the empty extension's (extension.cjs) are timed.
'use strict';
const fs = require('node:fs');
const Module = require('node:module');

const log = process.env.PLANWISE_E2E_ACTIVATION_LOG;
if (log && process.argv.includes('--type=extensionHost')) {
  const MAINS = [
    ['planwise', /[\\/]planwise\.planwise-[^\\/]+[\\/]dist[\\/]extension\.js$/],
    ['empty', /[\\/]planwise-test\.activation-floor-[^\\/]+[\\/]extension\.cjs$/],
  ];
  const ms = (since) => Number(process.hrtime.bigint() - since) / 1e6;
  const load = Module._load;
  Module._load = function (request) {
    const main = typeof request === 'string' ? MAINS.find(([, re]) => re.test(request)) : undefined;
    if (!main) return load.apply(this, arguments);
    const start = process.hrtime.bigint();
    const exports = load.apply(this, arguments);
    const loadMs = ms(start);
    const activate = exports.activate;
    exports.activate = function () {
      const called = process.hrtime.bigint();
      try {
        return activate.apply(this, arguments);
      } finally {
        const record = { extension: main[0], loadMs, activateMs: ms(called) };
        fs.appendFileSync(log, `${JSON.stringify(record)}\n`);
      }
    };
    return exports;
  };
}

// Preloaded into code-server's Node processes by the first-paint scenario (NODE_OPTIONS=--require).
// In the extension host only, it appends one JSON line per Planwise bundle Node compiles and runs
// (dist/extension.js, dist/host.js, dist/openai.js…) to $PLANWISE_E2E_BUNDLE_LOG: the file, when
// its loading started (Date.now()) and how long compiling and running its top level took.
'use strict';
const fs = require('node:fs');
const Module = require('node:module');

const log = process.env.PLANWISE_E2E_BUNDLE_LOG;
if (log && process.argv.includes('--type=extensionHost')) {
  const compile = Module.prototype._compile;
  Module.prototype._compile = function (content, filename) {
    if (!/[\\/]planwise\.planwise-[^\\/]+[\\/]dist[\\/]/.test(filename)) return compile.apply(this, arguments);
    const at = Date.now();
    const start = process.hrtime.bigint();
    try {
      return compile.apply(this, arguments);
    } finally {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      fs.appendFileSync(log, `${JSON.stringify({ file: filename.replace(/^.*[\\/]dist[\\/]/, 'dist/'), at, ms })}\n`);
    }
  };
}

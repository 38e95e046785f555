/**
 * dist/panel.js and dist/host.js, as esbuild.mjs builds them, do not build the protocol's zod
 * schemas when they load: the panel's first paint waits for dist/panel.js, and the page already
 * carries the first snapshot. The schemas are built with the first message the router checks. Built with the
 * project's own esbuild.mjs in a staging folder, so the checkout's dist/ is left alone; each
 * bundle loads in a process of its own, with a stand-in for the 'vscode' module.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stagedBuild } from '../support/stagedBuild';

describe('the host bundle builds no schema when it loads', function () {
  this.timeout(120_000);
  let stage: string;

  before(async () => {
    stage = await stagedBuild('planwise-host-lazy-', ['--production']);
    // Loads one bundle with a stand-in 'vscode' and prints whether zod's core ran (it sets
    // globalThis.__zod_globalConfig when its module is evaluated).
    writeFileSync(
      join(stage, 'probe.cjs'),
      [
        "const Module = require('node:module');",
        'const stub = new Proxy(function () {}, { get: (t, k) => (k === Symbol.toPrimitive ? undefined : stub), apply: () => stub, construct: () => stub });',
        'const load = Module._load;',
        "Module._load = function (request, ...rest) { return request === 'vscode' ? stub : load.call(this, request, ...rest); };",
        'require(process.argv[2]);',
        'process.stdout.write(JSON.stringify({ zod: globalThis.__zod_globalConfig !== undefined }));',
      ].join('\n'),
    );
  });
  after(() => rmSync(stage, { recursive: true, force: true }));

  const zodRanLoading = (bundle: string) =>
    new Promise<boolean>((res, rej) =>
      execFile(process.execPath, [join(stage, 'probe.cjs'), join(stage, bundle)], (e, out) =>
        e ? rej(e) : res((JSON.parse(out) as { zod: boolean }).zod),
      ),
    );

  it('dist/host.js loads without evaluating zod', async () => {
    assert.equal(await zodRanLoading('dist/host.js'), false);
  });

  it('dist/panel.js (the view and the page it writes on the first resolve) loads without evaluating zod', async () => {
    assert.equal(await zodRanLoading('dist/panel.js'), false);
  });

  it('the probe sees zod run when a bundle does build schemas at load (dist/engine.js)', async () => {
    assert.equal(await zodRanLoading('dist/engine.js'), true);
  });
});

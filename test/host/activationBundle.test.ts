/**
 * What activation costs, held as behaviour: dist/extension.js, as esbuild.mjs builds it, loads no
 * other bundle and calls nothing of VS Code's API during `activate()` but the registration of the
 * commands a window can show before the host loads. The rest (the essentials: settings, key store,
 * log, trust; the panel's provider; the lenses) comes just after activation, and a command that
 * needs no host (Show Log) loads the essentials only. Loading dist/extension.js was most of
 * Planwise's activation in a CPU profile of the extension host while it held the essentials
 * (20.7 KB to compile and run, against 1.9 KB now). Built in a staging folder; the bundle runs in a
 * process of its own with a stand-in 'vscode' that records every call.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HOST_UI_COMMANDS } from '../../src/host/commands/keys';
import { COMMANDS, PANEL_VIEW_ID, type CommandKey } from '../../src/host/ids';
import { stagedBuild } from '../support/stagedBuild';

interface Phase {
  /** Planwise's own files required in this phase (relative to dist/). */
  readonly loads: string[];
  /** VS Code API calls in this phase: the member's path and its first argument when it is a string. */
  readonly calls: string[];
}
interface Probe {
  readonly activate: Phase;
  readonly afterActivation: Phase;
  readonly showLog: Phase;
}

// Requires dist/extension.js with a recording stand-in for 'vscode', calls activate(), lets the
// timers run, then runs the registered Show Log command; prints what each phase loaded and called.
const PROBE = String.raw`
const Module = require('node:module');
const path = require('node:path');
const dist = path.join(process.argv[2], 'dist');
let phase = { loads: [], calls: [] };
const load = Module._load;
Module._load = function (request, parent, ...rest) {
  if (request === 'vscode') return api;
  const file = Module._resolveFilename(request, parent);
  if (file.startsWith(dist + path.sep)) phase.loads.push(path.relative(dist, file));
  return load.call(this, request, parent, ...rest);
};
const commands = new Map();
const member = (where) =>
  new Proxy(function () {}, {
    get: (_t, key) => {
      if (typeof key === 'symbol' || key === 'then') return undefined;
      if (where === 'workspace' && key === 'isTrusted') return true;
      // The manifest VS Code has read: activation registers the commands it contributes.
      if (where === 'context.extension' && key === 'packageJSON') return require(path.join(process.argv[2], 'package.json'));
      return member(where ? where + '.' + key : key);
    },
    apply: (_t, _self, args) => {
      phase.calls.push(typeof args[0] === 'string' ? where + ' ' + args[0] : where);
      if (where === 'commands.registerCommand') commands.set(args[0], args[1]);
      if (/\.get$/.test(where)) return undefined;
      if (/^window\.show/.test(where)) return Promise.resolve(undefined);
      return member(where + '()');
    },
    construct: () => member('new ' + where),
  });
const api = member('');
const context = member('context');
const take = () => { const p = phase; phase = { loads: [], calls: [] }; return p; };
const ext = require(path.join(dist, 'extension.js'));
take(); // loading the file itself: no API call but require('vscode'), checked below by the activate phase
ext.activate(context);
const activate = take();
setTimeout(async () => {
  const afterActivation = take();
  await commands.get('planwise.showLog')();
  const showLog = take();
  process.stdout.write(JSON.stringify({ activate, afterActivation, showLog }));
}, 50);
`;

describe('activation: what dist/extension.js loads and calls', function () {
  this.timeout(120_000);
  let stage: string;
  let probe: Probe;

  before(async () => {
    stage = await stagedBuild('planwise-activation-', ['--production']);
    writeFileSync(join(stage, 'probe.cjs'), PROBE);
    probe = await new Promise<Probe>((res, rej) =>
      execFile(process.execPath, [join(stage, 'probe.cjs'), stage], (e, out, err) =>
        e ? rej(new Error(`${e.message}\n${err}`)) : res(JSON.parse(out) as Probe),
      ),
    );
  });
  after(() => rmSync(stage, { recursive: true, force: true }));

  it('activate() loads no other bundle and only registers the commands a window can show', () => {
    assert.deepEqual(probe.activate.loads, []);
    const shown = (Object.keys(COMMANDS) as CommandKey[])
      .filter((k) => !(HOST_UI_COMMANDS as readonly string[]).includes(k))
      .map((k) => `commands.registerCommand ${COMMANDS[k]}`);
    // Context subscriptions are the extension's own bookkeeping, not a call into VS Code.
    assert.deepEqual(probe.activate.calls.filter((c) => !c.startsWith('context.')).sort(), shown.sort());
  });

  it('just after activation: the essentials load, the panel provider and the plan lenses are registered', () => {
    assert.deepEqual(probe.afterActivation.loads, ['essentials.js']);
    assert.ok(probe.afterActivation.calls.includes(`window.registerWebviewViewProvider ${PANEL_VIEW_ID}`));
    assert.ok(probe.afterActivation.calls.includes('languages.registerCodeLensProvider'));
    assert.ok(!probe.afterActivation.calls.some((c) => c.startsWith('commands.registerCommand')));
  });

  it('Show Log needs neither the host nor the panel', () => {
    assert.deepEqual(probe.showLog.loads, []);
    assert.ok(probe.showLog.calls.includes('window.createOutputChannel Planwise'), probe.showLog.calls.join(', '));
  });
});

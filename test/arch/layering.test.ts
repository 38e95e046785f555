import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { CORE_IMPORT_ALLOWANCES, findLayeringViolations, importsOf, type SourceFile } from './layering';

const repo = resolve(__dirname, '../..');

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else if (/\.(ts|tsx)$/.test(name)) out.push(p);
  }
  return out;
}

function load(dir: string): SourceFile[] {
  return walk(join(repo, dir)).map((p) => ({
    path: relative(repo, p).split('\\').join('/'),
    text: readFileSync(p, 'utf8'),
  }));
}

describe('layering rules', () => {
  it('the real tree has no violations', () => {
    const files = [...load('src'), ...load('webview')];
    assert.deepEqual(
      findLayeringViolations(files, (from, spec) =>
        relative(repo, resolve(repo, dirname(from), spec))
          .split('\\')
          .join('/'),
      ),
      [],
    );
  });

  const resolver = (from: string, spec: string) => join(dirname(from), spec).split('\\').join('/');

  for (const banned of ['vscode', 'fs', 'node:fs', 'fs/promises', 'child_process', 'node:child_process']) {
    it(`flags src/core importing '${banned}'`, () => {
      const v = findLayeringViolations([{ path: 'src/core/x.ts', text: `import * as m from '${banned}';` }], resolver);
      assert.equal(v.length, 1);
      assert.match(v[0]!, /src\/core\/x\.ts/);
    });
  }

  it('flags a dynamic import and a require in src/core', () => {
    const v = findLayeringViolations(
      [
        { path: 'src/core/a.ts', text: `const m = await import("fs");` },
        { path: 'src/core/b.ts', text: `const cp = require('child_process');` },
      ],
      resolver,
    );
    assert.equal(v.length, 2);
  });

  it('allows src/core to import node:path and its own files', () => {
    const v = findLayeringViolations(
      [{ path: 'src/core/a.ts', text: `import { join } from 'node:path';\nimport { x } from './b';` }],
      resolver,
    );
    assert.deepEqual(v, []);
  });

  it('flags the webview importing host code or a package outside its allowance', () => {
    const v = findLayeringViolations(
      [
        { path: 'webview/a.tsx', text: `import { x } from '../src/host/panel';` },
        { path: 'webview/b.tsx', text: `import { y } from '../src/core/plan/validator';` },
        { path: 'webview/c.tsx', text: `import * as vscode from 'vscode';` },
      ],
      resolver,
    );
    assert.equal(v.length, 3);
  });

  it('flags the webview-ui-toolkit imported outside webview/ui/, and allows it inside', () => {
    const v = findLayeringViolations(
      [
        { path: 'webview/components/Gate.tsx', text: `import { vsCodeButton } from '@vscode/webview-ui-toolkit';` },
        { path: 'webview/App.tsx', text: `import '@vscode/webview-ui-toolkit/dist/button/index.js';` },
        {
          path: 'webview/ui/toolkitChunk.ts',
          text: `import { provideVSCodeDesignSystem } from '@vscode/webview-ui-toolkit';`,
        },
      ],
      resolver,
    );
    assert.equal(v.length, 2);
    assert.match(v[0]!, /^webview\/components\/Gate\.tsx: only webview\/ui\//);
    assert.match(v[1]!, /^webview\/App\.tsx: only webview\/ui\//);
  });

  it('allows the webview to import src/protocol and its own files', () => {
    const v = findLayeringViolations(
      [
        {
          path: 'webview/a.tsx',
          text: `import { Msg } from '../src/protocol/messages';\nimport { B } from './b';\nimport { h } from 'preact';`,
        },
      ],
      resolver,
    );
    assert.deepEqual(v, []);
  });

  it('flags a host or CLI importing a core module other than a facade, the index included, and allows the facades', () => {
    const v = findLayeringViolations(
      [
        { path: 'src/host/panel/x.ts', text: `import { validatePlan } from '../../core/plan/validator';` },
        { path: 'src/cli/render/y.ts', text: `import type { ThreadEvent } from '../../core/events/types';` },
        { path: 'src/node/z.ts', text: `import type { CommandRunner } from '../core/ports';` },
        { path: 'src/extension.ts', text: `const m = await import('./core/session/session');` },
        { path: 'src/host/w.ts', text: `import { validatePlan } from '../core/index';` },
        { path: 'src/host/v.ts', text: `import { x } from '../core/api/inner/deeper';` },
        { path: 'src/host/ok.ts', text: `import { validatePlan } from '../core/api/plans';` },
        { path: 'src/cli/ok.ts', text: `const { createSession } = await import('../core/api/sessions');` },
      ],
      resolver,
    );
    const why = 'hosts import the engine only through its facades in src/core/api/';
    assert.deepEqual(v, [
      `src/host/panel/x.ts: ${why} (found src/core/plan/validator)`,
      `src/cli/render/y.ts: ${why} (found src/core/events/types)`,
      `src/node/z.ts: ${why} (found src/core/ports)`,
      `src/extension.ts: ${why} (found src/core/session/session)`,
      `src/host/w.ts: ${why} (found src/core/index)`,
      `src/host/v.ts: ${why} (found src/core/api/inner/deeper)`,
    ]);
  });

  it('flags a facade that holds anything but re-exports', () => {
    const v = findLayeringViolations(
      [
        {
          path: 'src/core/api/ok.ts',
          text: `/** Doc. */\nexport { a, type B } from '../x';\nexport type * from '../y';\n`,
        },
        { path: 'src/core/api/code.ts', text: `export { a } from '../x';\nexport const b = 1;\n` },
        { path: 'src/core/api/imports.ts', text: `import { a } from '../x';\nexport { a };\n` },
      ],
      resolver,
    );
    assert.deepEqual(v, [
      "src/core/api/code.ts: a facade only re-exports engine modules (export … from '…')",
      "src/core/api/imports.ts: a facade only re-exports engine modules (export … from '…')",
    ]);
  });

  it('flags src/node importing host or CLI code, and the CLI importing the VS Code host', () => {
    const v = findLayeringViolations(
      [
        { path: 'src/node/a.ts', text: `import { x } from '../host/trust';` },
        { path: 'src/node/b.ts', text: `import { y } from '../cli/io';` },
        { path: 'src/cli/c.ts', text: `import { z } from '../host/config';` },
        { path: 'src/cli/d.ts', text: `import { w } from '../node/clock';` },
        { path: 'src/host/e.ts', text: `import { v } from '../node/clock';` },
      ],
      resolver,
    );
    assert.deepEqual(v, [
      'src/node/a.ts: src/node must not import src/host/trust',
      'src/node/b.ts: src/node must not import src/cli/io',
      'src/cli/c.ts: src/cli must not import src/host/config',
    ]);
  });

  it("flags a host reading another's view model: the CLI, the Node adapters, or a VS Code surface outside the panel", () => {
    const v = findLayeringViolations(
      [
        { path: 'src/cli/a.ts', text: `import { ViewModel } from '../protocol/viewModel';` },
        { path: 'src/node/b.ts', text: `import { x } from '../protocol/viewState';` },
        { path: 'src/host/status/c.ts', text: `import { PanelHub } from '../panel/hub';` },
        { path: 'src/host/panel/d.ts', text: `import { PanelHub } from './hub';` },
        { path: 'src/host/session/controller.ts', text: `import type { PanelHub } from '../panel/hub';` },
      ],
      resolver,
    );
    assert.deepEqual(v, [
      'src/cli/a.ts: only the panel may import its view model (found src/protocol/viewModel)',
      "src/cli/a.ts: the panel's protocol is not for cli (found src/protocol/viewModel)",
      "src/node/b.ts: the panel's protocol is not for node (found src/protocol/viewState)",
      'src/host/status/c.ts: only the panel may import its view model (found src/host/panel/hub)',
    ]);
  });

  it('keeps every temporary allowance for a file that exists and still needs it', () => {
    for (const [path, why] of Object.entries(CORE_IMPORT_ALLOWANCES)) {
      assert.ok(why.length > 0);
      const text = readFileSync(join(repo, path), 'utf8');
      const direct = importsOf(text).some((spec) => /(^|\/)core\/(?!api\/[^/]+$)/.test(spec));
      assert.ok(direct, `${path} no longer imports engine modules directly: drop its allowance`);
    }
  });

  it('flags src/protocol importing anything but zod and itself', () => {
    const v = findLayeringViolations([{ path: 'src/protocol/m.ts', text: `import { a } from '../core/x';` }], resolver);
    assert.equal(v.length, 1);
  });
});

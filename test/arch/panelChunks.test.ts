/**
 * The panel's code is split so its first paint needs the least (scripts/webviewBuild.mjs): the
 * entry holds no zod, marked, DOMPurify or UI toolkit; those come in the three chunks the entry
 * imports after the first paint, by the names main.tsx uses; and a module copied into both the entry and a chunk is
 * one of the declared stateless ones, so the copies cannot disagree.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import * as esbuild from 'esbuild';

const repo = resolve(__dirname, '../..');

interface WebviewBuild {
  PANEL_ENTRY: string;
  PANEL_CHUNKS: Record<string, { source: string; file: string }>;
  PANEL_SHARED_MODULES: string[];
  webviewBuild(o: {
    root: string;
    outdir: string;
    minify: boolean;
    sourcemap: boolean;
    metafile: boolean;
  }): esbuild.BuildOptions;
}

/** The source modules in one bundle, as repository paths. */
function inputsOf(output: esbuild.Metafile['outputs'][string]): Set<string> {
  return new Set(Object.keys(output.inputs).map((f) => relative(repo, resolve(repo, f)).split('\\').join('/')));
}

const packageOf = (input: string) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1];

describe("the panel's bundles", function () {
  this.timeout(60_000);
  let build: WebviewBuild;
  let out: string;
  const bundles = new Map<string, Set<string>>();

  before(async () => {
    build = (await import(join(repo, 'scripts', 'webviewBuild.mjs'))) as WebviewBuild;
    out = mkdtempSync(join(tmpdir(), 'planwise-panel-chunks-'));
    const options = build.webviewBuild({ root: repo, outdir: out, minify: true, sourcemap: false, metafile: true });
    const r = await esbuild.build({ ...options, absWorkingDir: repo, logLevel: 'silent' });
    for (const [file, output] of Object.entries(r.metafile!.outputs))
      bundles.set(relative(out, resolve(repo, file)), inputsOf(output));
  });

  after(() => rmSync(out, { recursive: true, force: true }));

  it('keeps zod, marked, DOMPurify and the UI toolkit out of the entry, and puts each in its chunk', () => {
    const entry = bundles.get(build.PANEL_ENTRY)!;
    const packages = (files: Set<string>) => new Set([...files].map(packageOf).filter(Boolean));
    for (const heavy of ['zod', 'marked', 'dompurify', '@vscode/webview-ui-toolkit', '@microsoft/fast-element'])
      assert.ok(!packages(entry).has(heavy), `${heavy} in the entry`);
    assert.ok(packages(bundles.get(build.PANEL_CHUNKS['check']!.file)!).has('zod'));
    for (const p of ['marked', 'dompurify'])
      assert.ok(packages(bundles.get(build.PANEL_CHUNKS['markdown']!.file)!).has(p), `${p} not in the markdown chunk`);
    for (const p of ['@vscode/webview-ui-toolkit', '@microsoft/fast-element', '@microsoft/fast-foundation'])
      assert.ok(packages(bundles.get(build.PANEL_CHUNKS['toolkit']!.file)!).has(p), `${p} not in the toolkit chunk`);
    // What the entry still holds for the first paint: Preact.
    assert.ok(packages(entry).has('preact'));
  });

  it('copies only the declared stateless modules into both the entry and a chunk', () => {
    const entry = bundles.get(build.PANEL_ENTRY)!;
    for (const { file } of Object.values(build.PANEL_CHUNKS)) {
      const both = [...bundles.get(file)!].filter((m) => entry.has(m) && !packageOf(m));
      const undeclared = both.filter((m) => !build.PANEL_SHARED_MODULES.includes(m));
      assert.deepEqual(undeclared, [], `${file} shares modules with the entry that are not declared stateless`);
    }
  });

  it('names each chunk in main.tsx as the build writes it', () => {
    const main = readFileSync(join(repo, 'webview', 'main.tsx'), 'utf8');
    const imported = [...main.matchAll(/import\(chunk\('([^']+)'\)\)/g)].map((m) => m[1]).sort();
    assert.deepEqual(
      imported,
      Object.values(build.PANEL_CHUNKS)
        .map((c) => c.file)
        .sort(),
    );
    for (const file of imported) assert.ok(bundles.has(file!), `the build writes no ${file}`);
  });
});

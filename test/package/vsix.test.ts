/**
 * `npm run package` as a person runs it, in a copy of the checkout's tracked files (so the
 * checkout's dist/ and planwise.vsix are left alone) with no network: npm offline and every HTTP
 * request sent to a closed port. Before packaging, the copy gets what a working checkout also
 * holds and the VSIX must not: source maps of a development build, the end-to-end cache, test
 * artifacts, plans and an older VSIX. The test lists what the VSIX holds and checks it against
 * what runs, and against the size budgets.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { listZipEntries, type ZipEntry } from '../e2e/harness/zip';

const repo = resolve(__dirname, '../..');

/** Budgets: no file in the VSIX over 512 KiB unpacked, and the VSIX under 1 MiB. */
const FILE_BUDGET_BYTES = 512 * 1024;
const VSIX_BUDGET_BYTES = 1024 * 1024;

/** Everything the VSIX may hold: the manifest, the extension's bundles, the panel's assets, the walkthrough's images. */
const ALLOWED = [
  /^\[Content_Types\]\.xml$/,
  /^extension\.vsixmanifest$/,
  /^extension\/package\.json$/,
  /^extension\/readme\.md$/,
  /^extension\/changelog\.md$/,
  /^extension\/LICENSE\.txt$/,
  /^extension\/dist\/(extension|essentials|host|panel|engine|openai|mcp)\.js$/,
  /^extension\/dist\/package\.json$/,
  /^extension\/media\/[^/]+\.(png|svg|css)$/,
  /^extension\/media\/codicons\/[^/]+\.(css|ttf)$/,
  /^extension\/media\/panel\/[^/]+\.(js|css)$/,
  /^extension\/docs\/[^/]+\.png$/,
];

/** Files a working checkout has that must never be packed. */
const DECOYS = [
  'dist/engine.js.map',
  'dist/extension.js.map',
  'dist/cli.cjs',
  'media/panel.css.map',
  '.e2e-cache/code-server/setup-complete.json',
  'test-artifacts/smoke/screenshot.png',
  '.vtcode/plans/2026-12-01-decoy.md',
  'old.vsix',
  '.bench-cache/x.json',
];

interface Walkthrough {
  steps: { id: string; media: { image: string } }[];
}

describe('npm run package: the VSIX, built offline', function () {
  this.timeout(300_000);
  let stage: string;
  let entries: ZipEntry[];
  let vsixBytes: number;
  let output: string;

  before(function () {
    stage = mkdtempSync(join(tmpdir(), 'planwise-vsix-'));
    const tracked = spawnSync('git', ['ls-files', '-z'], { cwd: repo, encoding: 'utf8' });
    assert.equal(tracked.status, 0, tracked.stderr);
    for (const file of tracked.stdout.split('\0').filter(Boolean)) {
      mkdirSync(dirname(join(stage, file)), { recursive: true });
      copyFileSync(join(repo, file), join(stage, file));
    }
    symlinkSync(join(repo, 'node_modules'), join(stage, 'node_modules'));
    for (const decoy of DECOYS) {
      mkdirSync(dirname(join(stage, decoy)), { recursive: true });
      writeFileSync(join(stage, decoy), 'not for the VSIX\n');
    }
    const closed = 'http://127.0.0.1:9';
    const r = spawnSync('npm', ['run', 'package'], {
      cwd: stage,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        npm_config_offline: 'true',
        HTTP_PROXY: closed,
        HTTPS_PROXY: closed,
        http_proxy: closed,
        https_proxy: closed,
        NO_PROXY: '',
        no_proxy: '',
      },
      timeout: 240_000,
    });
    output = `${r.stdout}${r.stderr}`;
    assert.equal(r.status, 0, `npm run package failed:\n${output.slice(-3000)}`);
    const vsix = join(stage, 'planwise.vsix');
    vsixBytes = statSync(vsix).size;
    entries = listZipEntries(vsix);
    console.log(`      planwise.vsix: ${vsixBytes} bytes, ${entries.length} entries`);
    for (const e of entries) console.log(`        ${String(e.uncompressedBytes).padStart(8)}  ${e.name}`);
  });

  after(() => {
    if (stage) rmSync(stage, { recursive: true, force: true });
  });

  it('packages without a warning from vsce', () => {
    assert.doesNotMatch(output, /WARNING/, output);
  });

  it('holds only what runs: no source map, test, source, cache, plan or older VSIX', () => {
    const names = entries.map((e) => e.name);
    for (const must of ['extension/package.json', 'extension/dist/extension.js', 'extension/LICENSE.txt']) {
      assert.ok(names.includes(must), `${must} is missing from ${names.join(', ')}`);
    }
    assert.deepEqual(
      names.filter((n) => !ALLOWED.some((re) => re.test(n))),
      [],
      'files that do not run were packaged',
    );
    assert.deepEqual(
      names.filter((n) =>
        /\.map$|\.ts$|(^|\/)(src|test|webview|node_modules|\.e2e-cache|test-artifacts|\.vtcode)\//.test(n),
      ),
      [],
    );
  });

  it(`keeps every file under ${FILE_BUDGET_BYTES / 1024} KiB and the VSIX under ${VSIX_BUDGET_BYTES / 1024} KiB`, () => {
    const over = entries.filter((e) => e.uncompressedBytes > FILE_BUDGET_BYTES).map((e) => e.name);
    assert.deepEqual(over, [], 'files over the budget');
    assert.ok(vsixBytes < VSIX_BUDGET_BYTES, `planwise.vsix is ${vsixBytes} bytes`);
  });

  it("packs the walkthrough's images, as the packed manifest names them", () => {
    const names = new Set(entries.map((e) => e.name));
    const manifest = JSON.parse(readFileSync(join(stage, 'package.json'), 'utf8')) as {
      contributes: { walkthroughs: Walkthrough[] };
    };
    const images = manifest.contributes.walkthroughs.flatMap((w) => w.steps.map((s) => s.media.image));
    assert.ok(images.length >= 3, `${images.length} walkthrough images`);
    for (const image of images) assert.ok(names.has(`extension/${image}`), `${image} is not in the VSIX`);
  });

  it('publish:ovsx publishes the file npm run package writes, with ovsx installed', () => {
    const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    assert.match(pkg.scripts['package']!, / -o planwise\.vsix$/);
    assert.equal(pkg.scripts['publish:ovsx'], 'ovsx publish planwise.vsix');
    const ovsx = spawnSync(join(repo, 'node_modules', '.bin', 'ovsx'), ['--version'], { encoding: 'utf8' });
    assert.equal(ovsx.status, 0, ovsx.stderr);
    assert.match(ovsx.stdout, /^\d+\.\d+\.\d+/);
  });
});

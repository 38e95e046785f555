/* eslint-disable @typescript-eslint/no-require-imports -- a command's bundle loads when it runs */
// The shipped CLI, dist/cli.cjs: the dispatcher alone. Each command's code is a bundle of its own,
// dist/cli/<bundle>.js, named in commands/bundles.json, required when that command runs: `planwise
// --version` parses a few KB and `check-command` only the gate, never the model client.
import { runCli } from './dispatch';
import { start } from './start';
import bundles from './commands/bundles.json';

// Node's own compile cache for the command bundles, where the running Node has one (22.1 and later).
// An older Node is not asked: loading `node:module` there loads part of its ES module loader too.
if (Number(process.versions.node.split('.')[0]) >= 22)
  (process.getBuiltinModule('node:module') as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const table: Readonly<Record<string, string>> = bundles;

start((argv, io) =>
  runCli(argv, io, (file) => {
    if (!Object.hasOwn(table, file)) throw new Error(`no command bundle for '${file}'`);
    return require(`${__dirname}/cli/${table[file]}.js`);
  }),
);

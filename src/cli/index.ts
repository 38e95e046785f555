import { main } from './main';

// The streams are getters: Node builds process.stdin/stdout/stderr on first touch (a pipe's is a
// socket, ~3 ms of CPU each at start), and `--version` or `check-command` never reads stdin.
main(process.argv.slice(2), {
  get stdout() {
    return process.stdout;
  },
  get stderr() {
    return process.stderr;
  },
  get stdin() {
    return process.stdin;
  },
  stdoutFd: 1,
  env: process.env,
  cwd: process.cwd(),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`planwise: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);

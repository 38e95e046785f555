import type { CliIO } from './io';

/** Runs the CLI on this process's arguments and streams, and sets its exit code. */
export function start(run: (argv: string[], io: CliIO) => Promise<number>): void {
  // The streams are getters: Node builds process.stdin/stdout/stderr on first touch (a pipe's is a
  // socket), and `--version` or `check-command` never reads stdin.
  run(process.argv.slice(2), {
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
}

import type { CliIO } from './io';
import { runCli } from './dispatch';
import { loadCommand } from './commands/load';

/** Runs one `planwise` command line with every command's module loaded from source (tests, one-file builds). */
export function main(argv: string[], io: CliIO): Promise<number> {
  return runCli(argv, io, loadCommand);
}

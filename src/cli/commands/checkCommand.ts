import type { CliCommand } from '../io';

export const checkCommand: CliCommand = async (_args, io) => {
  io.stderr.write('check-command: not built yet\n');
  return 2;
};

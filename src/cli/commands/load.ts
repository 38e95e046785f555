/* eslint-disable @typescript-eslint/no-require-imports -- lazy loading: see below */
/**
 * A command's module, by its file name in this folder (`checkCommand` for checkCommand.ts), loaded
 * when the command runs, so `planwise check-command` never loads the model client. Run from source
 * (the tests), this is a plain require of the module. The built CLI does not use it: its
 * dispatcher, bin.ts, requires the command's own bundle, dist/cli/<bundle>.js, named in
 * commands/bundles.json.
 */
export function loadCommand(file: string): unknown {
  switch (file) {
    case 'checkCommand':
      return require('./checkCommand');
    case 'validatePlan':
      return require('./validatePlan');
    case 'plans':
      return require('./plans');
    case 'review':
      return require('./review');
    case 'plan':
      return require('./plan');
    case 'revert':
      return require('./revert');
    case 'resume':
      return require('./resume');
    default:
      throw new Error(`no command module '${file}'`);
  }
}

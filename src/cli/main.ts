import { EnvironmentError, GIT_MISSING, isGitMissing, UsageError } from '../errors.js';
import { VERSION } from '../version.js';
import { COMMAND_HELP, HELP } from './help.js';
import type { Io } from './io.js';

export type { Io } from './io.js';

// parse → run → report → exit. Everything heavier than this module's own imports (the rules, the model,
// git, zod, the compiler) is imported by the command that needs it: `--version`,
// `--help` and a usage error load none of it.

export async function main(argv: string[], io: Io): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (error) {
    // Matched by name: the modules that define these errors load only with the command that throws them.
    const name = error instanceof Error ? error.name : '';
    if (name === 'ConfigError') {
      io.stderr(`tripwire: invalid configuration\n${(error as Error).message}\n`);
      return 2;
    }
    if (name === 'MissingRefError' || error instanceof EnvironmentError) {
      io.stderr(`tripwire: ${(error as Error).message}\n`);
      return 2;
    }
    if (error instanceof UsageError || (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))) {
      io.stderr(`tripwire: ${error.message}\nRun 'tripwire --help' for usage.\n`);
      return 2;
    }
    if (isGitMissing(error)) {
      io.stderr(`tripwire: ${GIT_MISSING}\n`);
      return 2;
    }
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    io.stderr(`tripwire: internal error\n${detail}\n`);
    return 2;
  }
}

async function dispatch(argv: string[], io: Io): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    io.stdout(HELP);
    return command === undefined ? 2 : 0;
  }
  if (command === '--version' || command === '-v') {
    io.stdout(`${VERSION}\n`);
    return 0;
  }
  if (command === 'check') return check(rest, io);
  if (command === 'select') return (await import('./commands/select.js')).selectCommand(rest, io, COMMAND_HELP.select);
  if (command === 'fix') return (await import('./commands/fix.js')).fixCommand(rest, io, COMMAND_HELP.fix);
  if (command === 'init') return (await import('./commands/init.js')).initCommand(rest, io, COMMAND_HELP.init);
  if (command === 'explain') return (await import('./commands/explain.js')).explainCommand(rest, io, COMMAND_HELP.explain);
  if (command === 'print-config') return (await import('./commands/print-config.js')).printConfigCommand(rest, io, COMMAND_HELP['print-config']);
  if (command === 'print-inputs') return (await import('./commands/print-inputs.js')).printInputsCommand(rest, io, COMMAND_HELP['print-inputs']);
  if (command === 'freeze') return (await import('./commands/freeze.js')).freezeCommand(rest, io, COMMAND_HELP.freeze, (args) => check(args, io));
  if (command === 'lock') return (await import('./commands/freeze.js')).lockCommand(rest, io, COMMAND_HELP.lock);
  throw new UsageError(`unknown command '${command}'`);
}


/** `check` is what the hooks run: its module is loaded only with it. */
async function check(argv: string[], io: Io): Promise<number> {
  return (await import('./commands/check.js')).checkCommand(argv, io, COMMAND_HELP.check);
}

import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError } from '../../errors.js';
import { resolveCwd } from '../cwd.js';
import type { Io } from '../io.js';

const FORMATS = ['text', 'json', 'turbo', 'nx'] as const;

/** `tripwire print-inputs`: what a check of this root reads, for a task runner's cache key (see engine/inputs.ts). */
export async function printInputsCommand(argv: string[], io: Io, help: string): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    allowNegative: true,
    options: {
      cwd: { type: 'string' },
      config: { type: 'string' },
      format: { type: 'string', default: 'text' },
      cache: { type: 'boolean', default: true },
      'cache-location': { type: 'string' },
      check: { type: 'boolean' },
      task: { type: 'string', default: 'tripwire' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    io.stdout(help);
    return 0;
  }
  const format = values.format;
  if (!FORMATS.some((known) => known === format)) throw new UsageError(`unknown format '${format}' (known: ${FORMATS.join(', ')})`);
  if (values.check === true && format !== 'turbo') throw new UsageError('--check compares with the inputs of a Turborepo task: use it with --format turbo');
  const cwd = resolveCwd(io.cwd, values.cwd);
  const { checkInputs, declaredTurboInputs, nxInputs, turboInputs, uncoveredTurboInputs } = await import('../../engine/inputs.js');
  const inputs = await checkInputs({
    cwd,
    cache: values.cache,
    ...(values.config !== undefined && { configFile: values.config }),
    ...(values['cache-location'] !== undefined && { cacheLocation: resolve(io.cwd, values['cache-location']) }),
  });
  const shown = (file: string): string => relative(io.cwd, file).split('\\').join('/') || '.';
  if (format === 'turbo' && values.check === true) {
    const declared = declaredTurboInputs(cwd, values.task);
    if (declared === null) throw new UsageError(`--check: no turbo.json here declares inputs for the task '${values.task}' (give --task NAME for another task)`);
    return reportUncovered(io, uncoveredTurboInputs(turboInputs(inputs, cwd), declared.inputs), shown(declared.file), values.task);
  }
  if (format === 'turbo') io.stdout(`${JSON.stringify(turboInputs(inputs, cwd), null, 2)}\n`);
  else if (format === 'nx') io.stdout(`${JSON.stringify(nxInputs(inputs, cwd), null, 2)}\n`);
  else if (format === 'json') {
    const negated = (glob: string): string => (glob.startsWith('!') ? `!${shown(glob.slice(1))}` : shown(glob));
    io.stdout(`${JSON.stringify({ root: shown(inputs.root), files: inputs.files.map(shown), absent: inputs.absent.map(shown), globs: inputs.globs.map(negated) }, null, 2)}\n`);
  } else io.stdout(inputs.files.map((file) => `${shown(file)}\n`).join(''));
  return 0;
}

/**
 * `--check`: every input the check has now must be covered by those turbo.json declares, or turbo
 * could serve a verdict that a change to a file outside the list made stale (exit 1, naming them).
 */
function reportUncovered(io: Io, missing: readonly string[], file: string, task: string): number {
  if (missing.length === 0) return 0;
  io.stderr(
    `tripwire: the inputs ${file} declares for '${task}' miss ${missing.length} that the check reads, so a change to them would not run it again:\n${missing.map((input) => `  ${input}\n`).join('')}Put the output of \`tripwire print-inputs --format turbo\` in tasks.${task}.inputs.\n`,
  );
  return 1;
}

import { parseArgs } from 'node:util';
import { resolveCwd } from '../cwd.js';
import type { Io } from '../io.js';

/** `tripwire print-config`: the resolved configuration as JSON (see engine/print-config.ts). */
export async function printConfigCommand(argv: string[], io: Io, help: string): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { cwd: { type: 'string' }, config: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    io.stdout(help);
    return 0;
  }
  const { resolvedConfig } = await import('../../engine/print-config.js');
  const resolved = await resolvedConfig({ cwd: resolveCwd(io.cwd, values.cwd), ...(values.config !== undefined && { configFile: values.config }) });
  io.stdout(`${JSON.stringify(resolved, null, 2)}\n`);
  return 0;
}

import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { run, UsageError } from '../../engine/index.js';
import { formatConfig } from '../../init/format.js';
import { configTarget, existingConfig, factCacheRefusal, writeConfigFile } from '../../init/target.js';
import { HookError, installHook } from '../../init/hook.js';
import { inferConfig, type Inferred } from '../../init/infer.js';
import { resolveCwd } from '../cwd.js';
import type { Io } from '../io.js';
import { warnCacheRefused } from '../cache-warning.js';
import { plural } from '../../util/text.js';

/** Asks one yes/no question; null when there is nobody to ask (stdin is not a terminal). */
export type Ask = (question: string) => Promise<boolean | null>;

/** `tripwire init`: reads the repository, prints what it inferred and why, and writes `tripwire.config.json`. */
export async function initCommand(argv: string[], io: Io, help: string, ask: Ask = askOnTerminal): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      cwd: { type: 'string' },
      force: { type: 'boolean', default: false },
      yes: { type: 'boolean', short: 'y', default: false },
      'dry-run': { type: 'boolean', default: false },
      hook: { type: 'boolean', default: false },
      cache: { type: 'boolean', default: true },
      help: { type: 'boolean', short: 'h' },
    },
    allowNegative: true,
  });
  if (values.help) {
    io.stdout(help);
    return 0;
  }
  const root = resolveCwd(io.cwd, values.cwd);
  if (!existsSync(root)) throw new UsageError(`${root} does not exist`);
  const existing = existingConfig(root);
  const target = configTarget(existing);
  const writeConfig = existing === null || values.force;

  if (!writeConfig && !values.hook) {
    io.stderr(`tripwire: ${existing ?? ''} already configures tripwire; not overwritten. Run \`tripwire init --force\` to replace it, or \`tripwire init --hook\` to install only the pre-commit hook.\n`);
    return 2;
  }

  if (writeConfig) {
    const cacheRefused = values.cache ? await factCacheRefusal(root) : null;
    warnCacheRefused(io, cacheRefused);
    const { config, items } = await inferConfig({ root, cache: values.cache && cacheRefused === null });
    const text = formatConfig(config);
    io.stdout(`tripwire init: inferred from ${root}\n\n${formatItems(items)}\n`);
    if (values['dry-run']) {
      io.stdout(`${target} (not written: --dry-run)\n${text}`);
      return 0;
    }
    const answer = values.yes ? true : await ask(`Write ${target}${existing !== null ? ` (replacing ${existing})` : ''}? [Y/n] `);
    if (answer === false) {
      io.stdout('nothing written\n');
      return 0;
    }
    writeConfigFile(root, target, text);
    io.stdout(`wrote ${target}${existing !== null && existing !== target ? ` (${existing} still holds the old configuration: ${target} takes precedence)` : ''}\n`);
    const result = await run({ cwd: root, configFile: target, cache: values.cache, cacheRefused });
    const { errors, warnings } = result.summary;
    io.stdout(errors + warnings === 0 ? 'tripwire check: clean\n' : `tripwire check: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}; run \`npx tripwire check\` to see them\n`);
  } else {
    io.stdout(`${existing ?? ''} already configures tripwire: kept\n`);
  }

  if (!values.hook) return 0;
  try {
    const hook = await installHook(root, values.force);
    if (hook.status === 'refused') {
      io.stderr(`tripwire: pre-commit hook not installed: ${hook.reason}\n`);
      return 2;
    }
    io.stdout(`${hook.status} the pre-commit hook ${hook.path}: it runs \`tripwire check --staged\`\n`);
    return 0;
  } catch (error) {
    if (error instanceof HookError) throw new UsageError(error.message);
    throw error;
  }
}

function formatItems(items: readonly Inferred[]): string {
  const width = Math.max(...items.map((item) => item.key.length));
  const lines: string[] = [];
  for (const item of items) {
    lines.push(`${item.key.padEnd(width)}  ${item.value}`);
    for (const why of item.why) lines.push(`${' '.repeat(width)}  ← ${why}`);
    for (const warning of item.warnings) lines.push(`${' '.repeat(width)}  ! ${warning}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Asks on the terminal; never when stdin is not one (a hook, CI, a pipe): that is `--yes`. */
async function askOnTerminal(question: string): Promise<boolean | null> {
  if (process.stdin.isTTY !== true) return null;
  const terminal = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = (await terminal.question(question)).trim().toLowerCase();
    return answer === '' || answer === 'y' || answer === 'yes';
  } finally {
    terminal.close();
  }
}

import { lstatSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { run, selectRules } from '../../engine/index.js';
import { EnvironmentError } from '../../errors.js';
import { writeFileAtomic } from '../../util/fs.js';
import { warnCacheRefused } from '../cache-warning.js';
import { resolveCwd } from '../cwd.js';
import { planFixes, type FixPlan } from '../../engine/fix-plan.js';
import type { Io } from '../io.js';
import { unifiedDiff } from '../unified-diff.js';

/**
 * `tripwire fix [--write]`: the mechanical fixes the rules attach to their
 * findings. A dry run prints them as a diff and exits 1 when there is
 * something to fix; `--write` writes each file atomically, only where it
 * still holds the text the fixes were computed from.
 */
export async function fixCommand(argv: string[], io: Io, help: string): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    allowNegative: true,
    options: {
      write: { type: 'boolean' },
      cwd: { type: 'string' },
      config: { type: 'string' },
      base: { type: 'string' },
      rule: { type: 'string', multiple: true },
      cache: { type: 'boolean', default: true },
      'cache-location': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    io.stdout(help);
    return 0;
  }
  const options = {
    cwd: resolveCwd(io.cwd, values.cwd),
    cache: values.cache,
    ...(values.config !== undefined && { configFile: values.config }),
    ...(values.rule !== undefined && { rules: values.rule }),
    ...(values['cache-location'] !== undefined && { cacheLocation: resolve(io.cwd, values['cache-location']) }),
    ...(values.base !== undefined && { base: values.base }),
  };
  const result = await run(options);
  warnCacheRefused(io, result.cacheRefused);
  const { model } = result;
  const configPath = model.configFile === null ? null : join(result.root, model.configFile);
  const selected = selectRules(model.config, options.rules, configPath);
  const plan = planFixes(model, selected, configPath, result.findings);
  const unfixed = result.findings.filter((finding) => !plan.applied.some((planned) => planned.finding === finding)).length;
  if (plan.applied.length === 0) {
    io.stdout(`nothing to fix${unfixed > 0 ? `: ${unfixed} finding${unfixed === 1 ? ' has' : 's have'} no mechanical fix (tripwire check lists them)` : ''}\n`);
    return 0;
  }
  io.stdout(preview(plan, io.cwd, result.root));
  const files = [...plan.texts.keys()].filter((file) => plan.texts.get(file) !== plan.originals.get(file));
  const counts = `${plan.applied.length} fix${plan.applied.length === 1 ? '' : 'es'} in ${files.length} file${files.length === 1 ? '' : 's'}`;
  if (values.write !== true) {
    io.stdout(`\n${counts}; nothing written (dry run). Apply them with: tripwire fix --write\n`);
    return 1;
  }
  writeAll(model, plan, files);
  io.stdout(`\nfixed: ${counts}\n`);
  return 0;
}

function preview(plan: FixPlan, from: string, root: string): string {
  const lines = plan.applied.map(({ finding, fix, round }) => {
    const where = relative(from, join(root, finding.file)).split(sep).join('/');
    // A later round's finding is located in the text the fixes before it left.
    const then = round > 0 ? 'then, once fixed: ' : '';
    return `${then}${where}:${finding.line}:${finding.column}  ${finding.messageId} → ${fix.messageId}: ${fix.description}  ${finding.ruleId}\n`;
  });
  const diffs = [...plan.texts].map(([file, text]) => unifiedDiff(file, plan.originals.get(file) ?? '', text));
  return `${lines.join('')}\n${diffs.join('\n')}`;
}

/**
 * Every file is checked before any is written: inside the repository, a
 * listed regular file (no symbolic link), and still the text the fixes were
 * computed from. Each is then replaced atomically (a temporary file renamed over it).
 */
export function writeAll(model: { root: string; fileSet: ReadonlySet<string> }, plan: FixPlan, files: readonly string[]): void {
  const root = realpathSync(model.root);
  const targets = files.map((file) => {
    const path = resolve(model.root, file);
    const rel = relative(model.root, path);
    if (!model.fileSet.has(file) || rel === '' || rel.startsWith('..') || isAbsolute(rel)) throw new EnvironmentError(`refusing to write ${file}: it is not a file of the repository`);
    const stat = lstatSync(path, { throwIfNoEntry: false });
    const inside = relative(root, realpathSync(dirname(path)));
    if (!stat?.isFile() || inside.startsWith('..') || isAbsolute(inside)) throw new EnvironmentError(`refusing to write ${file}: it is not a regular file inside the repository`);
    if (readFileSync(path, 'utf8') !== plan.originals.get(file)) throw new EnvironmentError(`refusing to write ${file}: it changed since tripwire read it (or differs from what was checked); nothing was written, run tripwire fix again`);
    return { file, path };
  });
  for (const { file, path } of targets) {
    try {
      writeFileAtomic(path, plan.texts.get(file) ?? '', { mode: lstatSync(path).mode });
    } catch (error) {
      throw new EnvironmentError(`cannot write ${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

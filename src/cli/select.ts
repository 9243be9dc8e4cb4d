import { parseArgs } from 'node:util';
import { buildModel, UsageError } from '../check.js';
import { selectIds } from '../analysis/select.js';
import type { Selection } from '../analysis/selection-types.js';
import type { SelectReport } from '../report/select-markdown.js';
import { changedFiles, resolveBase } from '../repo/diff.js';
import { findGitRoot } from '../repo/git.js';
import { resolveCwd } from './cwd.js';
import type { Io } from './io.js';
import { warnCacheRefused } from './cache-warning.js';
import { selectionOf } from '../analysis/selection.js';

const SELECT_FORMATS = ['text', 'json', 'markdown'] as const;
type SelectFormat = (typeof SELECT_FORMATS)[number];

function isSelectFormat(name: string): name is SelectFormat {
  return SELECT_FORMATS.some((known) => known === name);
}

type SelectOutput = SelectReport;

/** `tripwire select`: the paid test ids a diff selects, from the maps `check` verifies. */
export async function selectCommand(argv: string[], io: Io, help: string): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      base: { type: 'string' },
      staged: { type: 'boolean', default: false },
      tier: { type: 'string' },
      format: { type: 'string', default: 'text' },
      cwd: { type: 'string' },
      config: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    io.stdout(help);
    return 0;
  }
  const format = values.format;
  if (!isSelectFormat(format)) throw new UsageError(`unknown format '${format}' for select (known: ${SELECT_FORMATS.join(', ')})`);
  if (values.base === undefined && !values.staged) throw new UsageError('select needs --base REF, or --staged to select from the index');

  const { model, root, cache, cacheRefused } = await buildModel({
    cwd: resolveCwd(io.cwd, values.cwd),
    ...(values.config !== undefined && { configFile: values.config }),
  });
  warnCacheRefused(io, cacheRefused);
  const tier = values.tier;
  if (tier !== undefined) {
    const tiers = model.config.maps?.tiers;
    if (tiers === undefined) throw new UsageError('--tier needs a tier map: set maps.tiers in the configuration');
    if (!tiers.values.includes(tier)) throw new UsageError(`unknown tier '${tier}' (allowed: ${tiers.values.join(', ')})`);
  }
  const gitRoot = await findGitRoot(root);
  if (gitRoot === null) throw new UsageError(`select compares git revisions, but ${root} is not inside a git work tree`);
  const base = values.base === undefined ? null : await resolveBase(gitRoot, values.base);
  const changed = await changedFiles(gitRoot, root, { ...(base !== null && { base }), staged: values.staged });

  const { selection, problems } = selectionOf(model);
  cache.save();
  const broken = [...new Set([...problems, ...model.reportedProblems()].map((p) => `${p.file}:${p.loc.line}:${p.loc.column} ${p.message}`))];
  if (broken.length > 0) {
    io.stderr(`tripwire: the selection maps cannot be evaluated, so nothing can be selected from them:\n${broken.join('\n')}\n`);
    return 2;
  }

  const output: SelectOutput = {
    base,
    changed,
    selected: selectIds(selection, changed, tier === undefined ? {} : { tier }),
    total: idsInScope(selection, tier).size,
  };
  if (format === 'json') io.stdout(`${JSON.stringify(output, null, 2)}\n`);
  else if (format === 'markdown') io.stdout((await import('../report/select-markdown.js')).selectMarkdown(output, tier));
  else io.stdout(formatText(output, tier));
  return 0;
}

function idsInScope(selection: Selection, tier: string | undefined): Set<string> {
  const ids = new Set([...selection.touchfiles.map((entry) => entry.key.value), ...selection.paidIds.map((paid) => paid.id)]);
  if (tier === undefined) return ids;
  return new Set([...ids].filter((id) => selection.tiers?.get(id)?.value === tier));
}

function formatText({ changed, selected, total }: SelectOutput, tier: string | undefined): string {
  const idWidth = Math.max(0, ...selected.map((s) => s.id.length));
  const tierLabels = selected.map((s) => `[${s.tier ?? 'no tier'}]`);
  const tierWidth = Math.max(0, ...tierLabels.map((label) => label.length));
  const lines = selected.map((s, index) => {
    const reasons = s.reasons.map((r) => (r.global ? `${r.file} (global)` : r.glob === r.file ? r.file : `${r.file} (${r.glob})`));
    return `${s.id.padEnd(idWidth)}  ${(tierLabels[index] ?? '').padEnd(tierWidth)}  ← ${reasons.join(', ')}`;
  });
  const scope = tier === undefined ? '' : ` (tier ${tier})`;
  const globals = [...new Set(selected.flatMap((s) => s.reasons.filter((r) => r.global).map((r) => r.file)))];
  if (globals.length > 0) {
    const touchfiles = globals.length === 1 ? 'touchfile' : 'touchfiles';
    lines.push(`all ${selected.length} paid tests selected${scope}: global ${touchfiles} ${globals.join(', ')} changed`);
  } else {
    lines.push(`${selected.length} of ${total} paid tests selected${scope}${changed.length === 0 ? ': no file changed' : ''}`);
  }
  return `${lines.join('\n')}\n`;
}

import { parseArgs } from 'node:util';
import { UsageError } from '../../engine/index.js';
import { LANE_CHANGE, MAP_DIFF, type SelectReport } from '../../report/select-markdown.js';
import { resolveCwd } from '../cwd.js';
import type { Io } from '../io.js';
import { warnCacheRefused } from '../cache-warning.js';

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

  const tier = values.tier;
  const { select } = await import('../../engine/select.js');
  const result = await select({
    cwd: resolveCwd(io.cwd, values.cwd),
    ...(values.config !== undefined && { configFile: values.config }),
    ...(values.base !== undefined && { base: values.base }),
    staged: values.staged,
    ...(tier !== undefined && { tier }),
  });
  warnCacheRefused(io, result.cacheRefused);
  if (result.broken.length > 0) {
    io.stderr(`tripwire: the selection maps cannot be evaluated, so nothing can be selected from them:\n${result.broken.join('\n')}\n`);
    return 2;
  }
  const output: SelectOutput = { base: result.base, changed: result.changed, selected: result.selected, total: result.total };
  if (format === 'json') io.stdout(`${JSON.stringify(output, null, 2)}\n`);
  else if (format === 'markdown') io.stdout((await import('../../report/select-markdown.js')).selectMarkdown(output, tier));
  else io.stdout(formatText(output, tier));
  return 0;
}

function formatText({ changed, selected, total }: SelectOutput, tier: string | undefined): string {
  const idWidth = Math.max(0, ...selected.map((s) => s.id.length));
  const tierLabels = selected.map((s) => `[${s.tier ?? 'no tier'}]`);
  const tierWidth = Math.max(0, ...tierLabels.map((label) => label.length));
  const lines = selected.map((s, index) => {
    const reasons = s.reasons.map((r) => (r.mapDiff !== undefined ? `${r.file} (${r.glob}: ${MAP_DIFF[r.mapDiff]})` : r.lane !== undefined ? `${r.file} (${r.glob}: ${LANE_CHANGE[r.lane]})` : r.global ? `${r.file} (global)` : r.glob === r.file ? r.file : `${r.file} (${r.glob})`));
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

import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { EnvironmentError, UsageError } from '../../errors.js';
import { isReporterName, REPORTER_NAMES, report, shouldColor } from '../../report/index.js';
import { writeFileAtomic } from '../../util/fs.js';
import { terminalProgress, wantsProgress } from '../../util/progress.js';
import { formatStats, roundMs } from '../../util/timing.js';
import { VERSION } from '../../version.js';
import { warnCacheRefused } from '../cache-warning.js';
import { resolveCwd } from '../cwd.js';
import type { Io } from '../io.js';

/** `tripwire check`: parse the arguments, run the engine (or take its cached verdict), report, exit. */
export async function checkCommand(argv: string[], io: Io, help: string): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    allowNegative: true,
    options: {
      cwd: { type: 'string' },
      config: { type: 'string' },
      format: { type: 'string', default: 'stylish' },
      'output-file': { type: 'string', short: 'o' },
      quiet: { type: 'boolean' },
      color: { type: 'boolean' },
      rule: { type: 'string', multiple: true },
      workspace: { type: 'string', multiple: true },
      'max-warnings': { type: 'string' },
      cache: { type: 'boolean', default: true },
      'cache-location': { type: 'string' },
      concurrency: { type: 'string' },
      base: { type: 'string' },
      staged: { type: 'boolean' },
      baseline: { type: 'boolean', default: true },
      'update-baseline': { type: 'boolean' },
      stats: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    io.stdout(help);
    return 0;
  }
  const format = values.format;
  if (!isReporterName(format)) throw new UsageError(`unknown format '${format}' (known: ${REPORTER_NAMES.join(', ')})`);
  let maxWarnings = Number.POSITIVE_INFINITY;
  if (values['max-warnings'] !== undefined) {
    maxWarnings = Number(values['max-warnings']);
    if (!Number.isInteger(maxWarnings) || maxWarnings < 0) throw new UsageError(`--max-warnings expects a non-negative integer, got '${values['max-warnings']}'`);
  }
  const concurrency = values.concurrency === undefined ? undefined : parseConcurrency(values.concurrency);
  const started = performance.now();
  const cwd = resolveCwd(io.cwd, values.cwd);
  const options = {
    cwd,
    cache: values.cache,
    paths: positionals,
    ...(values.config !== undefined && { configFile: values.config }),
    ...(values.rule !== undefined && { rules: values.rule }),
    ...(values.workspace !== undefined && { workspaces: values.workspace }),
    ...(values['cache-location'] !== undefined && { cacheLocation: resolve(io.cwd, values['cache-location']) }),
    ...(values.base !== undefined && { base: values.base }),
    ...(concurrency !== undefined && { concurrency }),
    ...(values.staged === true && { staged: true }),
    ...(values.baseline === false && { baseline: false }),
    ...(values['update-baseline'] === true && { updateBaseline: true }),
  };
  // Only the markdown report shows the maps' coverage: no other format pays for it.
  const coverage = format === 'markdown';
  const progress = wantsProgress(io.stderrIsTTY === true, io.env) ? terminalProgress({ write: io.stderr, ...(io.progressAfterMs !== undefined && { afterMs: io.progressAfterMs }) }) : undefined;
  const { repositoryRoot, verdictOf } = await import('../../engine/verdict.js');
  let outcome;
  try {
    // --update-baseline writes, so it always runs; --no-cache reads and writes no cache at all.
    outcome = await verdictOf({ ...options, ...(coverage && { coverage }), ...(progress && { progress }) });
  } finally {
    progress?.done();
  }
  const { run: verdict, cached: hit, stats } = outcome;
  warnCacheRefused(io, outcome.cacheRefused);
  const { errors, warnings } = verdict.summary;
  // As ESLint's --quiet: warnings are not printed, but --max-warnings still counts them.
  const shown = values.quiet === true ? { findings: verdict.findings.filter((finding) => finding.severity === 'error'), summary: { ...verdict.summary, warnings: 0 } } : verdict;
  const reportStarted = performance.now();
  const withStats = values.stats === true && format === 'json';
  const summary = { ...shown.summary, ms: Math.round(performance.now() - started), ...(hit && { cached: true }), ...(withStats && stats !== null && { stats }) };
  const output = await report(format, { findings: shown.findings, summary, ...(coverage && verdict.coverage && { coverage: verdict.coverage }) }, {
    cwd: verdict.root,
    from: io.cwd,
    ...((format === 'github' || format === 'sarif' || format === 'markdown') && (await repositoryRoot(verdict.root))),
    color: format === 'stylish' && (values.color ?? (values['output-file'] === undefined && shouldColor({ isTTY: io.isTTY }, io.env))),
    rules: verdict.rules,
    toolVersion: VERSION,
  });
  if (values['output-file'] !== undefined) writeOutput(values['output-file'], resolve(io.cwd, values['output-file']), output);
  else io.stdout(output);
  const timing = io.env.TIMING;
  if ((values.stats === true && !withStats) || (timing !== undefined && timing !== '')) {
    if (stats === null) io.stderr('Timing: the verdict came from the result cache (same inputs as an earlier run); no phase ran. --no-cache times a full run.\n');
    else io.stderr(formatStats({ ...stats, phases: [...stats.phases, { name: 'report', ms: roundMs(performance.now() - reportStarted) }] }, timing === 'all'));
  }
  return errors > 0 || warnings > maxWarnings ? 1 : 0;
}

/** Writes the report atomically; a file that cannot be written is a one-line error naming it as given (exit 2). */
function writeOutput(given: string, file: string, text: string): void {
  try {
    // `-o reports/x.sarif` into a directory that does not exist yet (the Action's sarif-file input): created.
    writeFileAtomic(file, text);
  } catch (error) {
    // Node's message ends with the path it tried, here the temporary file: the code and its meaning say it.
    const reason = error instanceof Error ? (/^([A-Z0-9_]+: [^,]+)/.exec(error.message)?.[1] ?? error.message) : String(error);
    throw new EnvironmentError(`cannot write ${given}: ${reason}`);
  }
}

/** `--concurrency`: a positive integer, `auto` or `off`, as ESLint's option of the same name. */
function parseConcurrency(value: string): number | 'auto' | 'off' {
  if (value === 'auto' || value === 'off') return value;
  const threads = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(threads) || threads < 1) throw new UsageError(`--concurrency expects a positive integer, 'auto' or 'off', got '${value}'`);
  return threads;
}

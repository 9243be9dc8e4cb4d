import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { RULE_IDS } from '../rule-ids.js';
import { CONFIG_FILE_NAMES } from '../config/names.js';
import { EnvironmentError, GIT_MISSING, isGitMissing, UsageError } from '../errors.js';
import { warnCacheRefused } from './cache-warning.js';
import { resolveCwd } from './cwd.js';
import { isReporterName, REPORTER_NAMES, report, shouldColor } from '../report/index.js';
import { closest } from '../util/closest.js';
import { terminalProgress, wantsProgress } from '../util/progress.js';
import { formatStats, roundMs } from '../util/timing.js';
import { PACKAGE_ROOT, VERSION } from '../version.js';
import { writeFileAtomic } from '../util/fs.js';

// Everything heavier than this module's own imports (the rules, the model,
// git, zod, the compiler) is imported by the command that needs it: `--version`,
// `--help` and a usage error load none of it.

const USAGE = `Usage:
  tripwire check [paths...] [options]   check the repository (exit 0 clean, 1 findings, 2 error)
  tripwire select --base REF [options]  list the paid test ids a diff selects (exit 0, 2 error)
  tripwire fix [--write] [options]      preview the mechanical fixes as a diff (exit 1 when there are
                                        some, 0 none); --write applies them
  tripwire init [--hook] [options]      infer and write tripwire.config.json; --hook: the pre-commit hook
  tripwire explain RULE                 print a rule's documentation
  tripwire print-config [options]       print the resolved configuration as JSON, every default included
  tripwire freeze add FILE[::ID] --reason R [--owner O]   pin the tests of FILE (or one test)
  tripwire freeze list | verify [--base REF]              show the pins | check them (exit 1 on findings)
  tripwire freeze refresh ID --reason R                   re-pin a test after an intended change
  tripwire freeze thaw ID --reason R                      open a test for its next change (the owner)
  tripwire lock GLOB... | --verify                        record | check the SHA-256 of fixture files
  tripwire COMMAND --help                                 one command's usage and options
  tripwire --version | --help
`;

const CHECK_OPTIONS = `Options for check:
  --cwd DIR              where to run from (default: the current directory); the root is the
                         nearest directory at or above it holding the configuration, no higher
                         than the git top level (the git top level when none does)
  --config FILE          configuration file (default: ${CONFIG_FILE_NAMES.join(', ')} or the
                         "tripwire" key of package.json, in the root); its directory is the root
  --format NAME          ${REPORTER_NAMES.join(' | ')} (default: stylish); markdown is for job
                         summaries and PR comments: findings by rule, the chain to a paid call as
                         a Mermaid graph, and which paid ids the touchfile and tier maps cover
  -o, --output-file FILE write the report to FILE instead of standard output
  --quiet                report errors only (warnings still count for --max-warnings)
  --color, --no-color    force or turn off colors (default: on a terminal, unless NO_COLOR is set)
  --base REF             also check what the diff since the merge base with REF removed,
                         re-pinned or added to the baseline (needs the history: fetch-depth 0 in CI)
  --staged               check the index (what the next commit holds), not the work tree,
                         and report only what the staged change can affect (hooks)
  --update-baseline      record every current finding as known (.tripwire/baseline.json)
  --no-baseline          report the findings the baseline knows too
  --rule ID              run only this rule (repeatable)
  --max-warnings N       exit 1 when there are more than N warnings
  --no-cache             neither read nor write the fact cache
  --cache-location DIR   where the fact cache lives (default: node_modules/.cache/tripwire)
  --stats                time per phase and per rule: a table on standard error, or
                         summary.stats with --format json (TIMING=1 prints the table too,
                         TIMING=all with every rule); a run over 2 s on a terminal shows
                         its progress on standard error, never in CI (CI set)
  paths...               report only findings in these files or directories
`;

const SELECT_OPTIONS = `Options for select:
  --base REF             diff from the merge base of REF and HEAD to the work tree,
                         untracked files included (required unless --staged)
  --staged               diff to the index instead: from HEAD, or from the merge base with --base
  --tier T               only the ids of tier T (one of maps.tiers.values)
  --format NAME          text | json | markdown (default: text); markdown: a table of the ids,
                         their tiers and the files that selected them, for a job summary
  --cwd DIR, --config FILE   as for check
`;

const FIX_OPTIONS = `Options for fix (a dry run unless --write; it writes only the files it fixes, atomically):
  --write                apply the fixes (refused for a file that changed since it was read)
  --base REF             also replace paths that the diff since the merge base with REF renamed
                         (git's rename detection); without it, a dead path gets no fix
  --rule ID              only the fixes of this rule (repeatable)
  --cwd DIR, --config FILE, --no-cache, --cache-location DIR   as for check
`;

const FREEZE_OPTIONS = `Options for freeze and lock (the only commands that write: atomically, printing what changed):
  --reason TEXT          why the test is frozen; shown with every finding about it
  --owner WHO            who may re-pin or unfreeze it (default: git user.email)
  --format NAME          freeze list: text | json; freeze verify: as for check
  --cwd DIR, --config FILE   as for check
`;

const INIT_OPTIONS = `Options for init (it reads the repository, never runs it, and prints what it inferred and why):
  --force                replace an existing configuration (or a pre-commit hook that is not tripwire's)
  --hook                 also install a pre-commit hook running \`tripwire check --staged\` where git
                         looks for hooks (core.hooksPath, linked worktrees); alone when a config exists
  --dry-run              print the configuration instead of writing it
  -y, --yes              do not ask before writing (the default when stdin is not a terminal)
  --cwd DIR, --no-cache  as for check
`;

const HELP = `tripwire ${VERSION}: static contracts for test harnesses that mix free and paid tests

${USAGE}
${CHECK_OPTIONS}
${SELECT_OPTIONS}
${FIX_OPTIONS}
${FREEZE_OPTIONS}
${INIT_OPTIONS}
Examples:
  tripwire check
  tripwire check --format sarif -o tripwire.sarif
  tripwire check --rule no-paid-calls-in-free-tests test/unit
  tripwire select --base origin/main --tier gate
  tripwire select --staged --format json
  tripwire fix && tripwire fix --write
  tripwire explain no-paid-calls-in-free-tests
  tripwire init --hook
  tripwire freeze add test/parse.test.ts --reason "pins the report format" --owner @dana
  tripwire lock 'test/fixtures/**' && tripwire check --base origin/main
`;

/** Each command's own \`--help\`: its usage lines, its options and examples. */
const COMMAND_HELP = {
  check: `Usage: tripwire check [paths...] [options]
Checks the repository's test harness (exit 0 clean, 1 findings, 2 usage, configuration or internal error).

${CHECK_OPTIONS}
Examples:
  tripwire check
  tripwire check --format sarif -o tripwire.sarif
  tripwire check --quiet --rule no-paid-calls-in-free-tests test/unit
  tripwire check --staged
`,
  select: `Usage: tripwire select --base REF [options]
Lists the paid test ids a diff selects (exit 0, 2 error).

${SELECT_OPTIONS}
Examples:
  tripwire select --base origin/main --tier gate
  tripwire select --staged --format json
`,
  fix: `Usage: tripwire fix [--write] [options]
Previews the mechanical fixes of the findings as a diff: a missing touchfile or tier entry, an
orphan key, a map file missing from the globals, a path git renamed (with --base). Exit 1 when
there is something to fix, 0 when there is nothing; with --write, 0 once written, 2 when refused.

${FIX_OPTIONS}
Examples:
  tripwire fix
  tripwire fix --write
  tripwire fix --base origin/main --rule no-dangling-references
`,
  init: `Usage: tripwire init [--hook] [options]
Infers and writes tripwire.config.json; --hook: the pre-commit hook.

${INIT_OPTIONS}
Examples:
  tripwire init --dry-run
  tripwire init --hook
`,
  explain: `Usage: tripwire explain RULE
Prints the documentation of a rule or of a core check (exit 0, 2 for an unknown id).

Rules and core checks: ${RULE_IDS.join(', ')}, and the core checks (parse-error, read-error, ...)

Examples:
  tripwire explain no-paid-calls-in-free-tests
  tripwire explain parse-error
`,
  'print-config': `Usage: tripwire print-config [--cwd DIR] [--config FILE]
Prints the configuration a check would use as JSON: every default filled in, each rule's
severity and options, and the paid signatures (SDK modules, CLIs, hosts, key variables)
with the built-in ones included (exit 0, 2 for an invalid configuration).

Options:
  --cwd DIR, --config FILE   as for check

Examples:
  tripwire print-config
  tripwire print-config | jq .config.paid.modules
`,
  freeze: `Usage:
  tripwire freeze add FILE[::ID] --reason R [--owner O]   pin the tests of FILE (or one test)
  tripwire freeze list | verify [--base REF]              show the pins | check them (exit 1 on findings)
  tripwire freeze refresh ID --reason R                   re-pin a test after an intended change
  tripwire freeze thaw ID --reason R                      open a test for its next change (the owner)

${FREEZE_OPTIONS}
Examples:
  tripwire freeze add test/parse.test.ts --reason "pins the report format" --owner @dana
  tripwire freeze verify --base origin/main
`,
  lock: `Usage: tripwire lock GLOB... | --verify      record | check the SHA-256 of fixture files

${FREEZE_OPTIONS}
Examples:
  tripwire lock 'test/fixtures/**' && tripwire check --base origin/main
`,
} as const;

export type { Io } from './io.js';
import type { Io } from './io.js';

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
  if (command === 'check') return checkCommand(rest, io);
  if (command === 'select') return (await import('./select.js')).selectCommand(rest, io, COMMAND_HELP.select);
  if (command === 'fix') return (await import('./fix.js')).fixCommand(rest, io, COMMAND_HELP.fix);
  if (command === 'init') return (await import('./init.js')).initCommand(rest, io, COMMAND_HELP.init);
  if (command === 'explain') return explainCommand(rest, io);
  if (command === 'print-config') return (await import('./print-config.js')).printConfigCommand(rest, io, COMMAND_HELP['print-config']);
  if (command === 'freeze') return (await import('./freeze.js')).freezeCommand(rest, io, COMMAND_HELP.freeze, (args) => checkCommand(args, io));
  if (command === 'lock') return (await import('./freeze.js')).lockCommand(rest, io, COMMAND_HELP.lock);
  throw new UsageError(`unknown command '${command}'`);
}

async function checkCommand(argv: string[], io: Io): Promise<number> {
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
      'max-warnings': { type: 'string' },
      cache: { type: 'boolean', default: true },
      'cache-location': { type: 'string' },
      base: { type: 'string' },
      staged: { type: 'boolean' },
      baseline: { type: 'boolean', default: true },
      'update-baseline': { type: 'boolean' },
      stats: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    io.stdout(COMMAND_HELP.check);
    return 0;
  }
  const format = values.format;
  if (!isReporterName(format)) throw new UsageError(`unknown format '${format}' (known: ${REPORTER_NAMES.join(', ')})`);
  let maxWarnings = Number.POSITIVE_INFINITY;
  if (values['max-warnings'] !== undefined) {
    maxWarnings = Number(values['max-warnings']);
    if (!Number.isInteger(maxWarnings) || maxWarnings < 0) throw new UsageError(`--max-warnings expects a non-negative integer, got '${values['max-warnings']}'`);
  }
  const started = performance.now();
  const cwd = resolveCwd(io.cwd, values.cwd);
  const options = {
    cwd,
    cache: values.cache,
    paths: positionals,
    ...(values.config !== undefined && { configFile: values.config }),
    ...(values.rule !== undefined && { rules: values.rule }),
    ...(values['cache-location'] !== undefined && { cacheLocation: resolve(io.cwd, values['cache-location']) }),
    ...(values.base !== undefined && { base: values.base }),
    ...(values.staged === true && { staged: true }),
    ...(values.baseline === false && { baseline: false }),
    ...(values['update-baseline'] === true && { updateBaseline: true }),
  };
  // Only the markdown report shows the maps' coverage: no other format pays for it.
  const coverage = format === 'markdown';
  const progress = wantsProgress(io.stderrIsTTY === true, io.env) ? terminalProgress({ write: io.stderr, ...(io.progressAfterMs !== undefined && { afterMs: io.progressAfterMs }) }) : undefined;
  const { repositoryRoot, verdictOf } = await import('../engine/verdict.js');
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

async function explainCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { help: { type: 'boolean', short: 'h' } } });
  if (values.help) {
    io.stdout(COMMAND_HELP.explain);
    return 0;
  }
  const id = positionals[0];
  if (id === undefined) throw new UsageError(`explain needs a rule id (known: ${RULE_IDS.join(', ')})`);
  const { rules } = await import('../../rules/index.js');
  const { CORE_RULES } = await import('../engine/index.js');
  if (id in CORE_RULES) {
    io.stdout(coreSection(readFileSync(join(PACKAGE_ROOT, 'rules', 'core-checks.md'), 'utf8'), id));
    return 0;
  }
  if (!rules.some((rule) => rule.id === id)) {
    const known = [...rules.map((r) => r.id), ...Object.keys(CORE_RULES)];
    const near = closest(id, known);
    throw new UsageError(`unknown rule '${id}'${near === undefined ? '' : ` (did you mean '${near}'?)`}; known: ${known.join(', ')}`);
  }
  io.stdout(readFileSync(join(PACKAGE_ROOT, 'rules', `${id}.md`), 'utf8'));
  return 0;
}

/** The `## id` section of the core checks' documentation, with its title line. */
function coreSection(doc: string, id: string): string {
  const start = doc.indexOf(`\n## ${id}\n`);
  if (start === -1) return doc;
  const end = doc.indexOf('\n## ', start + 1);
  return `# ${id} (a core check)\n${doc.slice(start + `\n## ${id}\n`.length, end === -1 ? undefined : end + 1)}`;
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

import { CONFIG_FILE_NAMES } from '../config/names.js';
import { REPORTER_NAMES } from '../report/index.js';
import { RULE_IDS } from '../rule-ids.js';
import { VERSION } from '../version.js';

// The help text, in one place: \`tripwire --help\`, each command's \`--help\`, and the README's option table
// (test/cli/help-readme.test.ts checks the table against it).

const USAGE = `Usage:
  tripwire check [paths...] [options]   check the repository (exit 0 clean, 1 findings, 2 error)
  tripwire select --base REF [options]  list the paid test ids a diff selects (exit 0, 2 error)
  tripwire fix [--write] [options]      preview the mechanical fixes as a diff (exit 1 when there are
                                        some, 0 none); --write applies them
  tripwire init [--hook] [options]      infer and write tripwire.config.json; --hook: the pre-commit hook
  tripwire explain RULE                 print a rule's documentation
  tripwire print-config [options]       print the resolved configuration as JSON, every default included
  tripwire print-inputs [options]       print the files a check reads (a task runner's cache inputs)
  tripwire freeze add FILE[::ID] --reason R [--owner O]   pin the tests of FILE (or one test)
  tripwire freeze add RUNNER --assert NAMES --reason R    pin a shell/Python runner's assertion sites and rosters
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
  --workspace NAME       at a workspace root: check only this package (package.json name,
                         repeatable), against its own configuration; without it, every
                         package with its own configuration is, and the root's checks the rest
  --max-warnings N       exit 1 when there are more than N warnings
  --no-cache             neither read nor write the fact cache
  --cache-location DIR   where the fact cache lives (default: node_modules/.cache/tripwire)
  --concurrency N|auto|off
                         threads that extract facts the cache lacks while the rules run
                         (off: the main thread only; auto: up to 4; unset: 2, and both only
                         for 2000 files or more; a warm run parses its few edited scripts
                         on one worker)
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
  --assert NAMES         freeze add of a shell or Python runner: the calls that assert, comma-separated,
                         * for any word characters (check,expect_invalid,assert_*)
  --roster FILE          the file that lists the runner (repeatable; default: every CI workflow, make,
                         package.json or shell runner that names it)
  --format NAME          freeze list: text | json; freeze verify: as for check
  --cwd DIR, --config FILE   as for check
`;

const PRINT_INPUTS_OPTIONS = `Options for print-inputs (it reads the configuration, the listing and the imports; no rule runs):
  --format NAME          text | json | turbo | nx (default: text); text: one file per line, relative
                         to the current directory, sorted; json: also the paths looked for and
                         absent, and the globs whose matches count (the root's listing, the
                         workspace members' manifests); turbo: the inputs array of a Turborepo task
                         that runs the check in the current directory (the check root), with
                         $TURBO_DEFAULT$ for the package's own files and $TURBO_ROOT$/ paths;
                         nx: the same for an Nx target ({projectRoot}/**/*, {workspaceRoot}/)
  --check                with --format turbo: print nothing, and exit 1 naming the inputs that
                         the task's inputs in ./turbo.json lack, neither named nor matched by one
                         of its globs (run it in the task, before check)
  --task NAME            the task --check reads in turbo.json (default: tripwire)
  --cwd DIR, --config FILE, --no-cache, --cache-location DIR   as for check
`;

const INIT_OPTIONS = `Options for init (it reads the repository, never runs it, and prints what it inferred and why):
  --force                replace an existing configuration (or a pre-commit hook that is not tripwire's)
  --hook                 also install a pre-commit hook running \`tripwire check --staged\` where git
                         looks for hooks (core.hooksPath, linked worktrees); alone when a config exists
  --dry-run              print the configuration instead of writing it
  -y, --yes              do not ask before writing (the default when stdin is not a terminal)
  --cwd DIR, --no-cache  as for check
`;

export const HELP = `tripwire ${VERSION}: static contracts for test harnesses that mix free and paid tests

${USAGE}
${CHECK_OPTIONS}
${SELECT_OPTIONS}
${FIX_OPTIONS}
${FREEZE_OPTIONS}
${PRINT_INPUTS_OPTIONS}
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
  tripwire print-inputs --cwd packages/evals --format turbo
`;

/** Each command's own \`--help\`: its usage lines, its options and examples. */
export const COMMAND_HELP = {
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
  'print-inputs': `Usage: tripwire print-inputs [options]
Prints the files a check of this root reads, so that a task runner's cache key covers them: the
files the root lists (any may be read, and their names decide what the globs match), the
configuration, the manifests read by name, the .gitignore files above the root, the workspace
declarations, and the files of other workspace packages that its files import, transitively,
with the manifests and tsconfigs their resolution reads (exit 0, 2 for an invalid configuration).

${PRINT_INPUTS_OPTIONS}
Examples:
  tripwire print-inputs
  tripwire print-inputs --format json | jq .absent
  (cd packages/evals && tripwire print-inputs --format turbo)
  tripwire print-inputs --format turbo --check && tripwire check
`,
  freeze: `Usage:
  tripwire freeze add FILE[::ID] --reason R [--owner O]   pin the tests of FILE (or one test)
  tripwire freeze add RUNNER --assert NAMES --reason R    pin a shell/Python runner's assertion sites and rosters
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

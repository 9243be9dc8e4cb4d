import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/version.js';
import { fixtureRepo } from '../support/fixture-repo.js';
import { fixtureRepo as overlaidRepo } from '../support/overlay.js';
import { git, makeGitRepo, runCli, writeFiles } from '../support/repo.js';

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

function repo(dir: string): string {
  temps.push(dir);
  return dir;
}

interface PrintedInputs {
  root: string;
  files: string[];
  absent: string[];
  globs: string[];
}

function printInputs(dir: string, ...args: string[]): PrintedInputs {
  const run = runCli(['print-inputs', '--format', 'json', ...args], dir);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout);
}

/**
 * The files a real `tripwire check` opens or reads in `dir` (through node:fs, whoever asks:
 * the configuration loader, the model, the baseline), relative to `dir`: test/support/read-log.mjs
 * is preloaded into the spawned CLI and records them.
 */
function pathsReadByCheck(dir: string, cwd: string): string[] {
  const logDir = mkdtempSync(join(tmpdir(), 'tripwire-read-log-'));
  temps.push(logDir);
  const log = join(logDir, 'reads.txt');
  const run = runCli(['check', '--no-cache', '--format', 'json', '--cwd', cwd], dir, {
    NODE_OPTIONS: `--import ${pathToFileURL(join(PACKAGE_ROOT, 'test/support/read-log.mjs')).href}`,
    TRIPWIRE_TEST_READ_LOG: log,
  });
  expect(run.stderr).toBe('');
  expect([0, 1]).toContain(run.code);
  const inRepo = new Set<string>();
  for (const line of readFileSync(log, 'utf8').split('\n').filter(Boolean)) {
    const rel = relative(dir, line.startsWith('file:') ? fileURLToPath(line) : resolve(dir, line));
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) continue;
    inRepo.add(rel.split('\\').join('/'));
  }
  return [...inRepo].sort();
}

/** Every path the check read is a file print-inputs prints, or a path it says it looked for in vain. */
function expectInputsCoverReads(dir: string, cwd: string): string[] {
  const reads = pathsReadByCheck(dir, cwd);
  const inputs = printInputs(dir, '--cwd', cwd);
  for (const read of reads) {
    if (existsSync(join(dir, read))) expect(inputs.files, `${read} was read by the check`).toContain(read);
    else expect(inputs.absent, `${read} was looked for by the check`).toContain(read);
  }
  return reads;
}

describe('tripwire print-inputs: a superset of what check reads', () => {
  it('on the npm workspaces fixture, checked from its root', () => {
    const dir = repo(fixtureRepo('rules/no-paid-calls-in-free-tests/workspaces/npm'));
    const reads = expectInputsCoverReads(dir, '.');
    // The observer sees the reads: the test files, the sources of a sibling package, the configuration.
    expect(reads).toContain('packages/app/test/grade.test.ts');
    expect(reads).toContain('packages/grader/src/rubric.ts');
    expect(reads).toContain('tripwire.config.json');
  });

  it('on the npm workspaces fixture with its bad overlay (unresolvable members, a paid call in a sibling)', () => {
    const dir = repo(overlaidRepo('rules/no-paid-calls-in-free-tests/workspaces/npm', 'rules/no-paid-calls-in-free-tests/workspaces/npm-bad'));
    expect(expectInputsCoverReads(dir, '.')).toContain('packages/test-utils/src/index.ts');
  });

  it('on the pnpm workspaces fixture, and with its bad overlay', () => {
    const good = repo(fixtureRepo('rules/no-paid-calls-in-free-tests/workspaces/pnpm'));
    expect(expectInputsCoverReads(good, '.')).toContain('libs/test-utils/src/format.ts');
    const bad = repo(overlaidRepo('rules/no-paid-calls-in-free-tests/workspaces/pnpm', 'rules/no-paid-calls-in-free-tests/workspaces/pnpm-bad'));
    expect(expectInputsCoverReads(bad, '.')).toContain('libs/test-utils/src/index.ts');
  });

  it('on the task-runner monorepo, each package checked against its own configuration, and the top', () => {
    const dir = repo(fixtureRepo('task-runners/monorepo'));
    expect(expectInputsCoverReads(dir, 'packages/app')).toContain('packages/app/test/summary.test.ts');
    expect(expectInputsCoverReads(dir, 'packages/helpers')).toContain('packages/helpers/src/format.ts');
    expect(expectInputsCoverReads(dir, 'packages/dashboard')).toContain('packages/dashboard/src/render.ts');
    expect(expectInputsCoverReads(dir, '.')).toContain('packages/dashboard/test/render.test.ts');
  });

  it('with manifests the check reads by name although git ignores them, a baseline and a locked fixture', () => {
    const dir = repo(
      makeGitRepo({
        '.gitignore': '.tripwire/\nfixtures/\n',
        'tripwire.config.json': '{ "tests": { "include": ["test/**/*.test.ts"] } }\n',
        'test/answer.test.ts': "import { readFileSync } from 'node:fs';\ntest('answer', () => readFileSync('fixtures/answer.json'));\n",
        '.tripwire/locks.json': '{ "version": 1, "files": { "fixtures/answer.json": "sha256:0000000000000000000000000000000000000000000000000000000000000000" } }\n',
        '.tripwire/baseline.json': '{ "version": 1, "findings": [] }\n',
        'fixtures/answer.json': '{ "answer": 42 }\n',
      }),
    );
    const reads = expectInputsCoverReads(dir, '.');
    expect(reads).toContain('.tripwire/locks.json');
    expect(reads).toContain('fixtures/answer.json');
  });
});

describe('tripwire print-inputs', () => {
  it("prints a package's own files and, transitively, the files of the sibling packages it imports, one per line", () => {
    const dir = repo(fixtureRepo('task-runners/monorepo'));
    const run = runCli(['print-inputs', '--cwd', 'packages/app'], dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    // Not palette.ts (no import reaches it), not the helpers' own tests, nothing of dashboard but its manifest (a workspace member's name).
    expect(run.stdout).toBe(
      [
        '.gitignore',
        'package.json',
        'packages/app/package.json',
        'packages/app/src/summary.ts',
        'packages/app/test/summary.test.ts',
        'packages/app/tripwire.config.json',
        'packages/dashboard/package.json',
        'packages/helpers/package.json',
        'packages/helpers/src/format.ts',
        'packages/helpers/src/index.ts',
        '',
      ].join('\n'),
    );
  });

  it('names the paths relative to the directory it runs in', () => {
    const dir = repo(fixtureRepo('task-runners/monorepo'));
    const run = runCli(['print-inputs'], join(dir, 'packages/app'));
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')).toContain('../helpers/src/format.ts');
    expect(run.stdout.split('\n')).toContain('test/summary.test.ts');
  });

  it('--format json also gives the root, the globs whose matches count, and what was looked for in vain', () => {
    const dir = repo(fixtureRepo('task-runners/monorepo'));
    const inputs = printInputs(dir, '--cwd', 'packages/app/test');
    expect(inputs.root).toBe('packages/app');
    expect(inputs.globs).toEqual(['packages/app/**', 'packages/*/package.json']);
    // A configuration in a directory between the working directory and the root would move the root.
    expect(inputs.absent).toContain('packages/app/test/tripwire.config.json');
    expect(inputs.absent).toContain('packages/app/tripwire.config.jsonc');
    // A tsconfig on the way up would add `paths`; a pnpm-workspace.yaml above the root would declare the workspace.
    expect(inputs.absent).toContain('tsconfig.json');
    expect(inputs.absent).toContain('pnpm-workspace.yaml');
    expect(inputs.absent).toContain('packages/.gitignore');
    expect(inputs.files).not.toContain('packages/helpers/src/palette.ts');
  });

  it('with --config, the root is the file\'s directory and no configuration is looked for on the way up', () => {
    const dir = repo(fixtureRepo('task-runners/monorepo'));
    const inputs = printInputs(dir, '--cwd', 'packages/app/test', '--config', '../../helpers/tripwire.config.json');
    expect(inputs.root).toBe('packages/helpers');
    expect(inputs.files).toContain('packages/helpers/tripwire.config.json');
    expect(inputs.absent.filter((path) => path.startsWith('packages/app/'))).toEqual([]);
  });

  it('gives the workspace globs that exclude a directory as negated manifest globs', () => {
    const dir = repo(fixtureRepo('rules/no-paid-calls-in-free-tests/workspaces/npm'));
    writeFiles(dir, { 'packages/app/tripwire.config.json': '{ "tests": { "include": ["test/**/*.test.ts"], "paid": ["test/evals/**"] } }\n' });
    const inputs = printInputs(dir, '--cwd', 'packages/app');
    expect(inputs.globs).toEqual(['packages/app/**', 'packages/*/package.json', '!packages/legacy-client/package.json']);
    expect(inputs.files).toContain('packages/grader/src/rubric.ts');
  });

  it('at a workspace root, adds the inputs of each member that holds its own configuration', () => {
    // A check at the workspace root also checks those members against their own configurations
    // (issue 19 item 2): each one's by-name manifests and listing count.
    const dir = repo(fixtureRepo('task-runners/monorepo'));
    const inputs = printInputs(dir);
    expect(inputs.root).toBe('.');
    expect(inputs.globs).toEqual(['**', 'packages/*/package.json', 'packages/app/**', 'packages/dashboard/**', 'packages/helpers/**']);
    expect(inputs.absent).toContain('packages/app/.tripwire/baseline.json');
    expect(inputs.absent).toContain('packages/helpers/tripwire.config.jsonc');
    // Not with --config: one configuration, one root.
    const configured = printInputs(dir, '--config', 'packages/app/tripwire.config.json');
    expect(configured.globs).toEqual(['packages/app/**', 'packages/*/package.json']);
  });

  it('finds the workspace a package belongs to through pnpm-workspace.yaml too', () => {
    const dir = repo(fixtureRepo('rules/no-paid-calls-in-free-tests/workspaces/pnpm'));
    writeFiles(dir, { 'services/reviewer/tripwire.config.json': '{ "tests": { "include": ["test/**/*.test.ts"], "paid": ["test/live/**"] } }\n' });
    const inputs = printInputs(dir, '--cwd', 'services/reviewer');
    expect(inputs.root).toBe('services/reviewer');
    expect(inputs.files).toContain('pnpm-workspace.yaml');
    expect(inputs.files).toContain('libs/test-utils/src/format.ts');
    expect(inputs.globs).toEqual(['services/reviewer/**', 'libs/*/package.json', 'services/*/package.json']);
  });

  it('follows relative imports out of the root when no workspace is declared', () => {
    const dir = repo(
      makeGitRepo({
        'evals/tripwire.config.json': '{ "tests": { "include": ["test/**/*.test.ts"] } }\n',
        'evals/test/grade.test.ts': "import { grade } from '../../shared/grade.js';\ntest('grade', () => grade());\n",
        'shared/grade.ts': "import { rubric } from './rubric.js';\nexport const grade = () => rubric;\n",
        'shared/rubric.ts': 'export const rubric = 1;\n',
        'shared/unused.ts': 'export const unused = 1;\n',
      }),
    );
    const inputs = printInputs(dir, '--cwd', 'evals');
    expect(inputs.files).toEqual(['evals/test/grade.test.ts', 'evals/tripwire.config.json', 'shared/grade.ts', 'shared/rubric.ts']);
    expect(inputs.globs).toEqual(['evals/**']);
  });

  it('--format turbo prints the inputs of a Turborepo task that checks the package', () => {
    const dir = repo(fixtureRepo('task-runners/monorepo'));
    const run = runCli(['print-inputs', '--format', 'turbo'], join(dir, 'packages/app'));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const inputs: string[] = JSON.parse(run.stdout);
    expect(inputs[0]).toBe('$TURBO_DEFAULT$');
    expect(inputs).toContain('$TURBO_ROOT$/packages/helpers/src/format.ts');
    expect(inputs).toContain('$TURBO_ROOT$/packages/helpers/src/index.ts');
    expect(inputs).toContain('$TURBO_ROOT$/packages/*/package.json');
    expect(inputs).toContain('$TURBO_ROOT$/package.json');
    // Inside the package, what git does not list: $TURBO_DEFAULT$ would miss it if it were ignored.
    expect(inputs).toContain('.tripwire/frozen.json');
    expect(inputs.filter((input) => input.includes('palette') || input.includes('dashboard/src'))).toEqual([]);
  });

  it('--format turbo takes $TURBO_ROOT$ from the topmost turbo.json, not from a package configuration', () => {
    const dir = repo(fixtureRepo('task-runners/monorepo'));
    writeFiles(dir, { 'packages/app/turbo.json': '{ "extends": ["//"], "tasks": {} }\n' });
    const inputs: string[] = JSON.parse(runCli(['print-inputs', '--format', 'turbo'], join(dir, 'packages/app')).stdout);
    expect(inputs).toContain('$TURBO_ROOT$/packages/helpers/src/format.ts');
    git(dir, 'rm', '-q', 'turbo.json');
    rmSync(join(dir, 'packages/app/turbo.json'));
    // Without a turbo.json, the workspace root: the same paths.
    const withoutTurbo: string[] = JSON.parse(runCli(['print-inputs', '--format', 'turbo'], join(dir, 'packages/app')).stdout);
    expect(withoutTurbo).toEqual(inputs);
  });

  it('--format turbo --check exits 1 naming the inputs turbo.json lacks, 0 when it has them all', () => {
    const dir = repo(fixtureRepo('task-runners/monorepo'));
    const app = join(dir, 'packages/app');
    const printed = runCli(['print-inputs', '--format', 'turbo'], app);
    writeFiles(dir, { 'packages/app/turbo.json': `{ "extends": ["//"], "tasks": { "tripwire": { "inputs": ${printed.stdout} } } }\n` });
    expect(runCli(['print-inputs', '--format', 'turbo', '--check'], app)).toEqual({ code: 0, stdout: '', stderr: '' });
    writeFiles(dir, { 'packages/helpers/src/index.ts': "export { formatScore } from './format.js';\nexport { scale } from './scale.js';\n", 'packages/helpers/src/scale.ts': 'export const scale = 100;\n' });
    const stale = runCli(['print-inputs', '--format', 'turbo', '--check'], app);
    expect(stale.code).toBe(1);
    expect(stale.stdout).toBe('');
    expect(stale.stderr).toContain("the inputs turbo.json declares for 'tripwire' miss 2 that the check reads");
    expect(stale.stderr).toContain('  $TURBO_ROOT$/packages/helpers/src/scale.ts\n');
    // Another task's inputs, by name; a task turbo.json does not declare is a usage error.
    writeFiles(dir, { 'packages/app/turbo.json': `{ "extends": ["//"], "tasks": { "harness": { "inputs": ${runCli(['print-inputs', '--format', 'turbo'], app).stdout} } } }\n` });
    expect(runCli(['print-inputs', '--format', 'turbo', '--check', '--task', 'harness'], app).code).toBe(0);
    const undeclared = runCli(['print-inputs', '--format', 'turbo', '--check'], app);
    expect(undeclared.code).toBe(2);
    expect(undeclared.stderr).toContain("no turbo.json here declares inputs for the task 'tripwire'");
    expect(runCli(['print-inputs', '--check'], app).code).toBe(2);
  });

  it('--format turbo --check takes a glob of the same anchoring as covering what it matches, and a ! glob as excluding it', () => {
    const dir = repo(fixtureRepo('task-runners/monorepo'));
    const app = join(dir, 'packages/app');
    const printed: string[] = JSON.parse(runCli(['print-inputs', '--format', 'turbo'], app).stdout);
    const broad = [...printed.filter((input) => !input.startsWith('$TURBO_ROOT$/packages/helpers/src/')), '$TURBO_ROOT$/packages/helpers/src/**'];
    writeFiles(dir, { 'packages/app/turbo.json': JSON.stringify({ tasks: { tripwire: { inputs: broad } } }) });
    expect(runCli(['print-inputs', '--format', 'turbo', '--check'], app).code).toBe(0);
    // A relative glob does not cover a path from $TURBO_ROOT$, even one that would match it textually.
    const unanchored = [...printed.filter((input) => !input.startsWith('$TURBO_ROOT$/packages/helpers/src/')), 'packages/helpers/src/**', '**/format.ts'];
    writeFiles(dir, { 'packages/app/turbo.json': JSON.stringify({ tasks: { tripwire: { inputs: unanchored } } }) });
    expect(runCli(['print-inputs', '--format', 'turbo', '--check'], app).code).toBe(1);
    writeFiles(dir, { 'packages/app/turbo.json': JSON.stringify({ tasks: { tripwire: { inputs: [...broad, '!$TURBO_ROOT$/packages/helpers/src/format.ts'] } } }) });
    const excluded = runCli(['print-inputs', '--format', 'turbo', '--check'], app);
    expect(excluded.code).toBe(1);
    expect(excluded.stderr).toContain('miss 1 that the check reads');
    expect(excluded.stderr).toContain('  $TURBO_ROOT$/packages/helpers/src/format.ts\n');
  });

  it('--format turbo reads the inputs --check compares with from turbo.jsonc too', () => {
    const dir = repo(fixtureRepo('task-runners/monorepo'));
    const app = join(dir, 'packages/app');
    const printed = runCli(['print-inputs', '--format', 'turbo'], app).stdout;
    writeFiles(dir, { 'packages/app/turbo.jsonc': `{\n  // the harness check\n  "extends": ["//"],\n  "tasks": { "tripwire": { "inputs": ${printed} } }\n}\n` });
    expect(runCli(['print-inputs', '--format', 'turbo', '--check'], app).code).toBe(0);
  });

  it('--format turbo refuses an input outside the Turborepo root', () => {
    const dir = repo(fixtureRepo('task-runners/monorepo'));
    git(dir, 'rm', '-q', 'turbo.json');
    // The only turbo.json is the package's own: $TURBO_ROOT$ would be the package, and the sibling's files lie outside it.
    writeFiles(dir, { 'packages/app/turbo.json': '{ "tasks": {} }\n' });
    const run = runCli(['print-inputs', '--format', 'turbo'], join(dir, 'packages/app'));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`is outside the Turborepo root ${join(dir, 'packages/app')}`);
  });

  it('--format turbo refuses a directory that is not the check root', () => {
    const dir = repo(fixtureRepo('task-runners/monorepo'));
    const run = runCli(['print-inputs', '--format', 'turbo'], join(dir, 'packages/app/test'));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('is not one (its check root is');
  });

  it('exits 2 on an unknown format and on an invalid configuration', () => {
    const dir = repo(fixtureRepo('task-runners/monorepo'));
    const unknown = runCli(['print-inputs', '--format', 'bazel'], dir);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown format 'bazel' (known: text, json, turbo, nx)");
    writeFiles(dir, { 'packages/app/tripwire.config.json': '{ "tests": { "inclued": [] } }\n' });
    const run = runCli(['print-inputs', '--cwd', 'packages/app'], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('invalid configuration');
  });

  it('--help prints its own usage', () => {
    const run = runCli(['print-inputs', '--help'], PACKAGE_ROOT);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: tripwire print-inputs');
    expect(run.stdout).toContain('$TURBO_DEFAULT$');
  });
});

import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/version.js';
import { fixtureRepo } from '../support/fixture-repo.js';
import { git, writeFiles } from '../support/repo.js';

delete process.env.GIT_DIR;
delete process.env.GIT_INDEX_FILE;
delete process.env.GIT_WORK_TREE;

const ACTION_TEXT = readFileSync(join(PACKAGE_ROOT, 'action.yml'), 'utf8');
const WORKFLOW_TEXT = readFileSync(join(PACKAGE_ROOT, 'examples/github/tripwire.yml'), 'utf8');

type Yaml = Record<string, unknown>;

function isRecord(value: unknown): value is Yaml {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function record(value: unknown, what: string): Yaml {
  if (!isRecord(value)) throw new Error(`${what} is not a mapping`);
  return value;
}

function list(value: unknown, what: string): Yaml[] {
  if (!Array.isArray(value) || !value.every(isRecord)) throw new Error(`${what} is not a list of mappings`);
  return value.filter(isRecord);
}

const action = record(parse(ACTION_TEXT), 'action.yml');
const workflow = record(parse(WORKFLOW_TEXT), 'the example workflow');
const actionSteps = list(record(action.runs, 'runs').steps, 'runs.steps');
const stepById = (id: string): Yaml | undefined => actionSteps.find((step) => step.id === id);
const checkStep = stepById('check');
const keyStep = stepById('cache-key');

describe('action.yml, the composite action', () => {
  it('declares a name, a description, and the inputs config, base and format', () => {
    expect(typeof action.name).toBe('string');
    expect(typeof action.description).toBe('string');
    const inputs = record(action.inputs, 'inputs');
    for (const name of ['config', 'base', 'format', 'sarif-file', 'step-summary', 'working-directory', 'cache']) {
      const input = record(inputs[name], `inputs.${name}`);
      expect(typeof input.description, name).toBe('string');
      expect(input.required, name).toBe(false);
    }
    expect(record(inputs.format, 'format').default).toBe('github');
    expect(record(inputs['step-summary'], 'step-summary').default).toBe('true');
    expect(record(inputs.cache, 'cache').default).toBe('true');
    expect(Object.keys(record(action.outputs, 'outputs')).sort()).toEqual(['exit-code', 'sarif-file']);
  });

  it('is composite, every run step names its shell, and inputs reach scripts as environment variables only', () => {
    expect(record(action.runs, 'runs').using).toBe('composite');
    for (const step of actionSteps) {
      if (step.run === undefined) continue;
      expect(step.shell).toBe('bash');
      // An expression spliced into a script is a script injection; env is not.
      expect(String(step.run)).not.toContain('${{');
    }
    expect(checkStep?.env).toEqual({
      TRIPWIRE_CONFIG: '${{ inputs.config }}',
      TRIPWIRE_BASE: '${{ inputs.base }}',
      TRIPWIRE_FORMAT: '${{ inputs.format }}',
      TRIPWIRE_SARIF: '${{ inputs.sarif-file }}',
      TRIPWIRE_STEP_SUMMARY: '${{ inputs.step-summary }}',
      TRIPWIRE_PUSH_BEFORE: '${{ github.event.before }}',
      TRIPWIRE_CACHE_DIR: '${{ steps.cache-key.outputs.dir }}',
    });
    expect(keyStep?.env).toEqual({ TRIPWIRE_CACHE: '${{ inputs.cache }}' });
  });

  it('restores the caches before the check and saves them after it, whatever its outcome, keyed by version and lock files', () => {
    const ids = actionSteps.map((step) => step.id ?? step.uses);
    expect(ids).toEqual(['cache-key', 'restore', 'check', 'actions/cache/save@v4']);
    const restore = record(stepById('restore'), 'the restore step');
    const save = record(actionSteps[3], 'the save step');
    expect(restore.uses).toBe('actions/cache/restore@v4');
    expect(restore.if).toBe("${{ steps.cache-key.outputs.dir != '' }}");
    expect(save.if).toBe("${{ always() && steps.cache-key.outputs.dir != '' }}");
    const restoreWith = record(restore.with, 'restore.with');
    const saveWith = record(save.with, 'save.with');
    expect(restoreWith.path).toBe('${{ steps.cache-key.outputs.dir }}');
    expect(saveWith.path).toBe(restoreWith.path);
    expect(saveWith.key).toBe('${{ steps.restore.outputs.cache-primary-key }}');
    const key = String(restoreWith.key);
    expect(key).toContain('${{ steps.cache-key.outputs.version }}');
    for (const lock of ['package-lock.json', 'pnpm-lock.yaml', 'yarn.lock']) expect(key).toContain(`'**/${lock}'`);
    // Keys are immutable: each run saves under its own, and restores the newest of the same version.
    expect(key).toMatch(/-\$\{\{ github\.run_id \}\}-\$\{\{ github\.run_attempt \}\}$/);
    expect(String(restoreWith['restore-keys']).trim().split('\n').map((line) => line.trim())).toEqual([
      key.replace(/\$\{\{ github\.run_id \}\}-\$\{\{ github\.run_attempt \}\}$/, ''),
      'tripwire-${{ runner.os }}-${{ steps.cache-key.outputs.version }}-',
    ]);
  });

  it('runs check with --base, prints the chosen format, and writes SARIF for code scanning', () => {
    const script = String(checkStep?.run);
    expect(script).toContain('args+=(--base "$base")');
    expect(script).toContain('--format sarif --output-file "$TRIPWIRE_SARIF"');
    expect(script).toContain('--format "$TRIPWIRE_FORMAT"');
    expect(script).toContain('--format markdown >> "$GITHUB_STEP_SUMMARY"');
  });

  it('references no secret and no pull_request_target', () => {
    expect(ACTION_TEXT).not.toMatch(/secrets\./);
    expect(ACTION_TEXT).not.toContain('pull_request_target');
  });
});

describe('examples/github/tripwire.yml, the lint-and-meta workflow', () => {
  const jobs = record(workflow.jobs, 'jobs');
  const check = record(jobs.check, 'jobs.check');
  const checkSteps = list(check.steps, 'jobs.check.steps');
  const scanning = record(jobs['code-scanning'], 'jobs.code-scanning');

  it('runs on pull_request, never pull_request_target, and references no secret', () => {
    expect(Object.keys(record(workflow.on, 'on')).sort()).toEqual(['pull_request', 'push']);
    expect(WORKFLOW_TEXT).not.toContain('pull_request_target');
    expect(WORKFLOW_TEXT).not.toMatch(/secrets\./);
  });

  it('reads contents only, except the one job that uploads SARIF, which may also write security events', () => {
    expect(workflow.permissions).toEqual({ contents: 'read' });
    expect(check.permissions).toBeUndefined();
    expect(scanning.permissions).toEqual({ contents: 'read', 'security-events': 'write' });
    const scanningSteps = list(scanning.steps, 'jobs.code-scanning.steps');
    expect(scanningSteps.some((step) => String(step.uses).startsWith('github/codeql-action/upload-sarif@'))).toBe(true);
    // The job that can write runs nothing from the pull request: no install, no script.
    expect(scanningSteps.filter((step) => step.run !== undefined)).toEqual([]);
    expect(scanning.needs).toBe('check');
  });

  it('checks out the whole history, because --base needs the merge base', () => {
    const checkout = checkSteps.find((step) => String(step.uses).startsWith('actions/checkout@'));
    expect(record(checkout?.with, 'checkout.with')).toMatchObject({ 'fetch-depth': 0, 'persist-credentials': false });
    expect(WORKFLOW_TEXT).toMatch(/# --base .*\n.*shallow clone/);
  });

  it("installs and runs nothing from the pull request: the action brings its own tripwire", () => {
    expect(checkSteps.filter((step) => step.run !== undefined)).toEqual([]);
    expect(WORKFLOW_TEXT).not.toMatch(/npm (?:ci|install)|npx/);
  });

  it('runs this action with the github format and keeps the SARIF report', () => {
    const tripwire = checkSteps.find((step) => String(step.uses).startsWith('tripwire-lint/tripwire@'));
    expect(record(tripwire?.with, 'tripwire.with')).toMatchObject({ format: 'github', 'sarif-file': 'tripwire.sarif' });
    for (const step of [...checkSteps, ...list(scanning.steps, 'steps')]) if (step.run !== undefined) expect(String(step.run)).not.toContain('${{');
  });

  it('is the workflow the README shows', () => {
    expect(readFileSync(join(PACKAGE_ROOT, 'README.md'), 'utf8')).toContain(WORKFLOW_TEXT);
  });
});

describe('the action\'s script, run as the runner runs it', () => {
  const temps: string[] = [];
  afterAll(() => {
    for (const dir of temps) rmSync(dir, { recursive: true, force: true });
  });

  /** The hooks fixture on main, cloned (so that origin/main exists, as after actions/checkout), with `changes` committed on a branch. */
  function pullRequest(changes: Record<string, string>, cloneArgs: string[] = []): string {
    const upstream = fixtureRepo('hooks/harness');
    temps.push(upstream);
    const parent = mkdtempSync(join(tmpdir(), 'tripwire-action-'));
    temps.push(parent);
    const clone = join(parent, 'checkout');
    git(parent, 'clone', '-q', ...cloneArgs, `file://${upstream}`, clone);
    git(clone, 'checkout', '-q', '-b', 'feature');
    writeFiles(clone, changes);
    git(clone, 'add', '-A');
    git(clone, 'commit', '-q', '-m', 'change');
    return clone;
  }

  /** The script as the runner runs it; `env` stands in for the runner's own variables (the action's path, its temp dir). */
  function runAction(dir: string, inputs: { base?: string } = {}, env: Record<string, string> = {}): { code: number | null; stdout: string; stderr: string; outputs: Map<string, string>; summary: string } {
    const outputFile = join(dir, '..', 'github-output');
    writeFileSync(outputFile, '');
    // What an earlier step of the job wrote: the action appends to it, never replaces it.
    const summaryFile = join(dir, '..', 'step-summary');
    writeFileSync(summaryFile, '# earlier step\n');
    const result = spawnSync('bash', ['-c', String(checkStep?.run)], {
      cwd: dir,
      encoding: 'utf8',
      env: {
        ...process.env,
        NO_COLOR: '1',
        GITHUB_OUTPUT: outputFile,
        GITHUB_STEP_SUMMARY: summaryFile,
        GITHUB_ACTION_PATH: PACKAGE_ROOT,
        RUNNER_TEMP: join(dir, '..'),
        GITHUB_BASE_REF: 'main',
        TRIPWIRE_CONFIG: '',
        TRIPWIRE_BASE: inputs.base ?? '',
        TRIPWIRE_FORMAT: 'github',
        TRIPWIRE_SARIF: 'tripwire.sarif',
        TRIPWIRE_STEP_SUMMARY: 'true',
        TRIPWIRE_PUSH_BEFORE: '',
        ...env,
      },
    });
    const outputs = new Map<string, string>();
    for (const line of readFileSync(outputFile, 'utf8').split('\n').filter(Boolean)) outputs.set(line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1));
    return { code: result.status, stdout: result.stdout, stderr: result.stderr, outputs, summary: readFileSync(summaryFile, 'utf8') };
  }

  it('on a pull request that breaks a contract: annotations, a SARIF report, exit 1', () => {
    const dir = pullRequest({ 'test/unit/summary.test.ts': `import OpenAI from 'openai';\nimport { test } from 'vitest';\n\ntest('summarizes', () => new OpenAI());\n` });
    const run = runAction(dir);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('tripwire: comparing with the merge base of origin/main and HEAD');
    expect(run.stdout).toMatch(/^::error file=test\/unit\/summary\.test\.ts,line=1,/m);
    expect(run.code).toBe(1);
    expect(run.outputs.get('exit-code')).toBe('1');
    expect(run.outputs.get('sarif-file')).toBe(join(dir, 'tripwire.sarif'));
    const sarif: { version: string; runs: { results: { ruleId: string }[] }[] } = JSON.parse(readFileSync(join(dir, 'tripwire.sarif'), 'utf8'));
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.runs[0]?.results.map((result) => result.ruleId)).toEqual(['no-paid-calls-in-free-tests']);
  });

  it('appends the markdown report to the job summary: the finding, the chain to the SDK, after what was there', () => {
    const dir = pullRequest({ 'test/unit/summary.test.ts': `import OpenAI from 'openai';\nimport { test } from 'vitest';\n\ntest('summarizes', () => new OpenAI());\n` });
    const run = runAction(dir);
    expect(run.code).toBe(1);
    expect(run.summary).toMatch(/^# earlier step\n## ❌ tripwire found errors: 1 error, 0 warnings\n/);
    expect(run.summary).toContain('\n| error | test/unit/summary.test.ts:1 | paidImport | free test imports the model SDK \'openai\'');
    expect(run.summary).toContain('\n```mermaid\nflowchart LR\n  n0["test/unit/summary.test.ts:1"]\n  n1["openai"]\n  n0 --> n1\n```\n');
  });

  it('leaves the job summary alone with step-summary false, and keeps the exit code', () => {
    const dir = pullRequest({ 'test/unit/summary.test.ts': `import OpenAI from 'openai';\nimport { test } from 'vitest';\n\ntest('summarizes', () => new OpenAI());\n` });
    const run = runAction(dir, {}, { TRIPWIRE_STEP_SUMMARY: 'false' });
    expect(run.summary).toBe('# earlier step\n');
    expect(run.code).toBe(1);
    expect(run.outputs.get('exit-code')).toBe('1');
  });

  it('on a clean pull request: no annotation, an empty SARIF report, exit 0', () => {
    const dir = pullRequest({ 'src/version.ts': `export const VERSION = '1.0.1';\n` });
    const run = runAction(dir);
    expect(run.stdout).not.toContain('::error');
    expect(run.code).toBe(0);
    expect(run.outputs.get('exit-code')).toBe('0');
    const sarif: { runs: { results: unknown[] }[] } = JSON.parse(readFileSync(join(dir, 'tripwire.sarif'), 'utf8'));
    expect(sarif.runs[0]?.results).toEqual([]);
    expect(run.summary).toMatch(/^# earlier step\n## ✅ tripwire found nothing to fix: 0 errors, 0 warnings\n/);
  });

  it('keeps its caches, and the key that signs them, where the cache steps save and restore them', () => {
    const dir = pullRequest({ 'src/version.ts': `export const VERSION = '1.0.1';\n` });
    // The key step: where (under RUNNER_TEMP) and the version; nothing with cache false.
    const keyOutputs = (cache: string): string => {
      const outputFile = join(dir, '..', 'key-output');
      writeFileSync(outputFile, '');
      const result = spawnSync('bash', ['-c', String(keyStep?.run)], { cwd: dir, encoding: 'utf8', env: { ...process.env, GITHUB_OUTPUT: outputFile, GITHUB_ACTION_PATH: PACKAGE_ROOT, RUNNER_TEMP: join(dir, '..'), TRIPWIRE_CACHE: cache } });
      expect(result.status).toBe(0);
      return readFileSync(outputFile, 'utf8');
    };
    const version = (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    const cacheDir = join(dir, '..', 'tripwire-cache');
    expect(keyOutputs('true')).toBe(`dir=${cacheDir}\nversion=${version}\n`);
    expect(keyOutputs('false')).toBe('dir=\n');

    const first = runAction(dir, {}, { TRIPWIRE_CACHE_DIR: cacheDir });
    expect(first.code).toBe(0);
    expect(existsSync(join(cacheDir, 'home', 'tripwire', 'key'))).toBe(true);
    const cached = readdirSync(join(cacheDir, 'caches'));
    expect(cached.length).toBeGreaterThan(0);
    // Nothing went to the default places: the repository's node_modules or the user's cache.
    expect(existsSync(join(dir, 'node_modules', '.cache', 'tripwire'))).toBe(false);
    // A restored cache on another runner (another home directory) verifies: the verdict comes from it.
    const otherHome = mkdtempSync(join(tmpdir(), 'tripwire-runner-home-'));
    temps.push(otherHome);
    const second = runAction(dir, {}, { TRIPWIRE_CACHE_DIR: cacheDir, HOME: otherHome, TIMING: '1' });
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    expect(second.stderr).toContain('Timing: the verdict came from the result cache');
  });

  const VIOLATION = { 'test/unit/summary.test.ts': `import OpenAI from 'openai';\nimport { test } from 'vitest';\n\ntest('summarizes', () => new OpenAI());\n` };

  /**
   * What a pull request's lockfile can put in node_modules after `npm ci --ignore-scripts`: a tripwire
   * that says ok and exits 0 (and leaves a marker, so that running it at all shows).
   */
  function plantFakeTripwire(dir: string): string {
    const marker = join(dir, '..', 'fake-tripwire-ran');
    for (const bin of ['node_modules/.bin/tripwire', 'node_modules/eslint-plugin-tripwire/dist/cli/bin.js']) {
      mkdirSync(join(dir, bin, '..'), { recursive: true });
      writeFileSync(join(dir, bin), `#!/bin/sh\necho ok\ntouch '${marker}'\nexit 0\n`);
      chmodSync(join(dir, bin), 0o755);
    }
    writeFileSync(join(dir, 'node_modules/eslint-plugin-tripwire/package.json'), JSON.stringify({ name: 'eslint-plugin-tripwire', version: '0.1.0', bin: { tripwire: 'dist/cli/bin.js' } }));
    return marker;
  }

  it("runs the action's own release, not the tripwire a pull request put in the workspace's node_modules", () => {
    const dir = pullRequest(VIOLATION);
    const marker = plantFakeTripwire(dir);
    const run = runAction(dir);
    expect(existsSync(marker)).toBe(false);
    expect(run.stdout).not.toMatch(/^ok$/m);
    expect(run.stdout).toMatch(/^::error file=test\/unit\/summary\.test\.ts,line=1,/m);
    expect(run.code).toBe(1);
    expect(run.outputs.get('exit-code')).toBe('1');
  });

  it('with a fake tripwire in the workspace and nothing wrong: still its own release, exit 0', () => {
    const dir = pullRequest({ 'src/version.ts': `export const VERSION = '1.0.1';\n` });
    const marker = plantFakeTripwire(dir);
    const run = runAction(dir);
    expect(existsSync(marker)).toBe(false);
    expect(run.stdout).not.toMatch(/^ok$/m);
    expect(run.code).toBe(0);
  });

  /**
   * An action checkout without its build (what `uses: owner/repo@ref` fetches): only package.json.
   * `npm` is a stand-in that records how it was called and links the "installed" package to this build.
   */
  function unbuiltAction(npmExit = 0): { actionPath: string; npmLog: string; pathDir: string } {
    const parent = mkdtempSync(join(tmpdir(), 'tripwire-action-path-'));
    temps.push(parent);
    const actionPath = join(parent, 'action');
    mkdirSync(actionPath);
    cpSync(join(PACKAGE_ROOT, 'package.json'), join(actionPath, 'package.json'));
    const pathDir = join(parent, 'bin');
    mkdirSync(pathDir);
    const npmLog = join(parent, 'npm-calls');
    const npm = join(pathDir, 'npm');
    writeFileSync(
      npm,
      [
        '#!/bin/bash',
        `printf '%s\\n' "cwd=$(pwd)" "$@" >> '${npmLog}'`,
        `[ ${npmExit} -eq 0 ] || exit ${npmExit}`,
        'prefix=$3',
        'mkdir -p "$prefix/node_modules"',
        `ln -s '${PACKAGE_ROOT}' "$prefix/node_modules/eslint-plugin-tripwire"`,
        '',
      ].join('\n'),
    );
    chmodSync(npm, 0o755);
    return { actionPath, npmLog, pathDir };
  }

  it('from an unbuilt action checkout: installs its own version outside the workspace, without scripts, once, and runs that', () => {
    const dir = pullRequest(VIOLATION);
    const marker = plantFakeTripwire(dir);
    const { actionPath, npmLog, pathDir } = unbuiltAction();
    const runnerTemp = join(dir, '..', 'runner-temp');
    mkdirSync(runnerTemp);
    const env = { GITHUB_ACTION_PATH: actionPath, RUNNER_TEMP: runnerTemp, PATH: `${pathDir}:${process.env.PATH ?? ''}` };
    const run = runAction(dir, {}, env);
    const prefix = join(runnerTemp, 'tripwire-0.1.0');
    expect(readFileSync(npmLog, 'utf8').split('\n').filter(Boolean)).toEqual([
      `cwd=${prefix}`,
      'install',
      '--prefix',
      prefix,
      '--no-save',
      '--no-package-lock',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      'eslint-plugin-tripwire@0.1.0',
    ]);
    expect(existsSync(marker)).toBe(false);
    expect(run.stdout).toMatch(/^::error file=test\/unit\/summary\.test\.ts,line=1,/m);
    expect(run.code).toBe(1);
    // The second step of a job (or a second run of the action) finds it installed.
    rmSync(npmLog);
    expect(runAction(dir, {}, env).code).toBe(1);
    expect(existsSync(npmLog)).toBe(false);
  });

  it('when its own version cannot be installed: exit 2, never a tripwire from the workspace', () => {
    const dir = pullRequest(VIOLATION);
    const marker = plantFakeTripwire(dir);
    const { actionPath, pathDir } = unbuiltAction(1);
    const run = runAction(dir, {}, { GITHUB_ACTION_PATH: actionPath, PATH: `${pathDir}:${process.env.PATH ?? ''}` });
    expect(run.code).toBe(2);
    expect(run.outputs.get('exit-code')).toBe('2');
    expect(run.stderr).toContain('tripwire: could not install eslint-plugin-tripwire@0.1.0');
    expect(existsSync(marker)).toBe(false);
  });

  it('in a clone without the base branch (fetch-depth 1): exit 2 with the hint, not a silent pass', () => {
    const dir = pullRequest({ 'src/version.ts': `export const VERSION = '1.0.1';\n` }, ['--depth', '1', '--single-branch', '--no-tags']);
    git(dir, 'update-ref', '-d', 'refs/remotes/origin/main');
    const run = runAction(dir);
    expect(run.code).toBe(2);
    expect(run.outputs.get('exit-code')).toBe('2');
    expect(run.stderr).toContain('fetch-depth');
  });
});

import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { git, makeGitRepo, runCli, writeFiles } from '../support/repo.js';

delete process.env.GIT_DIR;
delete process.env.GIT_INDEX_FILE;
delete process.env.GIT_WORK_TREE;

const CONFIG = `{
  "tests": {
    "include": ["test/**/*.test.ts"],
    "paid": ["test/evals/**/*.test.ts"],
    "ids": [{ "call": "runEval", "arg": 0, "property": "name" }]
  },
  "maps": {
    "touchfiles": { "file": "test/helpers/touchfiles.ts", "export": "E2E_TOUCHFILES" },
    "tiers": { "file": "test/helpers/touchfiles.ts", "export": "E2E_TIERS" },
    "globals": { "file": "test/helpers/touchfiles.ts", "export": "GLOBAL_TOUCHFILES", "require": ["test/helpers/run.ts"] }
  }
}
`;

const TOUCHFILES = `export const E2E_TOUCHFILES = {
  'review-basic': ['test/evals/review.test.ts', 'src/review/**', 'test/helpers/judge.ts'],
  'search-basic': ['test/evals/search.test.ts', 'src/search/**'],
};

export const E2E_TIERS = {
  'review-basic': 'gate',
  'search-basic': 'periodic',
};

export const GLOBAL_TOUCHFILES = ['test/helpers/touchfiles.ts', 'test/helpers/run.ts'];
`;

const HARNESS = {
  'tripwire.config.json': CONFIG,
  'test/helpers/touchfiles.ts': TOUCHFILES,
  'test/helpers/run.ts': `export async function runEval(options: { name: string }, body: () => Promise<void>): Promise<void> {\n  await body();\n}\n`,
  'test/helpers/judge.ts': `export function judge(answer: string): boolean {\n  return answer.length > 0;\n}\n`,
  'src/review/review.ts': `export const review = (diff: string) => \`review of \${diff}\`;\n`,
  'src/search/search.ts': `export const search = (query: string) => [query];\n`,
  'test/evals/review.test.ts': `import { review } from '../../src/review/review.js';\nimport { judge } from '../helpers/judge.js';\nimport { runEval } from '../helpers/run.js';\n\nrunEval({ name: 'review-basic' }, async () => {\n  judge(review('x'));\n});\n`,
  'test/evals/search.test.ts': `import { search } from '../../src/search/search.js';\nimport { runEval } from '../helpers/run.js';\n\nrunEval({ name: 'search-basic' }, async () => {\n  search('q');\n});\n`,
  'test/review.test.ts': `import { expect, test } from 'vitest';\nimport { review } from '../src/review/review.js';\ntest('reviews', () => expect(review('a')).toBe('review of a'));\n`,
};

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** The harness committed on main, checked out on a branch `feature` with `changes` committed. */
function branchWith(changes: Record<string, string>, harness: Record<string, string> = HARNESS): string {
  const dir = makeGitRepo(harness);
  temps.push(dir);
  git(dir, 'checkout', '-q', '-b', 'feature');
  if (Object.keys(changes).length > 0) {
    writeFiles(dir, changes);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'change');
  }
  return dir;
}

describe('tripwire select, spawned on a real git repository', () => {
  it('selects exactly the test whose touchfile glob matches a changed helper', () => {
    const run = runCli(['select', '--base', 'main'], branchWith({ 'test/helpers/judge.ts': 'export const judge = () => true;\n' }));
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('review-basic  [gate]  ← test/helpers/judge.ts\n1 of 2 paid tests selected\n');
    expect(run.code).toBe(0);
  });

  it('names the matching glob when it is not the file itself', () => {
    const run = runCli(['select', '--base', 'main'], branchWith({ 'src/search/rank.ts': 'export const rank = 1;\n' }));
    expect(run.stdout).toBe('search-basic  [periodic]  ← src/search/rank.ts (src/search/**)\n1 of 2 paid tests selected\n');
    expect(run.code).toBe(0);
  });

  it('selects every paid test when a global touchfile changes, and says which one', () => {
    const run = runCli(['select', '--base', 'main'], branchWith({ 'test/helpers/run.ts': 'export async function runEval() {}\n' }));
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(
      [
        'review-basic  [gate]      ← test/helpers/run.ts (global)',
        'search-basic  [periodic]  ← test/helpers/run.ts (global)',
        'all 2 paid tests selected: global touchfile test/helpers/run.ts changed',
        '',
      ].join('\n'),
    );
    expect(run.code).toBe(0);
  });

  it('selects a test whose touchfile glob is refused as too complex on any change (check reports the glob), and the others only by their globs', () => {
    const harness = { ...HARNESS, 'test/helpers/touchfiles.ts': TOUCHFILES.replace("'src/search/**']", "'src/search/*a*a*a*a*b']") };
    const run = runCli(['select', '--base', 'main'], branchWith({ 'README.md': '# readme\n' }, harness));
    expect(run.stdout).toBe('search-basic  [periodic]  ← README.md (src/search/*a*a*a*a*b)\n1 of 2 paid tests selected\n');
    expect(run.code).toBe(0);
  });

  it('exits 0 and says so when nothing is selected', () => {
    const dir = branchWith({ 'README.md': '# readme\n' });
    expect(runCli(['select', '--base', 'main'], dir)).toEqual({ code: 0, stdout: '0 of 2 paid tests selected\n', stderr: '' });
    expect(runCli(['select', '--base', 'feature'], dir)).toEqual({ code: 0, stdout: '0 of 2 paid tests selected: no file changed\n', stderr: '' });
  });

  it('--tier keeps only the ids of that tier', () => {
    const dir = branchWith({ 'src/review/review.ts': 'export const review = 1;\n', 'src/search/search.ts': 'export const search = 1;\n' });
    const gate = runCli(['select', '--base', 'main', '--tier', 'gate'], dir);
    expect(gate.stdout).toBe('review-basic  [gate]  ← src/review/review.ts (src/review/**)\n1 of 1 paid tests selected (tier gate)\n');
    expect(gate.code).toBe(0);

    const global = runCli(['select', '--base', 'main', '--tier', 'periodic'], branchWith({ 'test/helpers/run.ts': '' }));
    expect(global.stdout).toBe('search-basic  [periodic]  ← test/helpers/run.ts (global)\nall 1 paid tests selected (tier periodic): global touchfile test/helpers/run.ts changed\n');

    const unknown = runCli(['select', '--base', 'main', '--tier', 'nightly'], dir);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown tier 'nightly' (allowed: gate, periodic)");
  });

  it('prints the documented JSON shape with --format json', () => {
    const dir = branchWith({ 'src/search/search.ts': 'export const search = 2;\n' });
    const run = runCli(['select', '--base', 'main', '--format', 'json'], dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const output: unknown = JSON.parse(run.stdout);
    expect(output).toEqual({
      base: git(dir, 'rev-parse', 'main').trim(),
      changed: ['src/search/search.ts'],
      selected: [{ id: 'search-basic', tier: 'periodic', reasons: [{ file: 'src/search/search.ts', glob: 'src/search/**', global: false }] }],
      total: 2,
    });
    expect(Object.keys(JSON.parse(run.stdout))).toEqual(['base', 'changed', 'selected', 'total']);
  });

  it('prints a Markdown table of the selected ids, their tiers and the files that selected them with --format markdown', () => {
    const dir = branchWith({ 'src/review/review.ts': 'export const review = 2;\n', 'test/helpers/judge.ts': 'export const judge = 2;\n' });
    const run = runCli(['select', '--base', 'main', '--format', 'markdown'], dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const base = git(dir, 'rev-parse', 'main').trim().slice(0, 12);
    expect(run.stdout).toBe(
      [
        '## tripwire select: 1 of 2 paid tests selected',
        '',
        `2 changed files since the merge base ${base}.`,
        '',
        '| paid test id | tier | selected by (changed file and the glob it matched) |',
        '| --- | --- | --- |',
        '| review-basic | gate | src/review/review.ts (src/review/\\*\\*)<br>test/helpers/judge.ts |',
        '',
      ].join('\n'),
    );
  });

  it('--format markdown says when a global touchfile selected everything, within the tier asked for', () => {
    const run = runCli(['select', '--base', 'main', '--tier', 'periodic', '--format', 'markdown'], branchWith({ 'test/helpers/run.ts': '' }));
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('## tripwire select: all 1 paid test selected (tier periodic)\n');
    expect(run.stdout).toContain('A global touchfile changed (test/helpers/run.ts): every paid test is selected.');
    expect(run.stdout).toContain('| search-basic | periodic | test/helpers/run.ts (global touchfile) |\n');
    expect(run.stdout).not.toContain('review-basic');
  });

  it('--format markdown with nothing selected: the count, and no empty table', () => {
    const run = runCli(['select', '--base', 'main', '--format', 'markdown'], branchWith({ 'README.md': '# readme\n' }));
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^## tripwire select: 0 of 2 paid tests selected\n\n1 changed file since the merge base [0-9a-f]{12}\.\n$/);
  });

  it('exits 2 with the fetch hint when the base ref is missing', () => {
    const run = runCli(['select', '--base', 'origin/main'], branchWith({ 'test/helpers/judge.ts': '' }));
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      "tripwire: base ref 'origin/main' not found. In CI, check out with full history (actions/checkout 'fetch-depth: 0') or run 'git fetch origin main'.\n",
    );
  });

  it('--staged selects from the index only: unstaged and untracked changes do not count', () => {
    const dir = branchWith({});
    writeFiles(dir, { 'src/review/review.ts': 'export const review = 2;\n' });
    git(dir, 'add', 'src/review/review.ts');
    writeFiles(dir, { 'src/search/search.ts': 'export const search = 2;\n', 'src/search/new.ts': '' });

    const run = runCli(['select', '--staged', '--format', 'json'], dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      base: null,
      changed: ['src/review/review.ts'],
      selected: [{ id: 'review-basic', tier: 'gate', reasons: [{ file: 'src/review/review.ts', glob: 'src/review/**', global: false }] }],
      total: 2,
    });
  });

  it('exits 2 when neither --base nor --staged is given', () => {
    const run = runCli(['select'], branchWith({}));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('select needs --base REF, or --staged to select from the index');
  });

  it('exits 2 and names the node when a map cannot be evaluated, instead of selecting from it', () => {
    const broken = { ...HARNESS, 'test/helpers/touchfiles.ts': TOUCHFILES.replace("'search-basic': ['test/evals/search.test.ts', 'src/search/**'],", "'search-basic': searchGlobs(),") };
    const run = runCli(['select', '--base', 'main'], branchWith({ 'src/review/review.ts': '' }, broken));
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^tripwire: the selection maps cannot be evaluated, so nothing can be selected from them:\ntest\/helpers\/touchfiles\.ts:3:\d+ /);
  });

  describe('with maps.globals.selfReference "map-diff": the map is diffed key by key instead of being a global', () => {
    const MAP_DIFF_HARNESS = {
      ...HARNESS,
      'tripwire.config.json': CONFIG.replace('"require": ["test/helpers/run.ts"] }', '"require": ["test/helpers/run.ts"], "selfReference": "map-diff" }'),
      'test/helpers/touchfiles.ts': TOUCHFILES.replace("['test/helpers/touchfiles.ts', 'test/helpers/run.ts']", "['test/helpers/run.ts']"),
    };

    it('selects only the key whose globs changed, with the map and what changed as the reason', () => {
      const edited = MAP_DIFF_HARNESS['test/helpers/touchfiles.ts'].replace("'src/search/**']", "'src/search/**', 'prompts/search.md']");
      const run = runCli(['select', '--base', 'main'], branchWith({ 'test/helpers/touchfiles.ts': edited }, MAP_DIFF_HARNESS));
      expect(run.stderr).toBe('');
      expect(run.stdout).toBe('search-basic  [periodic]  ← test/helpers/touchfiles.ts (E2E_TOUCHFILES: globs changed)\n1 of 2 paid tests selected\n');
      expect(run.code).toBe(0);
    });

    it('selects a key whose tier changed, and a new key, and nothing for an edit that changes no entry', () => {
      const retiered = MAP_DIFF_HARNESS['test/helpers/touchfiles.ts'].replace("'search-basic': 'periodic'", "'search-basic': 'gate'");
      const tier = runCli(['select', '--base', 'main', '--format', 'json'], branchWith({ 'test/helpers/touchfiles.ts': retiered }, MAP_DIFF_HARNESS));
      expect(JSON.parse(tier.stdout).selected).toEqual([{ id: 'search-basic', tier: 'gate', reasons: [{ file: 'test/helpers/touchfiles.ts', glob: 'E2E_TIERS', global: false, mapDiff: 'tier' }] }]);

      const added = MAP_DIFF_HARNESS['test/helpers/touchfiles.ts']
        .replace("'search-basic': ['test/evals/search.test.ts', 'src/search/**'],", "'search-basic': ['test/evals/search.test.ts', 'src/search/**'],\n  'search-typo': ['test/evals/search.test.ts', 'src/search/**'],")
        .replace("'search-basic': 'periodic',", "'search-basic': 'periodic',\n  'search-typo': 'periodic',");
      const fresh = runCli(['select', '--base', 'main'], branchWith({ 'test/helpers/touchfiles.ts': added }, MAP_DIFF_HARNESS));
      expect(fresh.stdout).toBe('search-typo  [periodic]  ← test/helpers/touchfiles.ts (E2E_TOUCHFILES: new entry)\n1 of 3 paid tests selected\n');

      const comment = runCli(['select', '--base', 'main'], branchWith({ 'test/helpers/touchfiles.ts': `// reordered, same entries\n${MAP_DIFF_HARNESS['test/helpers/touchfiles.ts']}` }, MAP_DIFF_HARNESS));
      expect(comment.stdout).toBe('0 of 2 paid tests selected\n');
    });

    it('without "map-diff", the same edit selects nothing by key: the map is a global there, or check reports it missing', () => {
      const listed = { ...MAP_DIFF_HARNESS, 'tripwire.config.json': CONFIG };
      const edited = listed['test/helpers/touchfiles.ts'].replace("'src/search/**']", "'src/search/**', 'prompts/search.md']");
      const run = runCli(['select', '--base', 'main'], branchWith({ 'test/helpers/touchfiles.ts': edited }, listed));
      expect(run.stdout).toBe('0 of 2 paid tests selected\n');
    });

    it('global-touchfiles-present accepts the map missing from the globals only under "map-diff"', () => {
      const diffed = runCli(['check', '--rule', 'global-touchfiles-present', '--format', 'json'], branchWith({}, MAP_DIFF_HARNESS));
      expect(JSON.parse(diffed.stdout).findings).toEqual([]);
      const listed = runCli(['check', '--rule', 'global-touchfiles-present', '--format', 'json'], branchWith({}, { ...MAP_DIFF_HARNESS, 'tripwire.config.json': CONFIG }));
      expect(JSON.parse(listed.stdout).findings.map((f: { messageId: string; file: string; line: number }) => `${f.file}:${f.line} ${f.messageId}`)).toEqual(['test/helpers/touchfiles.ts:11 mapFileNotGlobal']);
    });
  });

  describe('a paid lane in CI whose definition changed selects every paid test it could run differently', () => {
    const WORKFLOW = [
      'on: [push, pull_request]',
      'env:',
      '  NODE_OPTIONS: --max-old-space-size=4096',
      'jobs:',
      '  unit:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - run: npx vitest run test/review.test.ts',
      '  evals:',
      "    if: contains(fromJSON('[\"OWNER\",\"MEMBER\",\"COLLABORATOR\"]'), github.event.pull_request.author_association) || github.event_name == 'push'",
      '    runs-on: ubuntu-latest',
      '    env:',
      '      EVAL_MODEL: small',
      '    steps:',
      '      - run: npx vitest run test/evals',
      '        env:',
      '          OPENAI_API_KEY: ${{ secrets.OPENAI_API_KEY }}',
      '',
    ].join('\n');
    const CI_HARNESS = { ...HARNESS, '.github/workflows/ci.yml': WORKFLOW };
    const withWorkflow = (text: string, tier?: string): ReturnType<typeof runCli> =>
      runCli(['select', '--base', 'main', ...(tier === undefined ? [] : ['--tier', tier])], branchWith({ '.github/workflows/ci.yml': text }, CI_HARNESS));

    it('a new model for the paid job selects every paid id, naming the workflow and the job', () => {
      const run = withWorkflow(WORKFLOW.replace('EVAL_MODEL: small', 'EVAL_MODEL: large'));
      expect(run.stderr).toBe('');
      expect(run.stdout).toBe(
        [
          'review-basic  [gate]      ← .github/workflows/ci.yml (job evals: the paid lane, changed)',
          'search-basic  [periodic]  ← .github/workflows/ci.yml (job evals: the paid lane, changed)',
          '2 of 2 paid tests selected',
          '',
        ].join('\n'),
      );
      expect(run.code).toBe(0);
    });

    it('a change to the workflow-wide settings changes the paid job too; --tier still narrows', () => {
      const run = withWorkflow(WORKFLOW.replace('4096', '8192'), 'gate');
      expect(run.stdout).toBe('review-basic  [gate]  ← .github/workflows/ci.yml (job evals: the paid lane, changed)\n1 of 1 paid tests selected (tier gate)\n');
    });

    it('a new job that runs paid tests is a new paid lane; the JSON reason says so', () => {
      const added = `${WORKFLOW}  nightly:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npx vitest run test/evals/search.test.ts\n`;
      const run = runCli(['select', '--base', 'main', '--format', 'json'], branchWith({ '.github/workflows/ci.yml': added }, CI_HARNESS));
      expect(JSON.parse(run.stdout).selected).toEqual([
        { id: 'review-basic', tier: 'gate', reasons: [{ file: '.github/workflows/ci.yml', glob: 'job nightly', global: false, lane: 'added' }] },
        { id: 'search-basic', tier: 'periodic', reasons: [{ file: '.github/workflows/ci.yml', glob: 'job nightly', global: false, lane: 'added' }] },
      ]);
    });

    it('a job that receives a model key is a paid lane even when its command names no paid test', () => {
      const keyed = WORKFLOW.replace('      - run: npx vitest run test/review.test.ts', '      - run: npx vitest run test/review.test.ts\n      - run: node scripts/smoke.js\n        env:\n          ANTHROPIC_API_KEY: ${{ secrets.ANTHROPIC_API_KEY }}');
      const run = runCli(['select', '--base', 'main', '--format', 'markdown'], branchWith({ '.github/workflows/ci.yml': keyed }, CI_HARNESS));
      expect(run.stdout).toContain('| review-basic | gate | .github/workflows/ci.yml (job unit: the paid lane, changed) |');
      expect(run.stdout).toContain('| search-basic | periodic | .github/workflows/ci.yml (job unit: the paid lane, changed) |');
    });

    it('selects nothing for an edit to the free job, a comment, or a reordering of the paid job', () => {
      expect(withWorkflow(WORKFLOW.replace('npx vitest run test/review.test.ts', 'npx vitest run test/review.test.ts --reporter dot')).stdout).toBe('0 of 2 paid tests selected\n');
      const reordered = WORKFLOW.replace('    runs-on: ubuntu-latest\n    env:\n      EVAL_MODEL: small\n', '    env:\n      EVAL_MODEL: small # the cheap one\n    runs-on: ubuntu-latest\n');
      expect(reordered).not.toBe(WORKFLOW);
      expect(withWorkflow(`# the CI\n${reordered}`).stdout).toBe('0 of 2 paid tests selected\n');
    });
  });
});

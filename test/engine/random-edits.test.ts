import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verdictOf, type Verdict } from '../../src/engine/verdict.js';
import type { WorkspaceOptions } from '../../src/engine/workspace.js';
import { fixtureRepo } from '../support/fixture-repo.js';
import { git } from '../support/repo.js';

// Issue 18, item 2: whatever a run reuses from earlier runs (the fact cache,
// the result cache; later the persisted indexes), its answer is the one a run
// from nothing gives. Each fixture repository below goes through a sequence
// of seeded random edits (helpers, tests, maps, shipped files and the
// configuration; adds, edits, renames with and without git, deletes, syntax
// errors, commits and staging) and after every step the check the CLI runs
// (verdictOf, with caches kept across steps as a user's repeated runs keep
// them) must report what a run with no cache reports: for the work tree, for
// --base against a commit of the sequence's history, and, after something is
// staged, for --staged and again for --base (staging alone can change what
// git's rename detection pairs). A failure names the seed, the fixture, the
// step, the mode and every edit up to it. TRIPWIRE_EDIT_STEPS is the number of
// steps over all fixtures (CI: 200), TRIPWIRE_EDIT_SEED replays another seed.
const STEPS = Number(process.env.TRIPWIRE_EDIT_STEPS ?? process.env.EDIT_STEPS ?? '200');
const SEED = Number(process.env.TRIPWIRE_EDIT_SEED ?? process.env.EDIT_SEED ?? '20261205');

const temps: string[] = [];
const xdgBefore = process.env.XDG_CACHE_HOME;
beforeAll(() => {
  // The caches are authenticated with the user's key (util/cache-secret.ts): this one lives and dies with the test.
  const xdg = mkdtempSync(join(tmpdir(), 'tripwire-edits-xdg-'));
  temps.push(xdg);
  process.env.XDG_CACHE_HOME = xdg;
});
afterAll(() => {
  if (xdgBefore === undefined) delete process.env.XDG_CACHE_HOME;
  else process.env.XDG_CACHE_HOME = xdgBefore;
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** Suppression comments an edit adds or removes: their validity is checked in every script whose facts a run loads. */
const SUPPRESSIONS = ['// tripwire-disable-next-line no-paid-calls-in-free-tests', '// tripwire-disable-next-line no-paid-calls-in-free-tests -- the client is a fake', '// tripwire-disable-next-line no-such-rule -- a typo'];

/** mulberry32: a small seeded generator, so that a sequence is the same on every machine. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What varies from one fixture repository to another; the edits themselves are shared. */
interface Profile {
  fixture: string;
  /** Local modules the tests reach: edited, imported, renamed. */
  helpers: RegExp;
  tests: RegExp;
  /** Where a new file goes, and whether a test there is paid. */
  newHelperDirs: string[];
  newTestDirs: { dir: string; paid: boolean }[];
  /** A paid test's body declaring `id` in this harness's shape. */
  paidTest: (id: string) => string;
  /** Lines toggled in and out of a file: map keys and globs, shipped text, configuration. */
  lines: { file: string; lines: string[] }[];
  /** One text swapped for another and back. */
  swaps: { file: string; a: string; b: string }[];
  /** Files deleted or renamed now and then although they matter (maps, manifests, configured helpers). */
  precious: string[];
  /** This fixture's share of the steps (the shares sum to 1): a --base run of a workspace costs a diff per package. */
  share: number;
}

const PROFILES: Profile[] = [
  {
    fixture: 'demo',
    share: 0.4,
    helpers: /^test\/helpers\/.*\.ts$/,
    tests: /^test\/.*\.test\.ts$/,
    newHelperDirs: ['test/helpers'],
    newTestDirs: [
      { dir: 'test', paid: false },
      { dir: 'test', paid: true },
    ],
    paidTest: (id) => `import { describeTier, runEval } from './helpers/eval.js';\ndescribeTier('gate', () => {\n  runEval({ name: '${id}', diff: 'small.diff', check: () => {} });\n});\n`,
    lines: [
      { file: 'test/helpers/touchfiles.ts', lines: ["    'test/helpers/oracle.ts',", "    'test/helpers/gen-1.ts',", "    'test/fixtures/diffs/none.diff',", "    'src/review/**',", "    'test/e2e-gen-2.test.ts',"] },
      { file: 'test/helpers/touchfiles.ts', lines: ["  'review-basic': 'gate',", "  'review-extra': 'periodic',", "  'review-quality': 'nightly',", "  'gen-3': 'gate',"] },
      { file: 'test/helpers/touchfiles.ts', lines: ["  'gen-3': ['test/**', 'test/helpers/judge.ts'],", "  'review-cost-budget': ['src/review/**'],"] },
      { file: 'skills/review/SKILL.md', lines: ['Set `REVIEW_ASSUME_FETCHED=1` to skip collecting the change.', 'When `VITEST` is set, answer with a canned review.', 'Run `scripts/select.ts` to pick the evals.', 'Run `tripwire-stub review` to fake a review.'] },
      { file: 'src/review/findings.ts', lines: ['if (process.env.VITEST) { console.log("test"); }', 'export const ASSUME = process.env.REVIEW_ASSUME_FETCHED;'] },
      { file: 'test/findings.test.ts', lines: ['    expect(findings.length).toBeGreaterThan(-1);'] },
      { file: '.github/workflows/ci.yml', lines: ['      OPENAI_API_KEY: ${{ secrets.OPENAI_API_KEY }}'] },
    ],
    swaps: [
      { file: 'test/findings.test.ts', a: "test('reads one", b: "test.skip('reads one" },
      { file: 'tripwire.config.json', a: '"no-dangling-references": "error"', b: '"no-dangling-references": "warn"' },
      { file: 'tripwire.config.json', a: '"paid": ["test/e2e-*.test.ts"]', b: '"paid": ["test/e2e-*.test.ts", "test/oracle.test.ts"]' },
      { file: 'test/helpers/touchfiles.ts', a: "'test/helpers/store.ts', 'test/helpers/eval.ts']", b: "'test/helpers/store.ts']" },
    ],
    precious: ['test/helpers/store.ts', 'test/helpers/oracle.ts', 'test/invoke.test.ts', 'test/findings.test.ts', 'test/helpers/touchfiles.ts', 'test/fixtures/expected/small.json'],
  },
  {
    fixture: 'maps/good',
    share: 0.35,
    helpers: /^(test\/helpers\/.*|src\/shared\/.*)\.ts$/,
    tests: /^test\/.*\.test\.ts$/,
    newHelperDirs: ['test/helpers', 'src/shared'],
    newTestDirs: [
      { dir: 'test/unit', paid: false },
      { dir: 'test/evals/qa', paid: true },
    ],
    paidTest: (id) => `import { runEval } from '../../helpers/run.js';\nrunEval({ name: '${id}', run: async () => 1, check: () => {} });\n`,
    lines: [
      { file: 'test/helpers/touchfiles.ts', lines: ["  'gen-1': [...SHARED, 'test/evals/qa/**'],", "  'summary-basic': ['src/summary/**'],", "  'orphan-key': ['src/nothing/**'],"] },
      { file: 'test/helpers/touchfiles.ts', lines: ["  'gen-1': 'gate',", "  'summary-edge': 'weekly',", "  'orphan-tier': 'periodic',"] },
      { file: 'test/helpers/touchfiles.ts', lines: ["  'test/helpers/fixtures.ts',", "  'test/helpers/gone.ts',"] },
      { file: 'test/helpers/maps/review.ts', lines: ["  'review-gen': ['test/evals/review-*.test.ts'],", "  'review-style': ['src/review/*.ts'],"] },
      { file: 'prompts/answer.md', lines: ['When `EVALS_FAKE_MODEL` is set, answer "ok".', 'See `test/helpers/judge.ts` for the rubric.', 'Run `lumen answer --stub` to skip the model.'] },
      { file: 'src/qa/answer.ts', lines: ["if (process.env.NODE_ENV === 'test') { console.log('test'); }", "export const FAKE = process.env.EVALS_FAKE_MODEL;"] },
    ],
    swaps: [
      { file: 'test/helpers/judge-touchfiles.json', a: '"judge-tone": [', b: '"judge-tone-old": [' },
      { file: 'tsconfig.json', a: '"@helpers/*": ["./test/helpers/*"]', b: '"@helpers/*": ["./test/support/*"]' },
      { file: 'tripwire.config.json', a: '"paid": ["test/evals/**/*.test.ts"]', b: '"paid": ["test/evals/**/*.test.ts", "test/unit/selection.test.ts"]' },
      { file: 'test/helpers/maps/index.ts', a: 'REVIEW_TOUCHFILES', b: 'REVIEW_TOUCHFILES_V2' },
    ],
    precious: ['test/helpers/run.ts', 'test/helpers/ids.ts', 'test/helpers/judge-touchfiles.json', 'test/helpers/maps/review.ts', 'src/shared/client.ts', 'prompts/tone.md'],
  },
  {
    fixture: 'monorepo/per-package',
    share: 0.25,
    helpers: /^packages\/[^/]+\/src\/.*\.ts$/,
    tests: /^packages\/[^/]+\/test\/.*\.test\.ts$/,
    newHelperDirs: ['packages/test-utils/src', 'packages/formatting/src'],
    newTestDirs: [
      { dir: 'packages/formatting/test', paid: false },
      { dir: 'packages/answers/test/evals', paid: false },
      { dir: 'packages/answers/test/live', paid: true },
    ],
    paidTest: (id) => `import { test } from 'vitest';\ntest('${id}', () => {});\n`,
    lines: [
      { file: 'packages/formatting/src/index.ts', lines: ["import { sampleReply } from '@desk/test-utils';", "export { sampleReply } from '@desk/test-utils';"] },
      { file: 'packages/answers/src/reply.ts', lines: ["import '@desk/test-utils';", "import '../../test-utils/src/index.js';"] },
    ],
    swaps: [
      { file: 'packages/answers/tripwire.config.json', a: '"paid": ["test/live/**/*.test.ts"]', b: '"paid": ["test/live/**/*.test.ts", "test/evals/**/*.test.ts"]' },
      { file: 'tripwire.config.json', a: '"paid": ["packages/*/test/evals/**/*.test.ts"]', b: '"paid": ["packages/*/test/live/**/*.test.ts"]' },
      { file: 'packages/test-utils/package.json', a: '"name": "@desk/test-utils"', b: '"name": "@desk/test-helpers"' },
      { file: 'packages/formatting/package.json', a: '"exports": { ".": "./src/index.ts" }', b: '"exports": { ".": "./src/squash.ts" }' },
    ],
    precious: ['packages/test-utils/src/index.ts', 'packages/answers/tripwire.config.json', 'packages/formatting/package.json'],
  },
];

const PAID_LINES = [
  "import OpenAI from 'openai';",
  "import OpenAI from 'openai'; export const client = new OpenAI();",
  "export const paidCall = () => fetch('https://api.anthropic.com/v1/messages');",
  "import { spawnSync } from 'node:child_process'; export const ask = () => spawnSync('claude', ['-p', 'hi']);",
  "import type OpenAI from 'openai'; export type Client = OpenAI;",
];

class Harness {
  private readonly random: () => number;
  private generated = 0;
  readonly log: string[] = [];
  commits = 1;
  /** The last edit put a file where git does not track it yet (a new file, a move without git): staging it matters. */
  untracked = false;

  constructor(
    readonly dir: string,
    readonly profile: Profile,
    seed: number,
  ) {
    this.random = generator(seed);
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.random() * items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  chance(p: number): boolean {
    return this.random() < p;
  }

  read(file: string): string | null {
    const path = join(this.dir, file);
    return existsSync(path) ? readFileSync(path, 'utf8') : null;
  }

  write(file: string, text: string): void {
    const path = join(this.dir, file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }

  tracked(file: string): boolean {
    return git(this.dir, 'ls-files', '--', file).trim() !== '';
  }

  /** The files git would list (tracked and untracked, present in the work tree) matching `pattern`. */
  files(pattern: RegExp): string[] {
    return git(this.dir, 'ls-files', '--cached', '--others', '--exclude-standard')
      .split('\n')
      .filter((file) => file !== '' && pattern.test(file) && existsSync(join(this.dir, file)))
      .filter((file, i, all) => all.indexOf(file) === i)
      .sort();
  }

  helpers(): string[] {
    return this.files(this.profile.helpers);
  }

  tests(): string[] {
    return this.files(this.profile.tests);
  }

  /** `from`'s import specifier of `to`, relative, with the `.js` a NodeNext import writes. */
  specifier(from: string, to: string): string {
    const spec = posix.relative(posix.dirname(from), to).replace(/\.ts$/, '.js');
    return spec.startsWith('.') ? spec : `./${spec}`;
  }

  /** Toggles `line` in `file`: removes it where present, else inserts it at a random line. */
  toggleLine(file: string, line: string): string {
    const text = this.read(file);
    if (text === null) return `${file} is absent`;
    const lines = text.split('\n');
    const at = lines.indexOf(line);
    if (at !== -1) {
      lines.splice(at, 1);
      this.write(file, lines.join('\n'));
      return `removed '${line}' from ${file}`;
    }
    const where = Math.floor(this.random() * (lines.length + 1));
    lines.splice(where, 0, line);
    this.write(file, lines.join('\n'));
    return `inserted '${line}' into ${file} at line ${where + 1}`;
  }

  swap(file: string, a: string, b: string): string {
    const text = this.read(file);
    if (text === null) return `${file} is absent`;
    if (text.includes(a)) {
      this.write(file, text.replace(a, b));
      return `replaced '${a}' by '${b}' in ${file}`;
    }
    if (text.includes(b)) {
      this.write(file, text.replace(b, a));
      return `replaced '${b}' by '${a}' in ${file}`;
    }
    return `neither '${a}' nor '${b}' in ${file}`;
  }

  /** A first-argument or `name:` string literal of a test file gains or loses a suffix: a test id or title changes. */
  editTestString(file: string): string {
    const text = this.read(file) ?? '';
    const found = [...text.matchAll(/(?:\(\s*|name:\s*)'([^'\\\n]+)'/g)];
    if (found.length === 0) return `no string to edit in ${file}`;
    const match = this.pick(found);
    const old = match[1] ?? '';
    const next = old.endsWith('-v2') ? old.slice(0, -3) : `${old}-v2`;
    const at = (match.index ?? 0) + match[0].lastIndexOf(`'${old}'`);
    this.write(file, `${text.slice(0, at)}'${next}'${text.slice(at + old.length + 2)}`);
    return `changed '${old}' to '${next}' in ${file}`;
  }

  newFile(dir: string, suffix: string): string {
    this.untracked = true;
    return `${dir}/gen-${++this.generated}${suffix}`;
  }

  moveOrDelete(file: string): string {
    if (!existsSync(join(this.dir, file))) return `${file} is absent`;
    const withGit = this.tracked(file) && this.chance(0.5);
    if (this.chance(0.4)) {
      if (withGit) git(this.dir, 'rm', '-q', '-f', '--', file);
      else rmSync(join(this.dir, file));
      return `deleted ${file}${withGit ? ' with git rm' : ''}`;
    }
    const dir = this.chance(0.7) ? posix.dirname(file) : this.pick([...this.profile.newHelperDirs, ...this.profile.newTestDirs.map((entry) => entry.dir)]);
    const to = `${dir}/moved-${++this.generated}-${posix.basename(file)}`;
    mkdirSync(dirname(join(this.dir, to)), { recursive: true });
    if (withGit) git(this.dir, 'mv', '--', file, to);
    else renameSync(join(this.dir, file), join(this.dir, to));
    this.untracked ||= !withGit;
    return `renamed ${file} to ${to}${withGit ? ' with git mv' : ''}`;
  }

  /** A new test, free or paid, importing a helper (when one is left), with or without a paid call of its own. */
  addTest(): string {
    const where = this.pick(this.profile.newTestDirs);
    const file = this.newFile(where.dir, '.test.ts');
    const helpers = this.helpers();
    const helper = helpers.length > 0 ? this.pick(helpers) : null;
    const imports = `${helper === null ? '' : `import * as helper from '${this.specifier(file, helper)}';\n`}${this.chance(0.3) ? `${this.pick(PAID_LINES)}\n` : ''}`;
    const body = where.paid ? this.profile.paidTest(`gen-${this.generated}`) : `import { expect, test } from 'vitest';\ntest('gen ${this.generated}', () => { expect(${helper === null ? '1' : 'helper'}).toBeDefined(); });\n`;
    this.write(file, `${imports}${body}`);
    return `added ${file}${helper === null ? '' : ` importing ${helper}`}`;
  }

  /** A new helper, perhaps paid, perhaps re-exporting another. */
  addHelper(): string {
    const file = this.newFile(this.pick(this.profile.newHelperDirs), '.ts');
    const helpers = this.helpers();
    const other = helpers.length > 0 && this.chance(0.5) ? `export * from '${this.specifier(file, this.pick(helpers))}';\n` : '';
    this.write(file, `${other}${this.chance(0.5) ? `${this.pick(PAID_LINES)}\n` : ''}export const value = ${this.generated};\n`);
    return `added ${file}`;
  }

  /** One random edit; returns what it did. */
  step(): string {
    const { profile } = this;
    this.untracked = false;
    // The edits below pick among the helpers and the tests: when the sequence deleted them all, it adds one.
    if (this.helpers().length === 0) return this.addHelper();
    if (this.tests().length === 0) return this.addTest();
    const edits: [number, () => string][] = [
      // A helper starts or stops reaching a paid call.
      [3, () => this.toggleLine(this.pick(this.helpers()), this.pick(PAID_LINES))],
      // A helper or a test starts or stops importing a helper (chains through helpers).
      [
        3,
        () => {
          const from = this.pick(this.chance(0.6) ? this.helpers() : this.tests());
          const to = this.pick(this.helpers());
          const spec = this.specifier(from, to);
          return this.toggleLine(from, this.pick([`import '${spec}';`, `import * as gen from '${spec}';`, `export { paidCall } from '${spec}';`, `import type { Client } from '${spec}';`]));
        },
      ],
      [1, () => this.toggleLine(this.pick(this.helpers()), 'export const harmless = 1;')],
      // A test's id or title changes.
      [2, () => this.editTestString(this.pick(this.tests()))],
      [2, () => this.addTest()],
      [2, () => this.addHelper()],
      // A file renamed or deleted, with git or without: mostly generated ones, now and then one that matters.
      [
        4,
        () => {
          const generated = this.files(/(^|\/)(gen|moved)-\d+/);
          const pool = generated.length > 0 && this.chance(0.4) ? generated : this.chance(0.7) ? [...this.helpers(), ...this.tests()] : profile.precious;
          return this.moveOrDelete(this.pick(pool));
        },
      ],
      // The maps, shipped text and code, the configuration.
      [
        4,
        () => {
          const entry = this.pick(profile.lines);
          return this.toggleLine(entry.file, this.pick(entry.lines));
        },
      ],
      [
        2,
        () => {
          const entry = this.pick(profile.swaps);
          return this.swap(entry.file, entry.a, entry.b);
        },
      ],
      // A syntax error comes or goes.
      [1, () => this.toggleLine(this.pick([...this.helpers(), ...this.tests(), ...profile.lines.map((entry) => entry.file)]), 'export const = ;')],
      // A suppression comment comes or goes: with a reason, without one, naming no rule tripwire has.
      [1, () => this.toggleLine(this.pick([...this.helpers(), ...this.tests()]), this.pick(SUPPRESSIONS))],
      // History: everything, or what is staged.
      [
        2,
        () => {
          const all = this.chance(0.6);
          if (all) git(this.dir, 'add', '-A');
          git(this.dir, 'commit', '-q', '--allow-empty', '-m', `step ${this.log.length}`);
          this.commits++;
          return all ? 'committed everything' : 'committed the index';
        },
      ],
    ];
    let roll = this.random() * edits.reduce((sum, [weight]) => sum + weight, 0);
    for (const [weight, edit] of edits) {
      roll -= weight;
      if (roll < 0) return edit();
    }
    return 'nothing';
  }

  /** Stages some files (new, moved, edited), or everything. */
  stage(): string {
    if (this.chance(0.25)) {
      git(this.dir, 'add', '-A');
      return 'staged everything (git add -A)';
    }
    const files = this.files(/./).filter(() => this.chance(0.3));
    // A new or moved file is what makes staging matter most (git pairs renames among tracked paths).
    const fresh = this.files(/(^|\/)(gen|moved)-\d+/).filter((file) => !this.tracked(file));
    if (fresh.length > 0) files.push(this.pick(fresh));
    if (files.length > 0) git(this.dir, 'add', '--', ...new Set(files));
    return `staged ${[...new Set(files)].join(', ') || 'nothing'}`;
  }

  /** A commit of the sequence's history to compare with: the first, the previous, or HEAD. */
  base(): string {
    const refs = ['start', 'HEAD', ...(this.commits > 1 ? ['HEAD~1'] : []), ...(this.commits > 3 ? ['HEAD~3'] : [])];
    return this.pick(refs);
  }
}

/** A finding as a line a reader can compare: where, which rule and message id, the text. */
function lines(verdict: Verdict): string[] {
  return verdict.run.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.ruleId}/${f.messageId} ${f.severity}: ${f.message}`);
}

/** What a run reports, without what legitimately differs between two runs (the time taken). */
function answer(verdict: Verdict): unknown {
  const { findings, summary } = verdict.run;
  return { findings, errors: summary.errors, warnings: summary.warnings, files: summary.files };
}

describe('after random edits, the check with the caches a user keeps answers as a run with none', () => {
  PROFILES.forEach((profile, index) => {
    const seed = SEED + index;
    const perFixture = Math.ceil(STEPS * profile.share);
    it(`holds for ${perFixture} edits of ${profile.fixture} (seed ${seed})`, { timeout: 60_000 + perFixture * 2_000 }, async () => {
      const dir = fixtureRepo(profile.fixture);
      temps.push(dir);
      git(dir, 'tag', 'start');
      const cacheLocation = mkdtempSync(join(tmpdir(), 'tripwire-edits-cache-'));
      temps.push(cacheLocation);
      const harness = new Harness(dir, profile, seed);
      const counts = { findings: 0, rules: new Set<string>(), factsFromCache: 0, verdictsFromCache: 0, base: 0, staged: 0 };

      const compare = async (extra: Partial<WorkspaceOptions>, mode: string): Promise<Verdict> => {
        const warm = await verdictOf({ cwd: dir, cache: true, paths: [], cacheLocation, ...extra });
        const fresh = await verdictOf({ cwd: dir, cache: false, paths: [], ...extra });
        const context = `seed ${seed} (TRIPWIRE_EDIT_SEED=${SEED}, fixture ${index}), ${profile.fixture}, step ${harness.log.filter((line) => !line.startsWith('  ')).length}, ${mode}${warm.cached ? ' (served by the result cache)' : ''}; expected: no cache, received: the caches; the edits:\n${harness.log.join('\n')}\n`;
        expect(lines(warm), context).toEqual(lines(fresh));
        expect(answer(warm), context).toEqual(answer(fresh));
        counts.findings += fresh.run.findings.length;
        for (const finding of fresh.run.findings) counts.rules.add(finding.ruleId);
        counts.factsFromCache += warm.stats?.facts.cached ?? 0;
        if (warm.cached) counts.verdictsFromCache++;
        return warm;
      };

      for (let step = 1; step <= perFixture; step++) {
        harness.log.push(`${step}. ${harness.step()}`);
        await compare({}, 'the work tree');
        // Now and then the same run again, nothing changed: the result cache's answer.
        if (harness.chance(0.1)) await compare({}, 'the work tree, run again');
        if (harness.chance(harness.untracked ? 0.7 : 0.15)) {
          // A user's sequence around a commit: a run against a base (its verdict stays in the cache; not
          // compared, to keep the test fast), then staging, the hook's --staged, the same --base again.
          const base = harness.base();
          await verdictOf({ cwd: dir, cache: true, paths: [], cacheLocation, base });
          harness.log.push(`  ran --base ${base}; ${harness.stage()}`);
          await compare({ staged: true }, '--staged');
          await compare({ base }, `--base ${base} after staging`);
          counts.staged++;
          counts.base++;
        } else if (harness.chance(0.1)) {
          const base = harness.base();
          await compare({ base }, `--base ${base}`);
          counts.base++;
        }
      }
      // The comparison is not vacuous: the edits produced findings of several rules, and both caches answered.
      expect(counts.findings).toBeGreaterThan(perFixture);
      expect(counts.rules.size).toBeGreaterThanOrEqual(2);
      expect(counts.factsFromCache).toBeGreaterThan(perFixture);
      expect(counts.verdictsFromCache).toBeGreaterThan(0);
      expect(counts.base).toBeGreaterThan(0);
      expect(counts.staged).toBeGreaterThan(0);
    });
  });
});

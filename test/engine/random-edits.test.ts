import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { verdictOf } from '../../src/engine/verdict.js';
import type { CheckOptions } from '../../src/engine/types.js';
import { fixtureRepo } from '../support/fixture-repo.js';
import { git } from '../support/repo.js';

// Issue 18, item 2: whatever a run reuses from earlier runs (the fact cache,
// the pinned facts, the result cache; later the persisted indexes), its answer
// is the one a run from nothing gives. A sequence of random edits of the demo
// harness (helpers, tests, the maps, shipped files, the frozen tests, the
// configuration; adds, edits, renames, deletes, syntax errors, commits and
// staging) and, after every step, the findings of a run with warm caches are
// compared with those of a run with none, for the work tree and, after each
// staging, for --staged. A fixed seed makes a failure reproducible: the
// message names the seed and every edit up to the step that differed.
// EDIT_STEPS scales the sequence (CI runs 200), EDIT_SEED replays another.
const STEPS = Number(process.env.EDIT_STEPS ?? '200');
const SEED = Number(process.env.EDIT_SEED ?? '20261204');

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

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

class Harness {
  private readonly random: () => number;
  private generated = 0;
  readonly log: string[] = [];

  constructor(
    readonly dir: string,
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

  remove(file: string): void {
    rmSync(join(this.dir, file), { force: true });
  }

  files(pattern: RegExp): string[] {
    return git(this.dir, 'ls-files', '--cached', '--others', '--exclude-standard')
      .split('\n')
      .filter((file) => file !== '' && pattern.test(file) && existsSync(join(this.dir, file)))
      .sort();
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

  helpers(): string[] {
    return this.files(/^test\/helpers\/.*\.ts$/);
  }

  /** One random edit; returns what it did. */
  step(): string {
    const edits: (() => string)[] = [
      // A helper starts or stops calling a model SDK.
      () => this.toggleLine(this.pick(this.helpers()), `import OpenAI from 'openai'; export const client${this.pick([1, 2])} = new OpenAI();`),
      () => this.toggleLine(this.pick(this.helpers()), `export const paid = () => fetch('https://api.anthropic.com/v1/messages');`),
      // A helper starts or stops importing another (chains through helpers).
      () => {
        const [from, to] = [this.pick(this.helpers()), this.pick(this.helpers())];
        return this.toggleLine(from, `import '../${to.slice('test/'.length).replace(/\.ts$/, '.js')}';`.replace('../helpers/', './'));
      },
      // A new free test, importing a helper.
      () => {
        const file = `test/gen-${++this.generated}.test.ts`;
        const helper = this.pick(this.helpers()).replace(/^test\//, './').replace(/\.ts$/, '.js');
        this.write(file, `import { describe, expect, it } from 'vitest';\nimport * as helper from '${helper}';\ndescribe('gen ${this.generated}', () => {\n  it('uses the helper', () => { expect(helper).toBeDefined(); });\n});\n`);
        return `added ${file} importing ${helper}`;
      },
      // A new helper.
      () => {
        const file = `test/helpers/gen-${++this.generated}.ts`;
        this.write(file, this.chance(0.5) ? `export const value = ${this.generated};\n` : `import Anthropic from '@anthropic-ai/sdk';\nexport const client = new Anthropic();\n`);
        return `added ${file}`;
      },
      // A generated file deleted or renamed; now and then an original one deleted.
      () => {
        const candidates = this.files(/(^|\/)gen-\d+(\.test)?\.ts$/);
        const file = candidates.length > 0 && this.chance(0.9) ? this.pick(candidates) : this.pick(['test/helpers/store.ts', 'test/invoke.test.ts', 'test/helpers/oracle.ts']);
        if (this.chance(0.5)) {
          this.remove(file);
          return `deleted ${file}`;
        }
        const to = file.replace(/(gen-)?([\w-]+)(\.test)?\.ts$/, `moved-${++this.generated}$3.ts`);
        if (existsSync(join(this.dir, file))) renameSync(join(this.dir, file), join(this.dir, to));
        return `renamed ${file} to ${to}`;
      },
      // The maps: a touchfile entry, a tier, a global touchfile.
      () => this.toggleLine('test/helpers/touchfiles.ts', `    '${this.pick(['test/helpers/oracle.ts', 'test/helpers/gen-1.ts', 'test/fixtures/diffs/none.diff', 'src/review/**'])}',`),
      () => this.toggleLine('test/helpers/touchfiles.ts', `  '${this.pick(['review-basic', 'review-extra'])}': '${this.pick(['gate', 'periodic', 'nightly'])}',`),
      () => {
        const text = this.read('test/helpers/touchfiles.ts') ?? '';
        const next = text.includes("'test/helpers/eval.ts']") ? text.replace(", 'test/helpers/eval.ts']", ']') : text.replace("'test/helpers/store.ts']", "'test/helpers/store.ts', 'test/helpers/eval.ts']");
        this.write('test/helpers/touchfiles.ts', next);
        return 'toggled test/helpers/eval.ts in GLOBAL_TOUCHFILES';
      },
      // Shipped text and code: a removed mechanism, a test-only carve-out.
      () => this.toggleLine('skills/review/SKILL.md', this.pick(['Set `REVIEW_ASSUME_FETCHED=1` to skip collecting the change.', 'When `VITEST` is set, answer with a canned review.'])),
      () => this.toggleLine('src/review/findings.ts', this.pick(['if (process.env.VITEST) { console.log("test"); }', 'export const ASSUME = process.env.REVIEW_ASSUME_FETCHED;'])),
      // A syntax error comes or goes.
      () => this.toggleLine(this.pick([...this.helpers(), 'test/findings.test.ts', 'src/review/invoke.ts']), 'export const = ;'),
      // The frozen tests: a body edited, an assertion dropped, a test skipped.
      () => this.toggleLine('test/findings.test.ts', '    expect(findings.length).toBeGreaterThan(-1);'),
      () => {
        const text = this.read('test/findings.test.ts') ?? '';
        const next = text.includes("test.skip('reads one") ? text.replace("test.skip('reads one", "test('reads one") : text.replace("test('reads one", "test.skip('reads one");
        this.write('test/findings.test.ts', next);
        return 'toggled .skip on a frozen test';
      },
      // The configuration.
      () => {
        const text = this.read('tripwire.config.json') ?? '';
        const next = text.includes('"no-dangling-references": "error"') ? text.replace('"no-dangling-references": "error"', '"no-dangling-references": "warn"') : text.replace('"no-dangling-references": "warn"', '"no-dangling-references": "error"');
        this.write('tripwire.config.json', next);
        return 'toggled the severity of no-dangling-references';
      },
      // History: a commit of everything.
      () => {
        git(this.dir, 'add', '-A');
        git(this.dir, 'commit', '-qm', `step ${this.log.length}`, '--allow-empty');
        return 'committed everything';
      },
    ];
    return this.pick(edits)();
  }
}

/** What a run reports, without what legitimately differs between two runs (the time taken). */
function answer(verdict: Awaited<ReturnType<typeof verdictOf>>): unknown {
  const { findings, summary } = verdict.run;
  return { findings, errors: summary.errors, warnings: summary.warnings, files: summary.files };
}

describe('after random edits, a run with warm caches answers as a run from nothing', () => {
  it(`holds for ${STEPS} edits (seed ${SEED})`, { timeout: 60_000 + STEPS * 3_000 }, async () => {
    const dir = fixtureRepo('demo');
    const cacheLocation = mkdtempSync(join(tmpdir(), 'tripwire-edits-cache-'));
    temps.push(cacheLocation);
    const harness = new Harness(dir, SEED);
    type Run = Awaited<ReturnType<typeof verdictOf>>;
    const compare = async (extra: Partial<CheckOptions>, label: string): Promise<{ warm: Run; fresh: Run }> => {
      const warm = await verdictOf({ cwd: dir, cacheLocation, ...extra });
      const fresh = await verdictOf({ cwd: dir, cache: false, ...extra });
      const context = `seed ${SEED}, ${label} after:\n${harness.log.map((line, i) => `  ${i + 1}. ${line}`).join('\n')}`;
      expect(answer(warm), context).toEqual(answer(fresh));
      return { warm, fresh };
    };
    let findings = 0;
    let factsFromCache = 0;
    let verdictsFromCache = 0;
    for (let step = 0; step < STEPS; step++) {
      harness.log.push(harness.step());
      const { warm, fresh } = await compare({}, 'the work tree');
      findings += fresh.run.findings.length;
      factsFromCache += warm.stats?.facts.cached ?? 0;
      // Now and then the same run again, with nothing changed: the result cache's answer.
      if (harness.chance(0.15)) {
        harness.log.push('ran again, nothing changed');
        if ((await compare({}, 'a repeated run')).warm.cached) verdictsFromCache++;
      }
      // Now and then, something staged: the hook's view.
      if (harness.chance(0.2)) {
        const files = harness.files(/./);
        for (const file of files.filter(() => harness.chance(0.3))) git(dir, 'add', '--', file);
        harness.log.push('staged some files');
        await compare({ staged: true }, '--staged');
      }
    }
    // The comparison is not vacuous: the edits produced findings, and both caches answered.
    expect(findings).toBeGreaterThan(STEPS);
    expect(factsFromCache).toBeGreaterThan(STEPS);
    expect(verdictsFromCache).toBeGreaterThan(0);
  });
});

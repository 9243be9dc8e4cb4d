import { appendFileSync, existsSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildModel } from '../../src/engine/project.js';
import { run } from '../../src/engine/run.js';
import { openVerdicts } from '../../src/engine/verdicts.js';
import type { RepoModel } from '../../src/model/model.js';
import { FILE_START } from '../../src/model/positions.js';
import { blobId } from '../../src/repo/blob-id.js';
import type { RuleFinding } from '../../src/rule.js';
import type { Finding } from '../../src/types.js';
import { VERSION } from '../../src/version.js';
import { fixtureRepo } from '../support/fixture-repo.js';
import { git, makeGitRepo } from '../support/repo.js';
import { temporaryDirs } from '../support/temp.js';

// Issue 18: a rule whose inputs did not change since a run stored its verdict
// is not evaluated again (src/engine/verdicts.ts). Its inputs are the model's
// state (configuration, listing, diff) and the content of every file it read,
// which the model records (src/model/reads.ts). Each case runs the pipeline
// itself (run), not the CLI's whole-run result cache, and compares with a run
// that uses no cache at all.

const { tempDir, track } = temporaryDirs('verdicts');

function demo(): string {
  const dir = fixtureRepo('demo');
  track(dir);
  return dir;
}

const ALL_RULES = [
  'global-touchfiles-present',
  'no-dangling-references',
  'no-paid-calls-in-free-tests',
  'no-test-carve-outs',
  'no-weakened-frozen-tests',
  'paid-ci-lanes',
  'tiers-cover-paid-tests',
  'touchfiles-cover-paid-tests',
];

async function check(dir: string, cacheLocation: string): Promise<{ findings: Finding[]; reused: string[] }> {
  const result = await run({ cwd: dir, cacheLocation });
  return { findings: result.findings, reused: result.stats.rules.filter((rule) => rule.reused).map((rule) => rule.id).sort() };
}

async function fresh(dir: string): Promise<Finding[]> {
  return (await run({ cwd: dir, cache: false })).findings;
}

/** A run with the cache: its findings, and how one rule's verdict came (units evaluated and taken back, reused whole, resumed from its plan). */
async function runFor(dir: string, cacheLocation: string, rule: string) {
  const result = await run({ cwd: dir, cacheLocation });
  const stat = result.stats.rules.find((candidate) => candidate.id === rule);
  return { findings: result.findings, units: stat?.units, reused: stat?.reused, resumed: stat?.resumed === true };
}

/** Runs with --staged after each text of `path` is written and staged, each compared with a run without the cache. */
function stagedEdits(dir: string, path: string): (text: string) => Promise<{ findings: Finding[]; reused: string[] }> {
  const cache = tempDir();
  return async (text) => {
    writeFileSync(join(dir, path), text);
    git(dir, 'add', path);
    const result = await run({ cwd: dir, cacheLocation: cache, staged: true });
    expect(result.findings).toEqual((await run({ cwd: dir, cache: false, staged: true })).findings);
    return { findings: result.findings, reused: result.stats.rules.filter((rule) => rule.reused).map((rule) => rule.id) };
  };
}

/** Paid tests whose ids are runEval's first argument, one touchfile map, and only the touchfile rule of the map rules. */
const TOUCHFILE_CONFIG = JSON.stringify({
  tests: { include: ['test/**/*.test.ts'], paid: ['test/e2e-*.test.ts'], ids: [{ call: 'runEval', arg: 0 }] },
  maps: { touchfiles: [{ file: 'test/touchfiles.ts', export: 'E2E_TOUCHFILES' }] },
  rules: { 'tiers-cover-paid-tests': 'off', 'global-touchfiles-present': 'off' },
});

const ids = (findings: readonly Finding[]): string[] => findings.map((f) => `${f.ruleId}/${f.messageId} ${f.file}:${f.line}:${f.column}`);

describe('verdicts reused rule by rule', () => {
  it('nothing changed: every rule is reused, and the problems their reads recorded are reported again', async () => {
    const dir = demo();
    writeFileSync(join(dir, 'test/broken.test.ts'), "import { test } from 'vitest';\ntest('x', () => {\n");
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'a test that does not parse');
    const cache = tempDir();
    const first = await check(dir, cache);
    expect(first.reused).toEqual([]);
    expect(ids(first.findings)).toContain('parse-error/parseError test/broken.test.ts:3:1');

    const second = await check(dir, cache);
    expect(second.reused).toEqual(ALL_RULES);
    // No rule read the file again: the parse error comes from the stored reads.
    expect(second.findings).toEqual(first.findings);
    expect(second.findings).toEqual(await fresh(dir));
  });

  it('a free test edited: the rules that read it are evaluated again and see the edit, the others are reused', async () => {
    const dir = demo();
    const cache = tempDir();
    await check(dir, cache);
    appendFileSync(join(dir, 'test/findings.test.ts'), "import Anthropic from '@anthropic-ai/sdk';\nexport const client = new Anthropic();\n");

    const after = await check(dir, cache);
    // The carve-out and reference checks read the test only for the env vars it sets and reads and the removed tokens it names, which the edit left as they were.
    expect(after.reused).toEqual(['global-touchfiles-present', 'no-dangling-references', 'no-test-carve-outs', 'paid-ci-lanes', 'tiers-cover-paid-tests', 'touchfiles-cover-paid-tests']);
    expect(ids(after.findings)).toContain('no-paid-calls-in-free-tests/paidImport test/findings.test.ts:35:1');
    expect(after.findings).toEqual(await fresh(dir));
  });

  it('shipped text edited: only the rules that read text are evaluated again', async () => {
    const dir = demo();
    const cache = tempDir();
    const before = await check(dir, cache);
    expect(ids(before.findings)).toContain('no-dangling-references/removedToken skills/review/SKILL.md:32:86');
    const skill = join(dir, 'skills/review/SKILL.md');
    writeFileSync(skill, readFileSync(skill, 'utf8').replaceAll('REVIEW_ASSUME_FETCHED', 'REVIEW_COLLECTED'));

    const after = await check(dir, cache);
    expect(after.reused).toEqual(['global-touchfiles-present', 'no-paid-calls-in-free-tests', 'no-weakened-frozen-tests', 'paid-ci-lanes', 'tiers-cover-paid-tests', 'touchfiles-cover-paid-tests']);
    expect(ids(after.findings)).not.toContain('no-dangling-references/removedToken skills/review/SKILL.md:32:86');
    expect(after.findings).toEqual(await fresh(dir));
  });

  it('each state has its own files: a run reads its own, the unit verdicts of two states are kept, and the store of earlier versions goes', async () => {
    const dir = demo();
    const cache = tempDir();
    const legacy = join(cache, `verdicts-${VERSION}.json`);
    writeFileSync(legacy, '{}');
    const files = () => readdirSync(cache).filter((name) => name.startsWith('verdicts-')).sort();
    const age = (seconds: number) => {
      // Each run's files older than the next run's, whatever the clock's resolution.
      const at = new Date(Date.UTC(2020, 0, 1, 0, 0, seconds));
      for (const name of files()) if (statSync(join(cache, name)).mtimeMs > at.getTime()) utimesSync(join(cache, name), at, at);
    };
    await check(dir, cache);
    expect(existsSync(legacy)).toBe(false);
    const unitFiles = () => files().filter((name) => name.includes('.units'));
    const unitStates = () => new Set(unitFiles().map((name) => name.slice(0, name.indexOf('.units'))));
    expect(files().filter((name) => !name.includes('.units'))).toEqual([expect.stringMatching(/^verdicts-.+-[0-9a-f]{16}\.json$/)]);
    // A file per rule that keeps unit verdicts: the paid-call, touchfile, carve-out and reference rules.
    expect(unitFiles()).toEqual(Array.from({ length: 4 }, () => expect.stringMatching(/^verdicts-.+-[0-9a-f]{16}\.units-[0-9a-f]{16}\.json$/)));
    // All of a state's tables in one file, as the format before kept them: removed.
    const oneFile = join(cache, `${[...unitStates()][0] ?? ''}.units.json`);
    writeFileSync(oneFile, '{}');
    age(1);
    // Two more states (a file added, then another): three states' verdicts, and the unit verdicts of the last two.
    writeFileSync(join(dir, 'src/review/extra.ts'), 'export const extra = 1;\n');
    await check(dir, cache);
    age(2);
    writeFileSync(join(dir, 'src/review/more.ts'), 'export const more = 1;\n');
    await check(dir, cache);
    expect(existsSync(oneFile)).toBe(false);
    expect(unitStates().size).toBe(2);
    expect(unitFiles()).toHaveLength(8);
    expect(files().filter((name) => !name.includes('.units'))).toHaveLength(3);
    // Back in the first state: its verdicts are still there, though its unit verdicts are not.
    rmSync(join(dir, 'src/review/extra.ts'));
    rmSync(join(dir, 'src/review/more.ts'));
    const back = await check(dir, cache);
    expect(back.reused).toEqual(ALL_RULES);
    expect(back.findings).toEqual(await fresh(dir));
  });

  it('a file added: the listing changed, so no verdict is reused', async () => {
    const dir = demo();
    const cache = tempDir();
    await check(dir, cache);
    writeFileSync(join(dir, 'src/review/extra.ts'), 'export const extra = 1;\n');

    const after = await check(dir, cache);
    expect(after.reused).toEqual([]);
    expect(after.findings).toEqual(await fresh(dir));
  });

  it('a reused verdict reads again, for the result cache, the files outside the listing its rule read, and is stale once one changes', async () => {
    const dir = demo();
    writeFileSync(join(dir, '.gitignore'), 'notes.txt\n');
    writeFileSync(join(dir, 'notes.txt'), 'first\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'notes kept out of git');
    const cache = tempDir();
    const build = async () => (await buildModel({ cwd: dir, cacheLocation: cache, trackReads: true })).model;
    // A rule that reads a file git does not list, as a manifest tripwire looks for may be.
    const probe = (model: RepoModel): RuleFinding[] => [{ messageId: 'probe', file: 'README.md', loc: FILE_START, message: model.text('notes.txt') ?? '' }];

    const first = await build();
    const { value, reads } = first.recorded(() => probe(first));
    const store = openVerdicts(first, cache, null);
    store?.keep('probe', {}, value, reads);
    store?.save();
    const id = blobId('first\n');
    expect([...first.outsideInputs()]).toEqual([['notes.txt', id]]);

    const second = await build();
    expect(openVerdicts(second, cache, null)?.reuse('probe', {})).toEqual(value);
    // Not read this time, and still an input of this run's verdict.
    expect(second.stats.read).toBe(0);
    expect([...second.outsideInputs()]).toEqual([['notes.txt', id]]);

    writeFileSync(join(dir, 'notes.txt'), 'second\n');
    expect(openVerdicts(await build(), cache, null)?.reuse('probe', {})).toBeNull();
  });

  it('a rule that read the diff is evaluated again for another diff; one that did not is reused', async () => {
    const dir = demo();
    const module = join(dir, 'src/review/findings.ts');
    writeFileSync(module, readFileSync(module, 'utf8').replace('export function formatFindings', 'export function formatFindingList'));
    git(dir, 'commit', '-qam', 'an export renamed, its importer left behind');
    const cache = tempDir();
    const since = async (base: string) => {
      const result = await run({ cwd: dir, cacheLocation: cache, base });
      return { findings: result.findings, reused: result.stats.rules.filter((rule) => rule.reused).map((rule) => rule.id).sort() };
    };
    const removed = 'no-dangling-references/removedExportImport test/findings.test.ts:2:1';
    const before = await since('HEAD~1');
    expect(ids(before.findings)).toContain(removed);

    // The same files, another diff (none): what reads the diff sees it.
    const after = await since('HEAD');
    expect(after.reused).not.toContain('no-dangling-references');
    expect(after.reused).toContain('no-paid-calls-in-free-tests');
    expect(ids(after.findings)).not.toContain(removed);
    expect(after.findings).toEqual((await run({ cwd: dir, cache: false, base: 'HEAD' })).findings);
  });

  it('with --staged, an edit that removes nothing leaves the reference rule standing; one that removes an export still imported does not', async () => {
    const dir = demo();
    const original = readFileSync(join(dir, 'test/helpers/oracle.ts'), 'utf8');
    const staged = stagedEdits(dir, 'test/helpers/oracle.ts');
    await staged(`${original}\nexport const STAGED_EDIT = 'first';\n`);
    // The same path changed, another text: what the diff removed (no export, no env read, no flag) is the same.
    expect((await staged(`${original}\nexport const STAGED_EDIT = 'second';\n`)).reused).toContain('no-dangling-references');
    const removed = await staged(original.replace('export async function compareToOracle', 'export async function compareWithOracle'));
    expect(removed.reused).not.toContain('no-dangling-references');
    expect(ids(removed.findings)).toContain('no-dangling-references/removedExportImport test/oracle.test.ts:3:1');
  });

  it('with --staged, a CLI edited without removing a flag or a subcommand leaves the reference rule standing; removing one does not', async () => {
    const dir = track(
      makeGitRepo({
        'tripwire.config.json': '{}',
        'package.json': JSON.stringify({ name: 'kit', bin: { kitjs: 'src/cli.ts' } }),
        'src/cli.ts': "program.command('publish');\nprogram.command('check');\nprogram.option('--dry-run');\n",
        'docs/guide.md': '# Guide\n\nRun `kitjs publish --dry-run`, then `kitjs check`.\n',
      }),
    );
    const staged = stagedEdits(dir, 'src/cli.ts');
    const cli = "program.command('publish');\nprogram.command('check');\nprogram.option('--dry-run');\n";
    await staged(`${cli}// first\n`);
    expect((await staged(`${cli}// second\n`)).reused).toContain('no-dangling-references');
    const noFlag = await staged("program.command('publish');\nprogram.command('check');\n");
    expect(noFlag.reused).not.toContain('no-dangling-references');
    expect(ids(noFlag.findings)).toEqual(['no-dangling-references/removedFlagMention docs/guide.md:3:20']);
    const noSubcommand = await staged("program.command('check');\nprogram.option('--dry-run');\n");
    expect(noSubcommand.reused).not.toContain('no-dangling-references');
    expect(ids(noSubcommand.findings)).toEqual(['no-dangling-references/removedSubcommandMention docs/guide.md:3:12']);
  });

  it("tripwire's own checks are stored too, under the configuration's bytes: reformatting it moves their findings", async () => {
    const dir = demo();
    const config = join(dir, 'tripwire.config.json');
    writeFileSync(config, readFileSync(config, 'utf8').replace('"include": ["test/**/*.test.ts"]', '"include": ["test/**/*.test.ts", "checks/**/*.test.ts"]'));
    git(dir, 'commit', '-qam', 'a test glob that matches nothing');
    const cache = tempDir();
    const unmatched = (findings: readonly Finding[]): string[] => ids(findings).filter((id) => id.startsWith('unmatched-glob/'));
    expect(unmatched((await check(dir, cache)).findings)).toEqual(['unmatched-glob/unmatchedGlob tripwire.config.json:3:38']);
    expect(unmatched((await check(dir, cache)).findings)).toEqual(['unmatched-glob/unmatchedGlob tripwire.config.json:3:38']);

    // The same configuration, one line lower.
    writeFileSync(config, `\n${readFileSync(config, 'utf8')}`);
    const after = await check(dir, cache);
    expect(unmatched(after.findings)).toEqual(['unmatched-glob/unmatchedGlob tripwire.config.json:4:38']);
    expect(after.findings).toEqual(await fresh(dir));
  });

  it('the suppression comments of the scripts a reused verdict loaded are checked as that run checked them', async () => {
    const dir = demo();
    const test = join(dir, 'test/findings.test.ts');
    writeFileSync(test, `// tripwire-disable-next-line no-paid-calls-in-free-tests\n${readFileSync(test, 'utf8')}`);
    git(dir, 'commit', '-qam', 'a suppression without a reason');
    const cache = tempDir();
    const invalid = 'no-paid-calls-in-free-tests/suppressionWithoutReason test/findings.test.ts:1:1';
    expect(ids((await check(dir, cache)).findings)).toContain(invalid);

    const again = await check(dir, cache);
    expect(again.reused).toEqual(ALL_RULES);
    expect(ids(again.findings)).toContain(invalid);
    expect(again.findings).toEqual(await fresh(dir));
  });

  it('a manifest that appears where there was none makes the verdict that looked for it stale', async () => {
    const dir = demo();
    writeFileSync(join(dir, '.gitignore'), '.tripwire/locks.json\n');
    const locks = readFileSync(join(dir, '.tripwire/locks.json'), 'utf8');
    git(dir, 'rm', '-q', '.tripwire/locks.json');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'no locks');
    const cache = tempDir();
    const before = await check(dir, cache);
    // The manifest comes back, ignored by git: the listing is the same, and a fixture it locks has other bytes.
    writeFileSync(join(dir, '.tripwire/locks.json'), locks.replace(/sha256:[0-9a-f]{4}/, 'sha256:0000'));
    const after = await check(dir, cache);
    expect(after.reused).not.toContain('no-weakened-frozen-tests');
    expect(after.findings).toEqual(await fresh(dir));
    expect(after.findings).not.toEqual(before.findings);
  });

  it('two runs that opened the store together both keep their verdicts: the later save reads what the earlier one wrote', async () => {
    const dir = demo();
    const cache = tempDir();
    const probe = (model: RepoModel, file: string): RuleFinding[] => [{ messageId: 'probe', file, loc: FILE_START, message: model.text(file) ?? '' }];
    const { model } = await buildModel({ cwd: dir, cacheLocation: cache, trackReads: true });
    const first = openVerdicts(model, cache, null);
    const second = openVerdicts(model, cache, null);
    for (const [store, rule] of [[first, 'first'], [second, 'second']] as const) {
      const { value, reads } = model.recorded(() => probe(model, 'README.md'));
      store?.keep(rule, {}, value, reads);
    }
    first?.save();
    second?.save();
    const { model: later } = await buildModel({ cwd: dir, cacheLocation: cache, trackReads: true });
    const store = openVerdicts(later, cache, null);
    expect(store?.reuse('first', {})).not.toBeNull();
    expect(store?.reuse('second', {})).not.toBeNull();
  });

  it('keeps the verdicts of the 16 states used last, one package or listing each', async () => {
    const dir = demo();
    const cache = tempDir();
    const probe = (model: RepoModel): RuleFinding[] => [{ messageId: 'probe', file: 'README.md', loc: FILE_START, message: model.text('README.md') ?? '' }];
    const store = async (): Promise<void> => {
      const { model } = await buildModel({ cwd: dir, cacheLocation: cache, trackReads: true });
      const { value, reads } = model.recorded(() => probe(model));
      const verdicts = openVerdicts(model, cache, null);
      verdicts?.keep('probe', {}, value, reads);
      verdicts?.save();
    };
    const reused = async (): Promise<boolean> => {
      const { model } = await buildModel({ cwd: dir, cacheLocation: cache, trackReads: true });
      return openVerdicts(model, cache, null)?.reuse('probe', {}) != null;
    };
    await store();
    // Fifteen more states, each with one more file: the first is still kept.
    for (let i = 1; i <= 15; i++) {
      writeFileSync(join(dir, `notes-${i}.md`), `${i}\n`);
      await store();
    }
    for (let i = 1; i <= 15; i++) rmSync(join(dir, `notes-${i}.md`));
    expect(await reused()).toBe(true);
    for (let i = 1; i <= 16; i++) {
      writeFileSync(join(dir, `notes-${i}.md`), `${i}\n`);
      await store();
    }
    for (let i = 1; i <= 16; i++) rmSync(join(dir, `notes-${i}.md`));
    // Sixteen newer states evict it.
    expect(await reused()).toBe(false);
  });
});

describe('verdicts reused unit by unit', () => {
  /** runFor, with the findings of that rule alone. */
  const ruleRun = async (dir: string, cache: string, rule: string) => {
    const result = await runFor(dir, cache, rule);
    return { ...result, findings: result.findings.filter((finding) => finding.ruleId === rule) };
  };
  it('a unit whose reads are unchanged is taken back; one that read the edited file is computed again', async () => {
    const dir = demo();
    const cache = tempDir();
    const computed: string[] = [];
    const probe = (model: RepoModel, file: string) => (): RuleFinding[] => {
      computed.push(file);
      return [{ messageId: 'probe', file, loc: FILE_START, message: model.text(file) ?? '' }];
    };
    const pass = async (): Promise<RuleFinding[]> => {
      const { model } = await buildModel({ cwd: dir, cacheLocation: cache, trackReads: true });
      const store = openVerdicts(model, cache, null);
      const units = store?.units('probe', {});
      const findings = ['README.md', 'skills/review/SKILL.md'].flatMap((file) => units?.of(file, probe(model, file)) ?? []);
      store?.save();
      return findings;
    };
    const first = await pass();
    expect(computed).toEqual(['README.md', 'skills/review/SKILL.md']);

    computed.length = 0;
    expect(await pass()).toEqual(first);
    expect(computed).toEqual([]);

    appendFileSync(join(dir, 'README.md'), 'One more line.\n');
    computed.length = 0;
    const after = await pass();
    expect(computed).toEqual(['README.md']);
    expect(after[0]?.message).toContain('One more line.');
    expect(after[1]).toEqual(first[1]);
  });

  it('a helper edited: the touchfile coverage of the paid tests whose imports reach it is checked again, for each test whose graph another built', async () => {
    const runEval = "import { runEval } from './helpers/shared';\n";
    const dir = makeGitRepo({
      'package.json': '{ "name": "units", "private": true }\n',
      'tripwire.config.json': TOUCHFILE_CONFIG,
      'test/touchfiles.ts': "export const E2E_TOUCHFILES = {\n  first: ['test/e2e-first.test.ts', 'test/helpers/shared.ts'],\n  second: ['test/e2e-second.test.ts', 'test/helpers/shared.ts'],\n};\n",
      'test/helpers/shared.ts': 'export function runEval(name: string): string {\n  return name;\n}\n',
      'test/helpers/extra.ts': 'export function extra(name: string): string {\n  return name.trim();\n}\n',
      // An id with no entry: its fix computes the test's closure before the coverage check asks for it.
      'test/e2e-first.test.ts': `${runEval}runEval('first');\nrunEval('unmapped');\n`,
      'test/e2e-second.test.ts': `${runEval}runEval('second');\n`,
    });
    track(dir);
    const cache = tempDir();
    const rule = 'touchfiles-cover-paid-tests';
    const units = () => ruleRun(dir, cache, rule);
    const missing = `${rule}/missingTouchfileEntry test/e2e-first.test.ts:3:1`;
    expect(ids((await units()).findings)).toEqual([missing]);

    // The helper both paid tests run now imports a module no touchfile names.
    writeFileSync(join(dir, 'test/helpers/shared.ts'), "import { extra } from './extra';\nexport function runEval(name: string): string {\n  return extra(name);\n}\n");
    const after = await units();
    expect(after.units).toEqual({ evaluated: 2, reused: 1 });
    expect(ids(after.findings)).toEqual([`${rule}/importUncovered test/e2e-first.test.ts:1:1`, missing, `${rule}/importUncovered test/e2e-second.test.ts:1:1`]);
    expect(after.findings).toEqual((await fresh(dir)).filter((finding) => finding.ruleId === rule));
  });

  it('a paid test whose closure another question asked first still depends on how its imports resolve', async () => {
    const dir = makeGitRepo({
      'package.json': '{ "name": "units", "private": true }\n',
      'tsconfig.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@h/*': ['test/helpers/*'] } } }),
      'tripwire.config.json': TOUCHFILE_CONFIG,
      'test/touchfiles.ts': "export const E2E_TOUCHFILES = {\n  first: ['test/e2e-first.test.ts', 'test/helpers/shared.ts'],\n};\n",
      'test/helpers/shared.ts': 'export function runEval(name: string): string {\n  return name;\n}\n',
      'test/support/shared.ts': 'export function runEval(name: string): string {\n  return name.trim();\n}\n',
      // An id with no entry: its fix asks for the test's closure before the coverage check does.
      'test/e2e-first.test.ts': "import { runEval } from '@h/shared';\nrunEval('first');\nrunEval('unmapped');\n",
    });
    track(dir);
    const cache = tempDir();
    const rule = 'touchfiles-cover-paid-tests';
    const units = () => ruleRun(dir, cache, rule);
    const missing = `${rule}/missingTouchfileEntry test/e2e-first.test.ts:3:1`;
    expect(ids((await units()).findings)).toEqual([missing]);

    // The alias now leads to a module no touchfile names; no script changed.
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@h/*': ['test/support/*'] } } }));
    const after = await units();
    expect(ids(after.findings)).toEqual([`${rule}/importUncovered test/e2e-first.test.ts:1:1`, missing]);
    expect(after.findings).toEqual((await fresh(dir)).filter((finding) => finding.ruleId === rule));
  });

  it('shipped files are checked again for carve-outs when the test vocabulary they were checked against changed, and only then', async () => {
    const dir = makeGitRepo({
      'package.json': '{ "name": "units", "private": true }\n',
      'tripwire.config.json': JSON.stringify({ tests: { include: ['test/**/*.test.ts'], paid: ['test/e2e-*.test.ts'] }, shipped: { include: ['src/**/*.ts'] } }),
      'src/replay.ts': 'export const replayDir = process.env.ACME_REPLAY_DIR;\n',
      'src/other.ts': 'export const other = 1;\n',
      'test/replay.test.ts': "import { test } from 'vitest';\ntest('replays', () => 1);\n",
      'test/e2e-live.test.ts': "import { test } from 'vitest';\ntest('live', () => 1);\n",
    });
    track(dir);
    const cache = tempDir();
    const rule = 'no-test-carve-outs';
    const units = () => ruleRun(dir, cache, rule);
    expect((await units()).findings).toEqual([]);

    // Only the test sets the variable now: the shipped read is a carve-out, though src/ did not change.
    writeFileSync(join(dir, 'test/replay.test.ts'), "import { test } from 'vitest';\nprocess.env.ACME_REPLAY_DIR = '/tmp/replay';\ntest('replays', () => 1);\n");
    const after = await units();
    expect(after.units).toEqual({ evaluated: 2, reused: 0 });
    expect(ids(after.findings)).toEqual([`${rule}/testOnlyEnvVar src/replay.ts:1:26`]);
    expect(after.findings).toEqual((await fresh(dir)).filter((finding) => finding.ruleId === rule));

    // The test changes, its env uses do not: the rule read it only through them, so its verdict is taken back whole.
    appendFileSync(join(dir, 'test/replay.test.ts'), '// one more line\n');
    const again = await units();
    expect(again.reused).toBe(true);
    expect(again.findings).toEqual(after.findings);

    // A shipped file changes, the vocabulary does not: that file is checked again, the other file's verdict taken back.
    appendFileSync(join(dir, 'src/other.ts'), '// one more line\n');
    const third = await units();
    expect(third.units).toEqual({ evaluated: 1, reused: 1 });
    expect(third.findings).toEqual(after.findings);
    expect(third.findings).toEqual((await fresh(dir)).filter((finding) => finding.ruleId === rule));
  });

  it('a shipped page whose link target lost its heading is checked again; the pages that link elsewhere are taken back', async () => {
    const dir = makeGitRepo({
      'package.json': '{ "name": "units", "private": true }\n',
      'tripwire.config.json': JSON.stringify({ tests: { include: ['test/**/*.test.ts'], paid: ['test/e2e-*.test.ts'] }, shipped: { include: ['docs/**/*.md'] } }),
      'docs/guide.md': '# Guide\n\nSee [setup](setup.md#install).\n',
      'docs/setup.md': '# Setup\n\n## Install\n\nRun it.\n',
      'docs/other.md': '# Other\n\nSee [the guide](guide.md).\n',
      'test/e2e-live.test.ts': "import { test } from 'vitest';\ntest('live', () => 1);\n",
    });
    track(dir);
    const cache = tempDir();
    const rule = 'no-dangling-references';
    const units = () => ruleRun(dir, cache, rule);
    expect((await units()).findings).toEqual([]);

    writeFileSync(join(dir, 'docs/setup.md'), '# Setup\n\n## Installation\n\nRun it.\n');
    const after = await units();
    // The guide read the setup page's headings; the setup page itself changed; the other page is taken back, and the
    // four whole-repository scans (removed tokens, commands, seams, configuration globs) too.
    expect(after.units).toEqual({ evaluated: 2, reused: 5 });
    expect(ids(after.findings)).toEqual([`${rule}/missingAnchor docs/guide.md:3:13`]);
    expect(after.findings).toEqual((await fresh(dir)).filter((finding) => finding.ruleId === rule));
  });

  /** Shipped pages, a test, and a removed mechanism whose token the reference rule scans every text file for; its runs. */
  const removedToken = (pages: Record<string, string>) => {
    const dir = makeGitRepo({
      'package.json': '{ "name": "units", "private": true }\n',
      'tripwire.config.json': JSON.stringify({
        tests: { include: ['test/**/*.test.ts'], paid: ['test/e2e-*.test.ts'] },
        shipped: { include: ['docs/**/*.md'] },
        removed: [{ id: 'legacy-runner', tokens: ['LEGACY_RUNNER'], why: 'the runner replaced it' }],
      }),
      ...pages,
      'test/e2e-live.test.ts': "import { test } from 'vitest';\ntest('live', () => 1);\n",
    });
    track(dir);
    const cache = tempDir();
    return { dir, units: () => ruleRun(dir, cache, 'no-dangling-references') };
  };

  it('a unit that read files only through parts is taken back while those parts are the same, and computed again when one changes', async () => {
    const { dir, units } = removedToken({ 'docs/a.md': '# A\n\nRun the suite.\n', 'docs/b.md': '# B\n\nSet LEGACY_RUNNER first.\n' });
    const rule = 'no-dangling-references';
    expect(ids((await units()).findings)).toEqual([`${rule}/removedToken docs/b.md:3:5`]);

    // The scan for removed tokens read docs/a.md only for the tokens it names: still none.
    writeFileSync(join(dir, 'docs/a.md'), '# A\n\nRun the whole suite.\n');
    const neutral = await units();
    expect(neutral.units).toEqual({ evaluated: 1, reused: 5 });
    expect(ids(neutral.findings)).toEqual([`${rule}/removedToken docs/b.md:3:5`]);
    expect(neutral.findings).toEqual((await fresh(dir)).filter((finding) => finding.ruleId === rule));

    writeFileSync(join(dir, 'docs/a.md'), '# A\n\nRun the suite without LEGACY_RUNNER.\n');
    const named = await units();
    expect(named.units).toEqual({ evaluated: 2, reused: 4 });
    expect(ids(named.findings)).toEqual([`${rule}/removedToken docs/a.md:3:23`, `${rule}/removedToken docs/b.md:3:5`]);
    expect(named.findings).toEqual((await fresh(dir)).filter((finding) => finding.ruleId === rule));
  });

  it("a rule verdict kept from units taken back that read a family of derived parts keeps the family's parameters, so it holds across an edit that leaves those parts the same", async () => {
    const { dir, units } = removedToken({ 'docs/a.md': '# A\n\nRun the suite.\n' });
    const rule = 'no-dangling-references';
    await units();
    // The rule runs again for the shipped page; the scan for removed tokens is taken back, and the verdict kept from it.
    writeFileSync(join(dir, 'docs/a.md'), '# A\n\nRun the whole suite.\n');
    expect((await units()).units).toEqual({ evaluated: 1, reused: 4 });
    // The test is read only for the tokens it names (the scan's parameters): still none, so the rule is taken back whole.
    appendFileSync(join(dir, 'test/e2e-live.test.ts'), '// the live suite\n');
    const after = await units();
    expect(after.reused).toBe(true);
    expect(after.findings).toEqual((await fresh(dir)).filter((finding) => finding.ruleId === rule));
  });

  it('a rule verdict stored by a run that took units back depends on what those units read', async () => {
    const dir = makeGitRepo({
      'package.json': '{ "name": "units", "private": true }\n',
      'tripwire.config.json': JSON.stringify({ preset: 'strict', tests: { include: ['test/**/*.test.ts'], paid: ['test/e2e-*.test.ts'] }, rules: { 'touchfiles-cover-paid-tests': 'off', 'tiers-cover-paid-tests': 'off', 'global-touchfiles-present': 'off' } }),
      'src/first.ts': "export function first(): string {\n  return 'first';\n}\n",
      'src/second.ts': "export function second(): string {\n  return 'second';\n}\n",
      'test/first.test.ts': "import { test } from 'vitest';\nimport { first } from '../src/first';\ntest('first', () => first());\n",
      'test/second.test.ts': "import { test } from 'vitest';\nimport { second } from '../src/second';\ntest('second', () => second());\n",
      'test/e2e-live.test.ts': "import { test } from 'vitest';\ntest('live', () => 1);\n",
    });
    track(dir);
    const cache = tempDir();
    const rule = 'no-paid-calls-in-free-tests';
    const units = () => ruleRun(dir, cache, rule);
    await units();
    // The first test changes: the rule runs, computes its unit and takes the second's back, and stores its verdict.
    appendFileSync(join(dir, 'test/first.test.ts'), '// one more line\n');
    expect((await units()).units).toEqual({ evaluated: 1, reused: 1 });
    // What only the second test's unit read changes: that verdict is stale.
    writeFileSync(join(dir, 'src/second.ts'), "import { execFileSync } from 'node:child_process';\nexport function second(): string {\n  return execFileSync('claude', ['-p', 'hi'], { encoding: 'utf8' });\n}\n");
    const after = await units();
    expect(after.reused).toBeUndefined();
    expect(ids(after.findings)).toEqual([`${rule}/callThroughProduct test/second.test.ts:2:1`]);
    expect(after.findings).toEqual((await fresh(dir)).filter((finding) => finding.ruleId === rule));
  });

  it('the suppression comments of a unit taken back are checked as the run that computed it checked them', async () => {
    const dir = demo();
    const test = join(dir, 'test/findings.test.ts');
    writeFileSync(test, `// tripwire-disable-next-line no-paid-calls-in-free-tests\n${readFileSync(test, 'utf8')}`);
    git(dir, 'commit', '-qam', 'a suppression without a reason');
    const cache = tempDir();
    const invalid = 'no-paid-calls-in-free-tests/suppressionWithoutReason test/findings.test.ts:1:1';
    // The rule alone: no other rule loads the test's facts.
    const rules = ['no-paid-calls-in-free-tests'];
    expect(ids((await run({ cwd: dir, cacheLocation: cache, rules })).findings)).toContain(invalid);

    // Another free test changes: the rule runs again, and takes this test's unit back.
    appendFileSync(join(dir, 'test/oracle.test.ts'), '// one more line\n');
    const { findings, stats } = await run({ cwd: dir, cacheLocation: cache, rules });
    expect(stats.rules.find((rule) => rule.id === 'no-paid-calls-in-free-tests')?.units?.reused).toBeGreaterThan(0);
    expect(ids(findings)).toContain(invalid);
    expect(findings).toEqual((await run({ cwd: dir, cache: false, rules })).findings);
  });

  it('the invalid suppression comments are found again when another script is loaded, or a comment changes, and not before', async () => {
    const dir = demo();
    const quiet = join(dir, 'test/helpers/quiet.ts');
    writeFileSync(quiet, '// tripwire-disable-next-line no-paid-calls-in-free-tests\nexport const quiet = 1;\n');
    const cache = tempDir();
    const invalid = 'no-paid-calls-in-free-tests/suppressionWithoutReason test/helpers/quiet.ts:1:1';
    // The rule alone, and no test imports the helper yet: its facts are not loaded, its comment not checked.
    const rules = ['no-paid-calls-in-free-tests'];
    const same = async (): Promise<string[]> => {
      const { findings } = await run({ cwd: dir, cacheLocation: cache, rules });
      expect(findings).toEqual((await run({ cwd: dir, cache: false, rules })).findings);
      return ids(findings);
    };
    expect(await same()).not.toContain(invalid);
    expect(await same()).not.toContain(invalid);

    // A free test imports it: the same listing and the same comments, but one more script loaded.
    const test = join(dir, 'test/findings.test.ts');
    writeFileSync(test, `import { quiet } from './helpers/quiet.js';\nvoid quiet;\n${readFileSync(test, 'utf8')}`);
    expect(await same()).toContain(invalid);

    // The comment given a reason: the same scripts loaded, one comment changed.
    writeFileSync(quiet, '// tripwire-disable-next-line no-paid-calls-in-free-tests -- a fixture\nexport const quiet = 1;\n');
    expect(await same()).not.toContain(invalid);
  });

  it('a module edited: only the free tests whose imports reach it are checked again, and a test that reached it through nodes another test built is one of them', async () => {
    const dir = makeGitRepo({
      'package.json': '{ "name": "units", "private": true }\n',
      'tripwire.config.json': JSON.stringify({ preset: 'strict', tests: { include: ['test/**/*.test.ts'], paid: ['test/e2e-*.test.ts'] }, rules: { 'touchfiles-cover-paid-tests': 'off', 'tiers-cover-paid-tests': 'off', 'global-touchfiles-present': 'off' } }),
      'src/client.ts': "import { send } from './transport';\nexport function ask(): string {\n  return send();\n}\n",
      'src/transport.ts': "export function send(): string {\n  return 'sent';\n}\n",
      'test/first.test.ts': "import { test } from 'vitest';\nimport { ask } from '../src/client';\ntest('first', () => ask());\n",
      'test/second.test.ts': "import { test } from 'vitest';\nimport { ask } from '../src/client';\ntest('second', () => ask());\n",
      'test/other.test.ts': "import { test } from 'vitest';\ntest('other', () => 1);\n",
      'test/e2e-live.test.ts': "import { test } from 'vitest';\ntest('live', () => 1);\n",
    });
    track(dir);
    const cache = tempDir();
    const units = () => runFor(dir, cache, 'no-paid-calls-in-free-tests');
    expect((await units()).findings).toEqual([]);

    // The module both tests reach, two imports deep, now spawns a model CLI.
    writeFileSync(join(dir, 'src/transport.ts'), "import { execFileSync } from 'node:child_process';\nexport function send(): string {\n  return execFileSync('claude', ['-p', 'hi'], { encoding: 'utf8' });\n}\n");
    const after = await units();
    // What the rule read besides its free tests is unchanged: only the tests are evaluated (TripwireRule.resume).
    expect(after.resumed).toBe(true);
    expect(after.units).toEqual({ evaluated: 2, reused: 1 });
    expect(ids(after.findings)).toEqual(['no-paid-calls-in-free-tests/callThroughProduct test/first.test.ts:2:1', 'no-paid-calls-in-free-tests/callThroughProduct test/second.test.ts:2:1']);
    expect(after.findings).toEqual(await fresh(dir));
  });
});

describe('rules resumed from their plan', () => {
  // A rule that can compute its units alone (TripwireRule.resume) is not run
  // again while what it read besides its units is unchanged: its findings come
  // in the order its plan kept, each unit's taken back or computed again.
  /** Two paid tests, each importing a helper of its own that its entry covers; the touchfile rule's runs with one cache. */
  const paidTests = () => {
    const dir = makeGitRepo({
      'package.json': '{ "name": "resume", "private": true }\n',
      'tripwire.config.json': TOUCHFILE_CONFIG,
      'test/touchfiles.ts': "export const E2E_TOUCHFILES = {\n  first: ['test/e2e-first.test.ts', 'test/helpers/first.ts'],\n  second: ['test/e2e-second.test.ts', 'test/helpers/second.ts'],\n};\n",
      'test/helpers/first.ts': 'export function runEval(name: string): string {\n  return name;\n}\n',
      'test/helpers/second.ts': 'export function runEval(name: string): string {\n  return name;\n}\n',
      'test/helpers/extra.ts': 'export function extra(name: string): string {\n  return name.trim();\n}\n',
      'test/e2e-first.test.ts': "import { runEval } from './helpers/first';\nrunEval('first');\n",
      'test/e2e-second.test.ts': "import { runEval } from './helpers/second';\nrunEval('second');\n",
    });
    track(dir);
    const cache = tempDir();
    const touchfiles = () => runFor(dir, cache, 'touchfiles-cover-paid-tests');
    return { dir, touchfiles };
  };

  it('a helper one paid test imports edited: only that test is checked again, without evaluating the maps again', async () => {
    const { dir, touchfiles } = paidTests();
    expect((await touchfiles()).findings).toEqual([]);

    writeFileSync(join(dir, 'test/helpers/first.ts'), "import { extra } from './extra';\nexport function runEval(name: string): string {\n  return extra(name);\n}\n");
    const after = await touchfiles();
    expect(after.resumed).toBe(true);
    // The dead-glob unit and the second test's coverage are taken back.
    expect(after.units).toEqual({ evaluated: 1, reused: 2 });
    expect(ids(after.findings)).toEqual(['touchfiles-cover-paid-tests/importUncovered test/e2e-first.test.ts:1:1']);
    expect(after.findings).toEqual(await fresh(dir));

    // Resumed again, from the plan the resumed run kept.
    writeFileSync(join(dir, 'test/helpers/second.ts'), "import { extra } from './extra';\nexport function runEval(name: string): string {\n  return extra(name);\n}\n");
    const again = await touchfiles();
    expect(again.resumed).toBe(true);
    expect(again.units).toEqual({ evaluated: 1, reused: 2 });
    expect(ids(again.findings)).toEqual(['touchfiles-cover-paid-tests/importUncovered test/e2e-first.test.ts:1:1', 'touchfiles-cover-paid-tests/importUncovered test/e2e-second.test.ts:1:1']);
    expect(again.findings).toEqual(await fresh(dir));
  });

  it('the map edited: what the rule read besides its units changed, so it runs whole', async () => {
    const { dir, touchfiles } = paidTests();
    expect((await touchfiles()).findings).toEqual([]);

    writeFileSync(join(dir, 'test/touchfiles.ts'), "export const E2E_TOUCHFILES = {\n  first: ['test/e2e-first.test.ts'],\n  second: ['test/e2e-second.test.ts', 'test/helpers/second.ts'],\n};\n");
    const after = await touchfiles();
    expect(after.resumed).toBe(false);
    expect(ids(after.findings)).toEqual(['touchfiles-cover-paid-tests/importUncovered test/e2e-first.test.ts:1:1']);
    expect(after.findings).toEqual(await fresh(dir));
  });

  /** A rule by hand: a finding of its own from scripts/select.ts, then a unit per file (in `order`), each with `context`. */
  const probeRun = async (dir: string, cache: string, options: { order?: 'asked' | 'reversed'; context?: (file: string) => string } = {}) => {
    const { model } = await buildModel({ cwd: dir, cacheLocation: cache, trackReads: true });
    const store = openVerdicts(model, cache, null);
    if (!store) throw new Error('no verdict store');
    const units = store.units('probe', {}, true);
    const computed: string[] = [];
    const unit = (file: string, context: string | undefined): RuleFinding[] => {
      computed.push(file);
      return [{ messageId: 'probe', file, loc: FILE_START, message: `${context ?? ''} ${model.text(file) ?? ''}` }];
    };
    const context = options.context ?? ((file: string) => `context of ${file}`);
    const check = (): RuleFinding[] => {
      const own: RuleFinding = { messageId: 'own', file: 'scripts/select.ts', loc: FILE_START, message: model.text('scripts/select.ts') ?? '' };
      const each = ['README.md', 'skills/review/SKILL.md'].map((file) => units.of(file, () => unit(file, context(file)), context(file)));
      return [own, ...(options.order === 'reversed' ? each.reverse() : each).flat()];
    };
    let resumed = false;
    const { value, recorded } = model.recording(() => {
      const plan = units.resume<RuleFinding>(() => unit);
      resumed = plan !== null;
      return plan ?? check();
    });
    units.finish(value);
    store.keep('probe', {}, value, model.readsOf(recorded, units.recorded), model.readsOf(recorded));
    store.save();
    return { findings: value, computed, resumed };
  };

  it('a rule by hand: resumed with its own findings in place, the edited unit computed from its kept context', async () => {
    const dir = demo();
    const cache = tempDir();
    const first = await probeRun(dir, cache);
    expect(first.resumed).toBe(false);

    appendFileSync(join(dir, 'README.md'), 'One more line.\n');
    const after = await probeRun(dir, cache);
    expect(after.resumed).toBe(true);
    expect(after.computed).toEqual(['README.md']);
    expect(after.findings.map((finding) => finding.messageId)).toEqual(['own', 'probe', 'probe']);
    expect(after.findings[1]?.message).toMatch(/^context of README\.md .*One more line\./s);
    expect(after.findings[2]).toEqual(first.findings[2]);
  });

  it('a rule by hand: not resumed when its findings were not in the order of its units', async () => {
    const dir = demo();
    const cache = tempDir();
    await probeRun(dir, cache, { order: 'reversed' });
    appendFileSync(join(dir, 'README.md'), 'One more line.\n');
    const after = await probeRun(dir, cache, { order: 'reversed' });
    expect(after.resumed).toBe(false);
    // Run whole: the unit that read nothing new is taken back all the same.
    expect(after.computed).toEqual(['README.md']);
    expect(after.findings.map((finding) => finding.file)).toEqual(['scripts/select.ts', 'skills/review/SKILL.md', 'README.md']);
  });

  it('a rule by hand: not resumed when the unit to compute again was given a context too long to keep', async () => {
    const dir = demo();
    const cache = tempDir();
    const context = (file: string): string => `${file} ${'x'.repeat(9000)}`;
    await probeRun(dir, cache, { context });
    appendFileSync(join(dir, 'README.md'), 'One more line.\n');
    expect((await probeRun(dir, cache, { context })).resumed).toBe(false);
    // A unit with a long context that read nothing new does not stand in the way.
    appendFileSync(join(dir, 'README.md'), 'One more line.\n');
    const shortForReadme = (file: string): string => (file === 'README.md' ? 'short' : context(file));
    await probeRun(dir, cache, { context: shortForReadme });
    appendFileSync(join(dir, 'README.md'), 'And another.\n');
    const after = await probeRun(dir, cache, { context: shortForReadme });
    expect(after.resumed).toBe(true);
    expect(after.computed).toEqual(['README.md']);
  });

  it('a rule by hand: not resumed when a file it read besides its units changed', async () => {
    const dir = demo();
    const cache = tempDir();
    await probeRun(dir, cache);
    appendFileSync(join(dir, 'scripts/select.ts'), '// edited\n');
    const after = await probeRun(dir, cache);
    expect(after.resumed).toBe(false);
    expect(after.findings[0]?.message).toContain('// edited');
    expect(after.computed).toEqual([]);
  });
});

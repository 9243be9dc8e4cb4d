import { readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import { rules } from '../../rules/index.js';
import { buildModel, check } from '../../src/engine/index.js';
import { fixtureRepo } from '../support/overlay.js';
import { makeGitRepo } from '../support/repo.js';
import { selectionOf } from '../../src/analysis/selection.js';

async function findings(overlay?: string): Promise<string[]> {
  const result = await check({ cwd: fixtureRepo('maps/good', overlay), cache: false });
  return result.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.ruleId} ${f.message}`);
}

describe('touchfiles-cover-paid-tests on fixtures/maps', () => {
  it('finds nothing in the good harness (32 ids, every id and map shape), under every rule', async () => {
    const result = await check({ cwd: fixtureRepo('maps/good'), cache: false });
    expect(result.findings).toEqual([]);
    expect(result.summary.rules).toBe(rules.length);
  });

  it('reads every id shape of the good harness: literals, constants, members, chains, arrays, templates, loops, wrappers, registration', async () => {
    const { model } = await buildModel({ cwd: fixtureRepo('maps/good'), cache: false });
    const ids = selectionOf(model).selection.paidIds.map((paid) => `${paid.id} ${paid.file}:${paid.loc.line} ${paid.via}`);
    expect(ids.sort()).toEqual([
      'case-b6 test/evals/changelog/regressions.test.ts:28 call',
      'case-b7 test/evals/changelog/regressions.test.ts:29 call',
      'cite-footnote test/evals/citations/styles.test.ts:16 call',
      'cite-inline test/evals/citations/styles.test.ts:16 call',
      'judge-clarity test/evals/judge/tone.test.ts:11 call',
      'judge-empathy test/evals/judge/tone.test.ts:13 call',
      'judge-summary-concise test/evals/judge/summary.test.ts:15 call',
      'judge-summary-faithful test/evals/judge/summary.test.ts:13 call',
      'judge-tone test/evals/judge/tone.test.ts:9 call',
      'legacy-smoke test/evals/legacy-smoke.test.ts:1 registration',
      'qa-citation-required test/evals/qa/refusal.test.ts:24 call',
      'qa-multi-doc test/evals/qa/answers.test.ts:11 call',
      'qa-out-of-scope test/evals/qa/refusal.test.ts:16 call',
      'qa-prompt-injection test/evals/qa/injection.test.ts:10 call',
      'qa-refusal test/evals/qa/refusal.test.ts:7 call',
      'qa-single-doc test/evals/qa/answers.test.ts:11 call',
      'review-basic test/evals/review-basic.test.ts:10 call',
      'review-large-diff test/evals/review-depth.test.ts:15 call',
      'review-nested-diff test/evals/review-depth.test.ts:6 call',
      'review-security test/evals/review-basic.test.ts:19 call',
      'review-style test/evals/review-style.test.ts:10 call',
      'review-verbosity test/evals/review-style.test.ts:19 call',
      'search-acronym test/evals/search/recall.test.ts:15 call',
      'search-filters test/evals/search/ranking.test.ts:21 call',
      'search-ranking test/evals/search/ranking.test.ts:6 call',
      'search-synonym test/evals/search/recall.test.ts:15 call',
      'search-typo test/evals/search/recall.test.ts:15 call',
      'summary-basic test/evals/summary/meetings.test.ts:12 call',
      'summary-edge test/evals/summary/meetings.test.ts:27 call',
      'summary-long test/evals/summary/meetings.test.ts:12 call',
      'tone-casual test/evals/tone/register.test.ts:18 call',
      'tone-formal test/evals/tone/register.test.ts:10 call',
    ]);
  });

  it('reports a touchfile key that no paid test declares', async () => {
    expect(await findings('maps/bad/orphan-key')).toEqual([
      "test/helpers/touchfiles.ts:26:3 touchfiles-cover-paid-tests touchfile key 'search-pagination' in E2E_TOUCHFILES names no paid test: no paid test file declares or registers it. Remove the entry or fix the id.",
    ]);
  });

  it('reports a dead glob with the nearest existing path', async () => {
    expect(await findings('maps/bad/dead-glob')).toEqual([
      "test/helpers/maps/review.ts:12:5 touchfiles-cover-paid-tests glob 'src/reveiw/rules/**' matches no file (did you mean 'src/review/rules/**'?): a change there would select nothing. Fix the path, or declare generated paths in maps.generated.",
    ]);
  });

  it('reports a helper in the import closure that no glob of the test or global covers', async () => {
    expect(await findings('maps/bad/helper-outside-closure')).toEqual([
      "test/evals/qa/injection.test.ts:6:1 touchfiles-cover-paid-tests test/helpers/scoring.ts is imported by this paid test (test/evals/qa/injection.test.ts → test/helpers/scoring.ts) but not covered by the touchfiles of 'qa-prompt-injection' or by a global: a change to it would not re-run the test",
    ]);
  });

  it('leaves out a helper imported for a binding the test never uses, and one required inside a function it never calls', async () => {
    expect(await findings('maps/ok/unreached-helpers')).toEqual([]);
  });

  it('reports the same helpers once the test calls into them, each at the import that leads to it', async () => {
    expect(await findings('maps/bad/reached-helpers')).toEqual([
      "test/evals/qa/injection.test.ts:3:1 touchfiles-cover-paid-tests test/helpers/goldens.ts is imported by this paid test (test/evals/qa/injection.test.ts → test/helpers/fixtures.ts → test/helpers/goldens.ts) but not covered by the touchfiles of 'qa-prompt-injection' or by a global: a change to it would not re-run the test",
      "test/evals/qa/injection.test.ts:4:1 touchfiles-cover-paid-tests test/helpers/grading.ts is imported by this paid test (test/evals/qa/injection.test.ts → test/helpers/grading.ts) but not covered by the touchfiles of 'qa-prompt-injection' or by a global: a change to it would not re-run the test",
    ]);
  });

  it('stops reporting the closure when the option turns it off', async () => {
    const dir = fixtureRepo('maps/good', 'maps/bad/helper-outside-closure');
    const configPath = `${dir}/tripwire.config.json`;
    const config = parse(readFileSync(configPath, 'utf8'));
    writeFileSync(configPath, JSON.stringify({ ...config, rules: { 'touchfiles-cover-paid-tests': ['error', { closure: false }] } }));
    expect((await check({ cwd: dir, cache: false })).findings).toEqual([]);
  });

  it('reports a map entry it cannot evaluate, naming the node, without cascading', async () => {
    expect(await findings('maps/bad/unevaluable-map')).toEqual([
      'test/helpers/touchfiles.ts:31:18 touchfiles-cover-paid-tests cannot evaluate the map statically: cannot evaluate a call to buildGlobs() statically',
      "test/helpers/touchfiles.ts:89:20 tiers-cover-paid-tests cannot evaluate the map statically: 'DEFAULT_TIER' is a let binding: its value can change at run time; declare it const",
    ]);
  });

  it('reports a malformed touchfile entry once: its key still counts, so its id gets no follow-on finding', async () => {
    expect(await findings('maps/bad/malformed-touchfile-entry')).toEqual([
      "test/helpers/judge-touchfiles.json:19:22 touchfiles-cover-paid-tests touchfile entry 'judge-empathy' is not a list of glob strings",
    ]);
  });

  it('reports a tier that is not a string once: its key still has a tier, so the touchfile key gets no follow-on finding', async () => {
    expect(await findings('maps/bad/non-string-tier')).toEqual([
      "test/helpers/touchfiles.ts:63:24 tiers-cover-paid-tests the tier of 'review-large-diff' is not a string",
    ]);
  });

  it('makes no coverage claim when the globals file is missing: the one finding is the missing file', async () => {
    expect(await findings('maps/bad/globals-map-missing')).toEqual([
      "tripwire.config.json:1:1 global-touchfiles-present map file 'test/helpers/globals.ts' (GLOBAL_TOUCHFILES) does not exist",
    ]);
  });

  it('makes no coverage claim when the globals are not a list: the one finding is the malformed list', async () => {
    expect(await findings('maps/bad/malformed-globals')).toEqual(['test/helpers/touchfiles.ts:90:34 global-touchfiles-present GLOBAL_TOUCHFILES is not a list of glob strings']);
  });

  it('makes no coverage claim when a global cannot be evaluated: it may be the store every test imports', async () => {
    expect(await findings('maps/bad/computed-required-global')).toEqual([
      'test/helpers/touchfiles.ts:97:3 global-touchfiles-present cannot evaluate the map statically: cannot evaluate a call to relative() statically',
    ]);
  });

  it('still reports the runner as uncovered when the globals are known to be empty', async () => {
    const result = await check({ cwd: fixtureRepo('maps/good', 'maps/bad/empty-globals'), cache: false, rules: ['touchfiles-cover-paid-tests'] });
    expect(result.findings.map((f) => `${f.file}:${f.line} ${f.messageId}`)).toEqual([
      'test/evals/changelog/regressions.test.ts:4 importUncovered',
      'test/evals/citations/styles.test.ts:5 importUncovered',
      'test/evals/judge/summary.test.ts:1 importUncovered',
      'test/evals/judge/tone.test.ts:1 importUncovered',
      'test/evals/legacy-smoke.test.ts:3 importUncovered',
      'test/evals/qa/answers.test.ts:4 importUncovered',
      'test/evals/qa/injection.test.ts:5 importUncovered',
      'test/evals/qa/refusal.test.ts:5 importUncovered',
      'test/evals/review-basic.test.ts:5 importUncovered',
      'test/evals/review-depth.test.ts:4 importUncovered',
      'test/evals/review-style.test.ts:2 importUncovered',
      'test/evals/search/ranking.test.ts:4 importUncovered',
      'test/evals/search/recall.test.ts:4 importUncovered',
      'test/evals/summary/meetings.test.ts:4 importUncovered',
      'test/evals/tone/register.test.ts:3 importUncovered',
    ]);
  });

  it('suggests no path for a dead glob when the only near one is the glob itself', async () => {
    expect(await findings('maps/bad/dead-vendor-glob')).toEqual([
      "test/helpers/maps/review.ts:14:5 touchfiles-cover-paid-tests glob 'src/*/vendor/**' matches no file: a change there would select nothing. Fix the path, or declare generated paths in maps.generated.",
    ]);
  });

  it('reports a missing map configuration once per rule, and the smoke file that only a map could register', async () => {
    expect(await findings('maps/bad/no-maps')).toEqual([
      'test/evals/legacy-smoke.test.ts:1:1 touchfiles-cover-paid-tests paid test file declares no test id: no runEval(), describeIfSelected(), judgeCase() and no touchfile entry names test/evals/legacy-smoke.test.ts',
      'tripwire.config.json:1:1 global-touchfiles-present 15 paid test files but no global touchfile list is configured (maps.globals): configure it, or turn this rule off',
      'tripwire.config.json:1:1 tiers-cover-paid-tests 15 paid test files but no tier map is configured (maps.tiers): configure it, or turn this rule off',
      'tripwire.config.json:1:1 touchfiles-cover-paid-tests 15 paid test files but no touchfile map is configured (maps.touchfiles): configure it, or turn this rule off',
    ]);
  });

  it('reports a duplicate key in an object literal map', async () => {
    expect(await findings('maps/bad/duplicate-key')).toEqual([
      "test/helpers/touchfiles.ts:34:3 touchfiles-cover-paid-tests cannot evaluate the map statically: duplicate key 'summary-long' (first at line 32): JavaScript keeps only the last, and the earlier list is silently dropped",
    ]);
  });

  it('reports a paid test file that declares no id and that no key registers', async () => {
    expect(await findings('maps/bad/paid-file-without-id')).toEqual([
      'test/evals/search-pagination.test.ts:1:1 touchfiles-cover-paid-tests paid test file declares no test id: no runEval(), describeIfSelected(), judgeCase() and no touchfile entry names test/evals/search-pagination.test.ts',
    ]);
  });

  it('reports an id expression it cannot resolve, at the expression', async () => {
    expect(await findings('maps/bad/unresolved-id')).toEqual([
      "test/evals/qa/refusal.test.ts:35:9 touchfiles-cover-paid-tests cannot resolve the test id of runEval(): 'process' is not a constant declared at the top level of this file or imported from a local file",
    ]);
  });

  it('reports an id expression evaluated 2000 times in a loop once, at its node', async () => {
    const cwd = fixtureRepo('maps/good', 'maps/bad/loop-counter-id');
    const { model } = await buildModel({ cwd, cache: false });
    const sweep = selectionOf(model).problems.filter((problem) => problem.file === 'test/evals/qa/sweep.test.ts');
    expect(sweep.map((problem) => `${problem.loc.line}:${problem.loc.column} ${problem.source} ${problem.kind}`)).toEqual(['37:25 ids unevaluable']);
    const result = await check({ cwd, cache: false });
    expect(result.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.messageId}`)).toEqual(['test/evals/qa/sweep.test.ts:37:25 unevaluableId']);
  });

  it('accepts ids declared dynamic in tests.dynamicIds, with their reason, and still reports the other files', async () => {
    const cwd = fixtureRepo('maps/good', 'maps/bad/loop-counter-id');
    declareDynamic(cwd, [{ file: 'test/evals/qa/sweep.test.ts', reason: 'one eval per prompt and style; the sweep runs whole, on its own schedule' }]);
    expect((await check({ cwd, cache: false })).findings).toEqual([]);

    const elsewhere = fixtureRepo('maps/good', 'maps/bad/loop-counter-id');
    declareDynamic(elsewhere, [{ file: 'test/evals/search/**', reason: 'generated search cases' }]);
    expect((await check({ cwd: elsewhere, cache: false })).findings.map((f) => `${f.file}:${f.line} ${f.messageId}`)).toEqual(['test/evals/qa/sweep.test.ts:37 unevaluableId']);
  });

  it('rejects a dynamic-id declaration without a reason', async () => {
    const cwd = fixtureRepo('maps/good', 'maps/bad/loop-counter-id');
    declareDynamic(cwd, [{ file: 'test/evals/qa/sweep.test.ts' }]);
    await expect(check({ cwd, cache: false })).rejects.toThrow('tests.dynamicIds[0].reason: required');
  });
});

/** Adds `tests.dynamicIds` to the fixture's config. */
function declareDynamic(cwd: string, entries: { file: string; reason?: string }[]): void {
  const path = `${cwd}/tripwire.config.json`;
  writeFileSync(path, readFileSync(path, 'utf8').replace('"selfGate":', `"dynamicIds": ${JSON.stringify(entries)},\n    "selfGate":`));
}

/** `file:line:column messageId message` of each finding, with the fix it carries. */
async function reported(dir: string): Promise<{ at: string; fix?: unknown }[]> {
  const result = await check({ cwd: dir, cache: false, rules: ['touchfiles-cover-paid-tests'] });
  return result.findings.map((f) => ({ at: `${f.file}:${f.line}:${f.column} ${f.messageId} ${f.message}`, ...(f.fix && { fix: f.fix }) }));
}

describe('touchfiles-cover-paid-tests: what each finding says, and where', () => {
  it('a paid id without an entry in either of two maps, at the id: no fix, which map it belongs to is a judgement', async () => {
    expect(await reported(fixtureRepo('maps/good', 'maps/bad/new-eval-unregistered'))).toEqual([
      { at: "test/evals/qa/follow-up.test.ts:7:1 missingTouchfileEntry paid test id 'qa-follow-up' has no touchfile entry: no diff can ever select it. Add 'qa-follow-up' to E2E_TOUCHFILES or test/helpers/judge-touchfiles.json." },
    ]);
  });

  it('touchfiles that miss the test file itself, at the id', async () => {
    expect(await reported(fixtureRepo('maps/good', 'maps/bad/own-file-uncovered'))).toEqual([
      { at: "test/evals/tone/register.test.ts:10:1 ownFileUncovered the touchfiles of 'tone-formal' do not cover its own test file test/evals/tone/register.test.ts: editing the test would not re-run it" },
    ]);
  });

  it('a paid id without an entry in the one map, with the fix that adds its file and the helpers it imports', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': '{\n  "tests": {\n    "include": ["test/**/*.test.ts"],\n    "paid": ["test/evals/**/*.test.ts"],\n    "ids": [{ "call": "runEval", "arg": 0, "property": "name" }]\n  },\n  "maps": {\n    "touchfiles": { "file": "test/helpers/touchfiles.ts", "export": "E2E_TOUCHFILES" }\n  }\n}\n',
      'test/helpers/touchfiles.ts': 'export const E2E_TOUCHFILES = {};\n',
      'test/evals/search.test.ts': "import { runEval } from '../helpers/run.js';\nimport { rank } from '../helpers/rank.js';\nrunEval({ name: 'search-basic', run: () => rank() });\n",
      'test/helpers/run.ts': 'export function runEval(options: { name: string; run: () => number }): number {\n  return options.run();\n}\n',
      'test/helpers/rank.ts': 'export const rank = (): number => 1;\n',
    });
    expect(await reported(dir)).toEqual([
      {
        at: "test/evals/search.test.ts:3:1 missingTouchfileEntry paid test id 'search-basic' has no touchfile entry: no diff can ever select it. Add 'search-basic' to E2E_TOUCHFILES.",
        fix: {
          messageId: 'addTouchfileEntry',
          description: "add 'search-basic' to E2E_TOUCHFILES with 3 globs: test/evals/search.test.ts, test/helpers/rank.ts, test/helpers/run.ts",
          edits: [{ file: 'test/helpers/touchfiles.ts', range: [31, 31], text: "\n  'search-basic': ['test/evals/search.test.ts', 'test/helpers/rank.ts', 'test/helpers/run.ts']\n" }],
        },
      },
    ]);
  });

  it('a paid id without an entry, whose file imports nothing: the fix adds one glob', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': '{\n  "tests": {\n    "include": ["test/**/*.test.ts"],\n    "paid": ["test/evals/**/*.test.ts"],\n    "ids": [{ "call": "runEval", "arg": 0, "property": "name" }]\n  },\n  "maps": {\n    "touchfiles": { "file": "test/helpers/touchfiles.ts", "export": "E2E_TOUCHFILES" }\n  }\n}\n',
      'test/helpers/touchfiles.ts': 'export const E2E_TOUCHFILES = {};\n',
      'test/evals/search.test.ts': "declare function runEval(options: { name: string }): void;\nrunEval({ name: 'search-basic' });\n",
    });
    expect(await reported(dir)).toEqual([
      {
        at: "test/evals/search.test.ts:2:1 missingTouchfileEntry paid test id 'search-basic' has no touchfile entry: no diff can ever select it. Add 'search-basic' to E2E_TOUCHFILES.",
        fix: { messageId: 'addTouchfileEntry', description: "add 'search-basic' to E2E_TOUCHFILES with 1 glob: test/evals/search.test.ts", edits: [{ file: 'test/helpers/touchfiles.ts', range: [31, 31], text: "\n  'search-basic': ['test/evals/search.test.ts']\n" }] },
      },
    ]);
  });

  it('a paid id declared in two files without an entry: reported in each, no fix, whose globs it takes is a judgement', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': '{\n  "tests": {\n    "include": ["test/**/*.test.ts"],\n    "paid": ["test/evals/**/*.test.ts"],\n    "ids": [{ "call": "runEval", "arg": 0, "property": "name" }]\n  },\n  "maps": {\n    "touchfiles": { "file": "test/helpers/touchfiles.ts", "export": "E2E_TOUCHFILES" }\n  }\n}\n',
      'test/helpers/touchfiles.ts': 'export const E2E_TOUCHFILES = {};\n',
      'test/evals/search.test.ts': "declare function runEval(options: { name: string }): void;\nrunEval({ name: 'search-basic' });\n",
      'test/evals/search-again.test.ts': "declare function runEval(options: { name: string }): void;\nrunEval({ name: 'search-basic' });\n",
    });
    expect(await reported(dir)).toEqual([
      { at: "test/evals/search-again.test.ts:2:1 missingTouchfileEntry paid test id 'search-basic' has no touchfile entry: no diff can ever select it. Add 'search-basic' to E2E_TOUCHFILES." },
      { at: "test/evals/search.test.ts:2:1 missingTouchfileEntry paid test id 'search-basic' has no touchfile entry: no diff can ever select it. Add 'search-basic' to E2E_TOUCHFILES." },
    ]);
  });

  it('a paid id without an entry in either of two literal maps: no fix, which map it belongs to is a judgement', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': '{\n  "tests": {\n    "include": ["test/**/*.test.ts"],\n    "paid": ["test/evals/**/*.test.ts"],\n    "ids": [{ "call": "runEval", "arg": 0, "property": "name" }]\n  },\n  "maps": {\n    "touchfiles": [\n      { "file": "test/helpers/touchfiles.ts", "export": "E2E_TOUCHFILES" },\n      { "file": "test/helpers/touchfiles.ts", "export": "JUDGE_TOUCHFILES" }\n    ]\n  }\n}\n',
      'test/helpers/touchfiles.ts': 'export const E2E_TOUCHFILES = {};\nexport const JUDGE_TOUCHFILES = {};\n',
      'test/evals/search.test.ts': "declare function runEval(options: { name: string }): void;\nrunEval({ name: 'search-basic' });\n",
    });
    expect(await reported(dir)).toEqual([
      { at: "test/evals/search.test.ts:2:1 missingTouchfileEntry paid test id 'search-basic' has no touchfile entry: no diff can ever select it. Add 'search-basic' to E2E_TOUCHFILES or JUDGE_TOUCHFILES." },
    ]);
  });

  it('an orphan key of the second map, with the fix that removes it from that map', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': '{\n  "tests": {\n    "include": ["test/**/*.test.ts"],\n    "paid": ["test/evals/**/*.test.ts"],\n    "ids": [{ "call": "runEval", "arg": 0, "property": "name" }]\n  },\n  "maps": {\n    "touchfiles": [\n      { "file": "test/helpers/touchfiles.ts", "export": "E2E_TOUCHFILES" },\n      { "file": "test/helpers/touchfiles.ts", "export": "JUDGE_TOUCHFILES" }\n    ]\n  }\n}\n',
      'test/helpers/touchfiles.ts': "export const E2E_TOUCHFILES = {\n  'search-basic': ['test/evals/search.test.ts'],\n};\nexport const JUDGE_TOUCHFILES = {\n  'judge-old': ['test/helpers/touchfiles.ts'],\n};\n",
      'test/evals/search.test.ts': "declare function runEval(options: { name: string }): void;\nrunEval({ name: 'search-basic' });\n",
    });
    expect(await reported(dir)).toEqual([
      {
        at: "test/helpers/touchfiles.ts:5:3 orphanKey touchfile key 'judge-old' in JUDGE_TOUCHFILES names no paid test: no paid test file declares or registers it. Remove the entry or fix the id.",
        fix: { messageId: 'removeOrphanKey', description: "remove the entry 'judge-old' from JUDGE_TOUCHFILES", edits: [{ file: 'test/helpers/touchfiles.ts', range: [118, 165], text: '' }] },
      },
    ]);
  });

  it('a helper two ids of one file miss, once, naming both; an id declared twice in a file whose own file is uncovered, once', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': '{\n  "tests": {\n    "include": ["test/**/*.test.ts"],\n    "paid": ["test/evals/**/*.test.ts"],\n    "ids": [{ "call": "runEval", "arg": 0, "property": "name" }]\n  },\n  "maps": {\n    "touchfiles": { "file": "test/helpers/touchfiles.ts", "export": "E2E_TOUCHFILES" }\n  }\n}\n',
      'test/helpers/touchfiles.ts': "export const E2E_TOUCHFILES = {\n  'search-basic': ['test/evals/search.test.ts'],\n  'search-typo': ['test/evals/search.test.ts'],\n  'rank-basic': ['test/helpers/rank.ts'],\n};\n",
      'test/evals/search.test.ts': "import { rank } from '../helpers/rank.js';\ndeclare function runEval(options: { name: string; run: () => number }): void;\nrunEval({ name: 'search-basic', run: () => rank() });\nrunEval({ name: 'search-typo', run: () => rank() });\n",
      'test/evals/rank.test.ts': "declare function runEval(options: { name: string }): void;\nrunEval({ name: 'rank-basic' });\nrunEval({ name: 'rank-basic' });\n",
      'test/helpers/rank.ts': 'export const rank = (): number => 1;\n',
    });
    expect(await reported(dir)).toEqual([
      { at: "test/evals/rank.test.ts:2:1 ownFileUncovered the touchfiles of 'rank-basic' do not cover its own test file test/evals/rank.test.ts: editing the test would not re-run it" },
      { at: "test/evals/search.test.ts:1:1 importUncovered test/helpers/rank.ts is imported by this paid test (test/evals/search.test.ts → test/helpers/rank.ts) but not covered by the touchfiles of 'search-basic', 'search-typo' or by a global: a change to it would not re-run the test" },
    ]);
  });

  it('a paid id without an entry: the fix leaves out the modules a global covers', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': '{\n  "tests": {\n    "include": ["test/**/*.test.ts"],\n    "paid": ["test/evals/**/*.test.ts"],\n    "ids": [{ "call": "runEval", "arg": 0, "property": "name" }]\n  },\n  "maps": {\n    "touchfiles": { "file": "test/helpers/touchfiles.ts", "export": "E2E_TOUCHFILES" },\n    "globals": { "file": "test/helpers/touchfiles.ts", "export": "GLOBAL_TOUCHFILES" }\n  }\n}\n',
      'test/helpers/touchfiles.ts': "export const E2E_TOUCHFILES = {};\nexport const GLOBAL_TOUCHFILES = ['test/helpers/touchfiles.ts', 'test/helpers/run.ts'];\n",
      'test/evals/search.test.ts': "import { runEval } from '../helpers/run.js';\nimport { rank } from '../helpers/rank.js';\nrunEval({ name: 'search-basic', run: () => rank() });\n",
      'test/helpers/run.ts': 'export function runEval(options: { name: string; run: () => number }): number {\n  return options.run();\n}\n',
      'test/helpers/rank.ts': 'export const rank = (): number => 1;\n',
    });
    expect(await reported(dir)).toEqual([
      {
        at: "test/evals/search.test.ts:3:1 missingTouchfileEntry paid test id 'search-basic' has no touchfile entry: no diff can ever select it. Add 'search-basic' to E2E_TOUCHFILES.",
        fix: { messageId: 'addTouchfileEntry', description: "add 'search-basic' to E2E_TOUCHFILES with 2 globs: test/evals/search.test.ts, test/helpers/rank.ts", edits: [{ file: 'test/helpers/touchfiles.ts', range: [31, 31], text: "\n  'search-basic': ['test/evals/search.test.ts', 'test/helpers/rank.ts']\n" }] },
      },
    ]);
  });
});

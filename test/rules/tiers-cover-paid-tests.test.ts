import { describe, expect, it } from 'vitest';
import { check } from '../../src/engine/index.js';
import { fixtureRepo } from '../support/overlay.js';
import { makeGitRepo } from '../support/repo.js';

async function findings(overlay?: string): Promise<string[]> {
  const result = await check({ cwd: fixtureRepo('maps/good', overlay), cache: false, rules: ['tiers-cover-paid-tests'] });
  return result.findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.ruleId} ${f.message}`);
}

describe('tiers-cover-paid-tests on fixtures/maps', () => {
  it('finds nothing in the good harness, whose self-gates agree with the declared tiers', async () => {
    expect(await findings()).toEqual([]);
  });

  it('reports an id with touchfiles but no tier', async () => {
    expect(await findings('maps/bad/missing-tier')).toEqual([
      "test/helpers/touchfiles.ts:37:3 tiers-cover-paid-tests 'qa-out-of-scope' has touchfiles in E2E_TOUCHFILES but no tier in E2E_TIERS: add it with one of 'gate', 'periodic'",
    ]);
  });

  it('reports an inert demotion: the file gates on gate while the map says periodic', async () => {
    const result = await check({ cwd: fixtureRepo('maps/good', 'maps/bad/inert-demotion'), cache: false, rules: ['tiers-cover-paid-tests'] });
    expect(result.findings).toEqual([
      {
        ruleId: 'tiers-cover-paid-tests',
        messageId: 'inertDemotion',
        severity: 'error',
        file: 'test/evals/qa/injection.test.ts',
        line: 9,
        column: 16,
        endLine: 9,
        endColumn: 49,
        message: "this file gates itself on tier 'gate', but E2E_TIERS declares another tier for 'qa-prompt-injection': the declaration is inert. Make the gate and the map agree.",
        related: [{ file: 'test/helpers/touchfiles.ts', line: 79, column: 26, message: "'qa-prompt-injection' declared 'periodic'" }],
      },
    ]);
  });

  it('reports an inert demotion of a key bound to its file by registration: the file names no id, the key lists the file', async () => {
    const result = await check({ cwd: fixtureRepo('maps/good', 'maps/bad/registered-tier-flipped'), cache: false, rules: ['tiers-cover-paid-tests'] });
    expect(result.findings).toEqual([
      {
        ruleId: 'tiers-cover-paid-tests',
        messageId: 'inertDemotion',
        severity: 'error',
        file: 'test/evals/legacy-smoke.test.ts',
        line: 7,
        column: 16,
        endLine: 7,
        endColumn: 49,
        message: "this file gates itself on tier 'gate', but E2E_TIERS declares another tier for 'legacy-smoke' (bound to this file by its touchfile entry, which names it): the declaration is inert. Make the gate and the map agree.",
        related: [{ file: 'test/helpers/touchfiles.ts', line: 86, column: 19, message: "'legacy-smoke' declared 'periodic'" }],
      },
    ]);
  });

  it('reports a tier value it cannot evaluate (a let binding)', async () => {
    expect(await findings('maps/bad/unevaluable-map')).toEqual([
      "test/helpers/touchfiles.ts:89:20 tiers-cover-paid-tests cannot evaluate the map statically: 'DEFAULT_TIER' is a let binding: its value can change at run time; declare it const",
    ]);
  });
});

/** `file:line:column messageId message` of each finding, with the fix and the related locations it carries. */
async function reported(dir: string): Promise<{ at: string; fix?: unknown; related?: unknown }[]> {
  const result = await check({ cwd: dir, cache: false, rules: ['tiers-cover-paid-tests'] });
  return result.findings.map((f) => ({ at: `${f.file}:${f.line}:${f.column} ${f.messageId} ${f.message}`, ...(f.fix && { fix: f.fix }), ...(f.related && { related: f.related }) }));
}

describe('tiers-cover-paid-tests: what each finding says, and where', () => {
  it('a tier outside maps.tiers.values, at the tier', async () => {
    expect(await reported(fixtureRepo('maps/good', 'maps/bad/unknown-tier'))).toEqual([
      { at: "test/helpers/touchfiles.ts:83:14 unknownTier tier 'nightly' of 'case-b7' is not one of 'gate', 'periodic' (maps.tiers.values)" },
    ]);
  });

  it('a tier whose key has no touchfile entry, at the tier, with the fix that removes it', async () => {
    expect(await reported(fixtureRepo('maps/good', 'maps/bad/orphan-tier'))).toEqual([
      {
        at: "test/helpers/touchfiles.ts:74:27 orphanTier 'summary-multilingual' has a tier in E2E_TIERS but no entry in E2E_TOUCHFILES: the tier map and the touchfile map must have the same keys",
        fix: { messageId: 'removeOrphanTier', description: "remove the entry 'summary-multilingual' from E2E_TIERS", edits: [{ file: 'test/helpers/touchfiles.ts', range: [4177, 4215], text: '' }] },
      },
    ]);
  });

  it('a paid id with neither touchfiles nor a tier, at the id', async () => {
    expect(await reported(fixtureRepo('maps/good', 'maps/bad/new-eval-unregistered'))).toEqual([
      { at: "test/evals/qa/follow-up.test.ts:7:1 paidIdWithoutTier paid test id 'qa-follow-up' has no tier in E2E_TIERS" },
    ]);
  });

  it('a file gating itself on two tiers, at the first gate, the second related', async () => {
    expect(await reported(fixtureRepo('maps/good', 'maps/bad/conflicting-self-gates'))).toEqual([
      {
        at: "test/evals/review-style.test.ts:9:1 conflictingSelfGates test/evals/review-style.test.ts gates itself on 2 different tiers ('periodic', 'gate'): a file runs in one tier",
        related: [{ file: 'test/evals/review-style.test.ts', line: 21, column: 1, message: "gates on 'gate'" }],
      },
    ]);
  });

  it('a tier map that is not an object, at its value', async () => {
    expect(await reported(fixtureRepo('maps/good', 'maps/bad/malformed-tier-map'))).toEqual([{ at: 'test/helpers/touchfiles.ts:59:44 malformedTierMap E2E_TIERS is not an object of test id → tier' }]);
  });

  it('a tier that is not a string, at the value', async () => {
    expect(await reported(fixtureRepo('maps/good', 'maps/bad/non-string-tier'))).toEqual([{ at: "test/helpers/touchfiles.ts:63:24 nonStringTier the tier of 'review-large-diff' is not a string" }]);
  });

  it('no tier map configured while paid tests exist, at the start of the config file', async () => {
    expect(await reported(fixtureRepo('maps/good', 'maps/bad/no-maps'))).toEqual([{ at: 'tripwire.config.json:1:1 missingMapConfig 15 paid test files but no tier map is configured (maps.tiers): configure it, or turn this rule off' }]);
  });

  it('a tier map file that does not exist, at the start of the config file', async () => {
    expect(await reported(fixtureRepo('maps/good', 'maps/bad/tier-map-missing'))).toEqual([{ at: "tripwire.config.json:1:1 missingMapFile map file 'test/helpers/tiers.ts' (E2E_TIERS) does not exist" }]);
  });

  it('a missing tier, with the fix that adds the tier its test file gates itself on', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': '{\n  "tests": {\n    "include": ["test/**/*.test.ts"],\n    "paid": ["test/evals/**/*.test.ts"],\n    "ids": [{ "call": "runEval", "arg": 0, "property": "name" }],\n    "selfGate": [{ "env": "EVALS_TIER" }]\n  },\n  "maps": {\n    "touchfiles": { "file": "test/helpers/touchfiles.ts", "export": "E2E_TOUCHFILES" },\n    "tiers": { "file": "test/helpers/touchfiles.ts", "export": "E2E_TIERS" }\n  }\n}\n',
      'test/helpers/touchfiles.ts': "export const E2E_TOUCHFILES = {\n  'search-basic': ['test/evals/search.test.ts'],\n};\nexport const E2E_TIERS = {};\n",
      'test/evals/search.test.ts': "import { describe } from 'vitest';\nimport { runEval } from '../helpers/run.js';\ndescribe.skipIf(process.env.EVALS_TIER !== 'periodic')('search', () => {\n  runEval({ name: 'search-basic' });\n});\n",
      'test/helpers/run.ts': 'export function runEval(options: { name: string }): string {\n  return options.name;\n}\n',
    });
    expect(await reported(dir)).toEqual([
      {
        at: "test/helpers/touchfiles.ts:2:3 missingTier 'search-basic' has touchfiles in E2E_TOUCHFILES but no tier in E2E_TIERS: add it with one of 'gate', 'periodic'",
        fix: { messageId: 'addTier', description: "add 'search-basic': 'periodic' to E2E_TIERS (the tier its test file gates itself on)", edits: [{ file: 'test/helpers/touchfiles.ts', range: [110, 110], text: "\n  'search-basic': 'periodic',\n" }] },
      },
    ]);
  });

  it('a missing tier of a file that does not gate itself: no fix, a tier is never guessed', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': '{\n  "tests": {\n    "include": ["test/**/*.test.ts"],\n    "paid": ["test/evals/**/*.test.ts"],\n    "ids": [{ "call": "runEval", "arg": 0, "property": "name" }],\n    "selfGate": [{ "env": "EVALS_TIER" }]\n  },\n  "maps": {\n    "touchfiles": { "file": "test/helpers/touchfiles.ts", "export": "E2E_TOUCHFILES" },\n    "tiers": { "file": "test/helpers/touchfiles.ts", "export": "E2E_TIERS" }\n  }\n}\n',
      'test/helpers/touchfiles.ts': "export const E2E_TOUCHFILES = {\n  'search-basic': ['test/evals/search.test.ts'],\n};\nexport const E2E_TIERS = {};\n",
      'test/evals/search.test.ts': "import { describe } from 'vitest';\nimport { runEval } from '../helpers/run.js';\ndescribe('search', () => {\n  runEval({ name: 'search-basic' });\n});\n",
      'test/helpers/run.ts': 'export function runEval(options: { name: string }): string {\n  return options.name;\n}\n',
    });
    expect(await reported(dir)).toEqual([{ at: "test/helpers/touchfiles.ts:2:3 missingTier 'search-basic' has touchfiles in E2E_TOUCHFILES but no tier in E2E_TIERS: add it with one of 'gate', 'periodic'" }]);
  });

  it('an orphan tier when the tier map covers every touchfile map, and no removal fix while a test still declares the id', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': '{\n  "tests": {\n    "include": ["test/**/*.test.ts"],\n    "paid": ["test/evals/**/*.test.ts"],\n    "ids": [{ "call": "runEval", "arg": 0, "property": "name" }],\n    "selfGate": [{ "env": "EVALS_TIER" }]\n  },\n  "maps": {\n    "touchfiles": { "file": "test/helpers/touchfiles.ts", "export": "E2E_TOUCHFILES" },\n    "tiers": { "file": "test/helpers/touchfiles.ts", "export": "E2E_TIERS" }\n  }\n}\n',
      'test/helpers/touchfiles.ts': "export const E2E_TOUCHFILES = {\n  'search-typo': ['test/evals/search.test.ts'],\n};\nexport const E2E_TIERS = {\n  'search-basic': 'gate',\n  'search-typo': 'gate',\n};\n",
      'test/evals/search.test.ts': "import { describe } from 'vitest';\nimport { runEval } from '../helpers/run.js';\ndescribe('search', () => {\n  runEval({ name: 'search-basic' });\n  runEval({ name: 'search-typo' });\n});\n",
      'test/helpers/run.ts': 'export function runEval(options: { name: string }): string {\n  return options.name;\n}\n',
    });
    expect(await reported(dir)).toEqual([
      { at: "test/helpers/touchfiles.ts:5:19 orphanTier 'search-basic' has a tier in E2E_TIERS but no entry in the touchfile maps: the tier map and the touchfile map must have the same keys" },
    ]);
  });

  it('an inert demotion of two ids of one file, each declaration related', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': '{\n  "tests": {\n    "include": ["test/**/*.test.ts"],\n    "paid": ["test/evals/**/*.test.ts"],\n    "ids": [{ "call": "runEval", "arg": 0, "property": "name" }],\n    "selfGate": [{ "env": "EVALS_TIER" }]\n  },\n  "maps": {\n    "touchfiles": { "file": "test/helpers/touchfiles.ts", "export": "E2E_TOUCHFILES" },\n    "tiers": { "file": "test/helpers/touchfiles.ts", "export": "E2E_TIERS" }\n  }\n}\n',
      'test/helpers/touchfiles.ts': "export const E2E_TOUCHFILES = {\n  'search-basic': ['test/evals/search.test.ts'],\n  'search-typo': ['test/evals/search.test.ts'],\n  'search-ranking': ['test/evals/search.test.ts'],\n};\nexport const E2E_TIERS = {\n  'search-basic': 'periodic',\n  'search-typo': 'periodic',\n  'search-ranking': 'gate',\n};\n",
      'test/evals/search.test.ts': "import { describe } from 'vitest';\nimport { runEval } from '../helpers/run.js';\ndescribe.skipIf(process.env.EVALS_TIER !== 'gate')('search', () => {\n  runEval({ name: 'search-basic' });\n  runEval({ name: 'search-typo' });\n  runEval({ name: 'search-ranking' });\n});\n",
      'test/helpers/run.ts': 'export function runEval(options: { name: string }): string {\n  return options.name;\n}\n',
    });
    expect(await reported(dir)).toEqual([
      {
        at: "test/evals/search.test.ts:3:17 inertDemotion this file gates itself on tier 'gate', but E2E_TIERS declares another tier for 'search-basic', 'search-typo': the declaration is inert. Make the gate and the map agree.",
        related: [
          { file: 'test/helpers/touchfiles.ts', line: 7, column: 19, message: "'search-basic' declared 'periodic'" },
          { file: 'test/helpers/touchfiles.ts', line: 8, column: 18, message: "'search-typo' declared 'periodic'" },
        ],
      },
    ]);
  });

  it('an orphan tier of a map that covers two touchfile maps names both', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': '{\n  "maps": {\n    "touchfiles": [\n      { "file": "test/helpers/touchfiles.ts", "export": "E2E_TOUCHFILES" },\n      { "file": "test/helpers/touchfiles.ts", "export": "JUDGE_TOUCHFILES" }\n    ],\n    "tiers": { "file": "test/helpers/touchfiles.ts", "export": "E2E_TIERS", "covers": ["E2E_TOUCHFILES", "JUDGE_TOUCHFILES"] }\n  }\n}\n',
      'test/helpers/touchfiles.ts': "export const E2E_TOUCHFILES = {};\nexport const JUDGE_TOUCHFILES = {};\nexport const E2E_TIERS = {\n  'search-old': 'gate',\n};\n",
    });
    expect(await reported(dir)).toEqual([
      {
        at: "test/helpers/touchfiles.ts:4:17 orphanTier 'search-old' has a tier in E2E_TIERS but no entry in E2E_TOUCHFILES, JUDGE_TOUCHFILES: the tier map and the touchfile map must have the same keys",
        fix: { messageId: 'removeOrphanTier', description: "remove the entry 'search-old' from E2E_TIERS", edits: [{ file: 'test/helpers/touchfiles.ts', range: [97, 121], text: '' }] },
      },
    ]);
  });

  it('an orphan tier spread in from another object: no removal fix, the entry is not written in the tier map', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': '{\n  "maps": {\n    "touchfiles": { "file": "test/helpers/touchfiles.ts", "export": "E2E_TOUCHFILES" },\n    "tiers": { "file": "test/helpers/touchfiles.ts", "export": "E2E_TIERS" }\n  }\n}\n',
      'test/helpers/touchfiles.ts': "export const E2E_TOUCHFILES = {};\nconst OLD_TIERS = {\n  'search-old': 'gate',\n};\nexport const E2E_TIERS = {\n  ...OLD_TIERS,\n};\n",
    });
    expect(await reported(dir)).toEqual([
      { at: "test/helpers/touchfiles.ts:3:17 orphanTier 'search-old' has a tier in E2E_TIERS but no entry in the touchfile maps: the tier map and the touchfile map must have the same keys" },
    ]);
  });

  it('a missing tier of an id whose two files gate on different tiers, or one gates and one does not, or one gates on an unknown tier: no fix', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': '{\n  "tests": {\n    "include": ["test/**/*.test.ts"],\n    "paid": ["test/evals/**/*.test.ts"],\n    "ids": [{ "call": "runEval", "arg": 0, "property": "name" }],\n    "selfGate": [{ "env": "EVALS_TIER" }]\n  },\n  "maps": {\n    "touchfiles": { "file": "test/helpers/touchfiles.ts", "export": "E2E_TOUCHFILES" },\n    "tiers": { "file": "test/helpers/touchfiles.ts", "export": "E2E_TIERS" }\n  }\n}\n',
      'test/helpers/touchfiles.ts': "export const E2E_TOUCHFILES = {\n  'search-basic': ['test/evals/search/**'],\n  'search-typo': ['test/evals/search/**'],\n  'search-nightly': ['test/evals/search/**'],\n};\nexport const E2E_TIERS = {};\n",
      'test/evals/search/gated.test.ts': "import { describe } from 'vitest';\nimport { runEval } from '../../helpers/run.js';\ndescribe.skipIf(process.env.EVALS_TIER !== 'periodic')('search', () => {\n  runEval({ name: 'search-basic' });\n  runEval({ name: 'search-typo' });\n});\n",
      'test/evals/search/gate.test.ts': "import { describe } from 'vitest';\nimport { runEval } from '../../helpers/run.js';\ndescribe.skipIf(process.env.EVALS_TIER !== 'gate')('search', () => {\n  runEval({ name: 'search-basic' });\n});\n",
      'test/evals/search/ungated.test.ts': "import { describe } from 'vitest';\nimport { runEval } from '../../helpers/run.js';\ndescribe('search', () => {\n  runEval({ name: 'search-typo' });\n});\n",
      'test/evals/search/nightly.test.ts': "import { describe } from 'vitest';\nimport { runEval } from '../../helpers/run.js';\ndescribe.skipIf(process.env.EVALS_TIER !== 'nightly')('search', () => {\n  runEval({ name: 'search-nightly' });\n});\n",
      'test/helpers/run.ts': 'export function runEval(options: { name: string }): string {\n  return options.name;\n}\n',
    });
    expect(await reported(dir)).toEqual([
      { at: "test/helpers/touchfiles.ts:2:3 missingTier 'search-basic' has touchfiles in E2E_TOUCHFILES but no tier in E2E_TIERS: add it with one of 'gate', 'periodic'" },
      { at: "test/helpers/touchfiles.ts:3:3 missingTier 'search-typo' has touchfiles in E2E_TOUCHFILES but no tier in E2E_TIERS: add it with one of 'gate', 'periodic'" },
      { at: "test/helpers/touchfiles.ts:4:3 missingTier 'search-nightly' has touchfiles in E2E_TOUCHFILES but no tier in E2E_TIERS: add it with one of 'gate', 'periodic'" },
    ]);
  });

  it('a missing tier in a JSON tier map: no fix, even where the test file gates itself', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': '{\n  "tests": {\n    "include": ["test/**/*.test.ts"],\n    "paid": ["test/evals/**/*.test.ts"],\n    "ids": [{ "call": "runEval", "arg": 0, "property": "name" }],\n    "selfGate": [{ "env": "EVALS_TIER" }]\n  },\n  "maps": {\n    "touchfiles": { "file": "test/helpers/touchfiles.ts", "export": "E2E_TOUCHFILES" },\n    "tiers": { "file": "test/helpers/tiers.json" }\n  }\n}\n',
      'test/helpers/touchfiles.ts': "export const E2E_TOUCHFILES = {\n  'search-basic': ['test/evals/search.test.ts'],\n};\n",
      'test/helpers/tiers.json': '{}\n',
      'test/evals/search.test.ts': "import { describe } from 'vitest';\nimport { runEval } from '../helpers/run.js';\ndescribe.skipIf(process.env.EVALS_TIER !== 'periodic')('search', () => {\n  runEval({ name: 'search-basic' });\n});\n",
      'test/helpers/run.ts': 'export function runEval(options: { name: string }): string {\n  return options.name;\n}\n',
    });
    expect(await reported(dir)).toEqual([
      { at: "test/helpers/touchfiles.ts:2:3 missingTier 'search-basic' has touchfiles in E2E_TOUCHFILES but no tier in test/helpers/tiers.json#: add it with one of 'gate', 'periodic'" },
    ]);
  });
});

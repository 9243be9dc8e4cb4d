import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULE_IDS } from '../src/rule-ids.js';
import { rules } from '../rules/index.js';
import { check, CORE_RULES } from '../src/engine/index.js';
import { toEslintRule } from '../src/eslint/rules.js';
import { PACKAGE_ROOT } from '../src/version.js';
import { makeGitRepo } from './support/repo.js';

function doc(id: string): string {
  return readFileSync(join(PACKAGE_ROOT, 'rules', `${id}.md`), 'utf8');
}

/** The fenced `ts` (or, for a Markdown rule, `md`; for a workflow rule, `yaml`) block that follows a ❌ or ✅ marker. */
function example(text: string, marker: '❌' | '✅'): string {
  const match = new RegExp(`${marker}[^\\n]*\\n+\`\`\`(?:ts|md|yaml)\\n([\\s\\S]*?)\`\`\``).exec(text);
  if (!match?.[1]) throw new Error(`no ${marker} example`);
  return match[1];
}

const MAPS_CONFIG = JSON.stringify({
  tests: {
    include: ['test/**/*.test.ts'],
    paid: ['test/evals/**/*.test.ts'],
    ids: [{ call: 'runEval', property: 'name' }],
    selfGate: [{ env: 'EVALS_TIER' }],
  },
  maps: {
    touchfiles: { file: 'test/helpers/touchfiles.ts', export: 'E2E_TOUCHFILES' },
    tiers: { file: 'test/helpers/touchfiles.ts', export: 'E2E_TIERS' },
    globals: { file: 'test/helpers/touchfiles.ts', export: 'GLOBAL_TOUCHFILES', require: ['test/helpers/run.ts'] },
  },
});

const MAPS_HARNESS = {
  'tripwire.config.json': MAPS_CONFIG,
  'test/helpers/run.ts': `export function runEval(options: { name: string; prompt?: string }) {\n  return options;\n}\n`,
  'src/review/prompt.ts': `export const reviewPrompt = 'Review the diff.';\n`,
  'src/search/rank.ts': `export const rank = (xs: string[]) => [...xs].sort();\n`,
  'test/evals/review.test.ts': `import { runEval } from '../helpers/run.js';\nimport { reviewPrompt } from '../../src/review/prompt.js';\nrunEval({ name: 'review-basic', prompt: reviewPrompt });\n`,
  'test/evals/search.test.ts': `import { describe } from 'vitest';\nimport { runEval } from '../helpers/run.js';\ndescribe.skipIf(process.env.EVALS_TIER !== 'periodic')('search', () => {\n  runEval({ name: 'search-basic' });\n});\n`,
};

const FROZEN_HARNESS = {
  'tripwire.config.json': '{ "tests": { "include": ["test/**/*.test.ts"] } }',
  'src/findings.ts': `export function parseFindings(text: string): { severity: string }[] {\n  return text.split('\\n').map((line) => ({ severity: line.slice(1, line.indexOf(']')) }));\n}\n`,
  '.tripwire/frozen.json': JSON.stringify({
    version: 1,
    tests: {
      'test/findings.test.ts::parseFindings > keeps the highest severity when a location repeats': {
        hash: 'sha256:04c0c24a13ea074994291270975d0add840de43d69100821f91a08a06ef1f053',
        assertions: 2,
        reason: 'Flaked once: the fix belongs in parseFindings.',
        owner: '@ilya',
        status: 'frozen',
      },
    },
  }),
};

const SHIPPED_HARNESS = {
  'tripwire.config.json': JSON.stringify({
    tests: { include: ['tests/**/*.test.ts'] },
    shipped: { include: ['skills/**/SKILL.md'] },
    removed: [{ id: 'harness-stipulation', tokens: ['stipulated by the harness'], why: 'The skill always collects the change itself.' }],
  }),
  'skills/review/references/grading.md': '# Grading\n\n## Severity levels\n\nBlocking, advisory.\n\n## Outcomes\n\nMerge, pause, request changes.\n',
  'tests/review/review.test.ts': `import { spawnSync } from 'node:child_process';\nimport { test } from 'vitest';\ntest('reviews', () => {\n  spawnSync('git', ['diff'], { env: { ...process.env, REVIEW_FIXTURE_DIR: 'tests/review/fixtures/small' } });\n});\n`,
  'tests/review/fixtures/small/change.diff': '+ a line\n',
};

const CI_HARNESS = {
  'tripwire.config.json': '{ "tests": { "include": ["test/**/*.test.ts"] } }',
  'package.json': JSON.stringify({ name: 'reviewer', private: true, scripts: { test: 'vitest run' } }),
  'test/format.test.ts': `import { expect, test } from 'vitest';\ntest('trims', () => {\n  expect(' a '.trim()).toBe('a');\n});\n`,
};

/** Where each rule's doc examples are written, and the harness around them. */
const EXAMPLE_HARNESS: Record<string, { files: Record<string, string>; exampleFile: string }> = {
  'no-paid-calls-in-free-tests': { files: { 'tripwire.config.json': '{ "tests": { "include": ["test/**/*.test.ts"] } }' }, exampleFile: 'test/example.test.ts' },
  'touchfiles-cover-paid-tests': { files: MAPS_HARNESS, exampleFile: 'test/helpers/touchfiles.ts' },
  'tiers-cover-paid-tests': { files: MAPS_HARNESS, exampleFile: 'test/helpers/touchfiles.ts' },
  'global-touchfiles-present': { files: MAPS_HARNESS, exampleFile: 'test/helpers/touchfiles.ts' },
  'no-weakened-frozen-tests': { files: FROZEN_HARNESS, exampleFile: 'test/findings.test.ts' },
  'no-test-carve-outs': { files: SHIPPED_HARNESS, exampleFile: 'skills/review/SKILL.md' },
  'no-dangling-references': { files: SHIPPED_HARNESS, exampleFile: 'skills/review/SKILL.md' },
  'paid-ci-lanes': { files: CI_HARNESS, exampleFile: '.github/workflows/ci.yml' },
};

describe.each(rules.map((rule) => [rule.id, rule] as const))('rule %s', (id, rule) => {
  it('is a known rule id, with its docs URL derived from the id', () => {
    expect(RULE_IDS).toContain(id);
    expect(rule.meta.url).toMatch(new RegExp(`/rules/${id}\\.md$`));
  });

  it('has a doc whose title is the id and whose first paragraph is meta.docs.description', () => {
    const [title, , description] = doc(id).split('\n');
    expect(title).toBe(`# ${id}`);
    expect(description).toBe(rule.meta.description);
  });

  it('lists in its "Message ids" section exactly the ids the rule declares, each with its default severity and its description', () => {
    const section = /\n## Message ids\n([\s\S]*?)\n## /.exec(doc(id))?.[1] ?? '';
    const rows = [...section.matchAll(/^\| `(\w+)` \| ([^|]+) \| (.*) \|$/gm)].map(([, messageId, severity, meaning]) => [messageId, severity?.trim(), meaning]);
    const declared = Object.entries(rule.meta.messages).map(([messageId, kind]) => [messageId, kind.heuristic === 'off' ? 'off (error under `strict`)' : kind.heuristic ? 'warn (error under `strict`)' : 'error', kind.description]);
    expect(rows).toEqual(declared);
  });

  it('lists in its "Fixes" section exactly the fixes the rule attaches, each an ESLint suggestion message id', () => {
    const section = /\n## Fixes\n([\s\S]*?)\n## /.exec(doc(id))?.[1] ?? '';
    const rows = [...section.matchAll(/^\| `(\w+)` \|/gm)].map(([, fixId]) => fixId);
    expect(rows).toEqual(Object.keys(rule.meta.fixes ?? {}));
    for (const fixId of rows) expect(toEslintRule(rule).meta?.messages?.[fixId ?? '']).toBe('{{description}}');
    expect(toEslintRule(rule).meta?.hasSuggestions).toBe(rows.length > 0 ? true : undefined);
  });

  it('declares camelCase message ids', () => {
    for (const messageId of Object.keys(rule.meta.messages)) expect(messageId).toMatch(/^[a-z][a-zA-Z]*$/);
  });

  it('has ❌ and ✅ examples that behave as the doc says', async () => {
    const text = doc(id);
    const harness = EXAMPLE_HARNESS[id];
    if (!harness) throw new Error(`no example harness for ${id}: add one to EXAMPLE_HARNESS`);
    const repo = (example: string): string => makeGitRepo({ ...harness.files, [harness.exampleFile]: example });
    const bad = await check({ cwd: repo(example(text, '❌')), cache: false, rules: [id] });
    const good = await check({ cwd: repo(example(text, '✅')), cache: false });
    expect(bad.findings.filter((f) => f.ruleId === id).length).toBeGreaterThan(0);
    expect(good.findings).toEqual([]);
  });
});

describe('the rule registry', () => {
  it('lists every rule id once, in RULE_IDS order: no id is known and unimplemented', () => {
    expect(rules.map((rule) => rule.id)).toEqual([...RULE_IDS]);
  });
});

describe('the core checks\' documentation (rules/core-checks.md)', () => {
  const text = readFileSync(join(PACKAGE_ROOT, 'rules', 'core-checks.md'), 'utf8');
  for (const [id, core] of Object.entries(CORE_RULES)) {
    it(`has a section for ${id} listing exactly its message ids`, () => {
      const section = new RegExp(`\\n## ${id}\\n([\\s\\S]*?)(?:\\n## |$)`).exec(text)?.[1] ?? '';
      const listed = [...section.matchAll(/^\| `(\w+)` \|/gm)].map((match) => match[1]);
      expect(listed.sort()).toEqual(Object.keys(core.messages).sort());
    });
  }
});

describe('the core checks', () => {
  it('are each named in the README with every message id they report', () => {
    const readme = readFileSync(join(PACKAGE_ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('Besides the rules, tripwire reports'), readme.indexOf('Every finding carries a **message id**'));
    for (const [id, core] of Object.entries(CORE_RULES)) {
      expect(section, id).toContain(`\`${id}\``);
      for (const messageId of Object.keys(core.messages)) expect(section, messageId).toContain(`\`${messageId}\``);
    }
  });
});

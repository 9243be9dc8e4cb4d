import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import tripwire from '../../src/index.js';
import { rules } from '../../rules/index.js';
import { check, run } from '../../src/engine/index.js';
import { cacheDirectory } from '../../src/facts/cache.js';
import { FACTS_VERSION } from '../../src/model/model.js';
import { resetModels } from '../../src/eslint/adapter.js';
import { fixtureRepo } from '../support/overlay.js';
import { makeGitRepo } from '../support/repo.js';
import { PACKAGE_ROOT, VERSION } from '../../src/version.js';
import { join } from 'node:path';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

function eslintFor(cwd: string): ESLint {
  return new ESLint({ cwd, overrideConfigFile: true, overrideConfig: [...tripwire.configs.recommended, ...tripwire.configs.markdown] });
}

/** (rule, file, line) of every tripwire message, from ESLint's results. */
function eslintTriples(results: ESLint.LintResult[], cwd: string): string[] {
  return results.flatMap((result) =>
    result.messages.filter((m) => m.ruleId?.startsWith('tripwire/')).map((m) => `${m.ruleId?.slice('tripwire/'.length)} ${result.filePath.slice(cwd.length + 1)}:${m.line}`),
  );
}

const FIXTURES: [string, string | undefined][] = [
  ['rules/no-paid-calls-in-free-tests/bad', undefined],
  ['rules/no-paid-calls-in-free-tests/good', undefined],
  ['maps/good', 'maps/bad/helper-outside-closure'],
  ['maps/good', 'maps/bad/inert-demotion'],
  ['maps/good', 'maps/bad/orphan-key'],
  ['maps/good', 'maps/bad/globals-missing-map-file'],
  ['maps/good', 'maps/bad/unresolved-id'],
  ['shipped/good', undefined],
  ['shipped/good', 'shipped/bad/fixture-env-in-skill'],
  ['shipped/good', 'shipped/bad/fixture-path-in-skill'],
  ['shipped/good', 'shipped/bad/runner-branch-in-source'],
  ['shipped/good', 'shipped/bad/renamed-heading'],
  ['shipped/good', 'shipped/bad/removed-token-in-criteria'],
  ['frozen/good', undefined],
  ['frozen/good', 'frozen/bad/moved-file'],
  ['demo', undefined],
];

describe('the ESLint surface reports what tripwire check reports', () => {
  it.each(FIXTURES)('%s %s', async (base, overlay) => {
    resetModels();
    const dir = fixtureRepo(base, overlay);
    const cli = await check({ cwd: dir, cache: false });
    // Findings in files ESLint lints: scripts and Markdown.
    const expected = cli.findings.filter((f) => /\.(?:[cm]?[jt]sx?|md)$/.test(f.file) && !f.ruleId.includes('-error') && f.ruleId !== 'unmatched-glob').map((f) => `${f.ruleId} ${f.file}:${f.line}`);
    const results = await eslintFor(dir).lintFiles(['.']);
    expect(eslintTriples(results, dir).sort()).toEqual(expected.sort());
  });
});

describe('editor buffers', () => {
  const files = {
    'tripwire.config.json': '{ "tests": { "include": ["test/**/*.test.ts"] } }',
    'test/format.test.ts': `import { format } from './helpers/format.js';\nformat('a');\n`,
    'test/helpers/format.ts': `export const format = (s: string) => s;\n`,
  };

  it('reports a violation that exists only in the unsaved buffer, and nothing once the buffer fixes it, without touching the disk', async () => {
    resetModels();
    const dir = makeGitRepo(files);
    const eslint = eslintFor(dir);
    const path = join(dir, 'test/format.test.ts');
    const dirty = await eslint.lintText(`import OpenAI from 'openai';\nnew OpenAI();\n`, { filePath: path });
    expect(dirty[0]?.messages.map((m) => `${m.ruleId} ${m.messageId} ${m.line}:${m.column}`)).toEqual(['tripwire/no-paid-calls-in-free-tests paidImport 1:1']);
    const clean = await eslint.lintText(`import { format } from './helpers/format.js';\nformat('b');\n`, { filePath: path });
    expect(clean[0]?.messages).toEqual([]);
    expect(readFileSync(path, 'utf8')).toBe(files['test/format.test.ts']);
  });

  it('notices, in a long session, a helper edited on disk and a helper created on disk', async () => {
    resetModels();
    const dir = makeGitRepo({ ...files, 'test/judge.test.ts': `import { judge } from './helpers/judge.js';\njudge();\n` });
    const eslint = eslintFor(dir);
    const lintTests = async (): Promise<string[]> => eslintTriples(await eslint.lintFiles(['test/*.test.ts']), dir);
    // judge.js does not exist yet: an import that cannot be followed is a finding (fail closed).
    const unresolved = 'no-paid-calls-in-free-tests test/judge.test.ts:1';
    expect(await lintTests()).toEqual([unresolved]);
    // Same file list: only the helper's own stamp changes.
    writeFileSync(join(dir, 'test/helpers/format.ts'), `import OpenAI from 'openai';\nexport const format = (s: string) => new OpenAI() && s;\n`);
    await waitForRevalidation();
    expect((await lintTests()).sort()).toEqual(['no-paid-calls-in-free-tests test/format.test.ts:1', unresolved]);
    // A new file that no linted file's text mentions anew: only its directory's stamp says the file list changed.
    writeFileSync(join(dir, 'test/helpers/judge.ts'), `export const judge = () => 'free';\n`);
    await waitForRevalidation();
    expect(await lintTests()).toEqual(['no-paid-calls-in-free-tests test/format.test.ts:1']);
  });
});

/** The adapter trusts a model for 2 s before it looks at the disk again (REVALIDATE_AFTER_MS). */
function waitForRevalidation(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 2100));
}

describe('tripwire-disable in ESLint', () => {
  it('honours a reasoned suppression and reports an unreasoned one, as the CLI does', async () => {
    resetModels();
    const dir = makeGitRepo({
      'tripwire.config.json': '{ "tests": { "include": ["test/**/*.test.ts"] } }',
      'test/a.test.ts': `// tripwire-disable-next-line no-paid-calls-in-free-tests -- records the SDK version in the report\nimport OpenAI from 'openai';\n`,
      'test/b.test.ts': `// tripwire-disable-next-line no-paid-calls-in-free-tests\nimport OpenAI from 'openai';\n`,
    });
    const results = await eslintFor(dir).lintFiles(['.']);
    expect(eslintTriples(results, dir).sort()).toEqual(['no-paid-calls-in-free-tests test/b.test.ts:1', 'no-paid-calls-in-free-tests test/b.test.ts:2']);
  });
});

describe('the plugin object', () => {
  it('has meta from package.json and every rule with docs, messages, schema and languages', () => {
    const manifest = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8'));
    expect(tripwire.meta).toEqual({ name: manifest.name, version: manifest.version, namespace: 'tripwire' });
    for (const [id, rule] of Object.entries(tripwire.rules)) {
      expect(rule.meta?.docs?.url).toBe(`https://github.com/tripwire-lint/tripwire/blob/main/rules/${id}.md`);
      // One ESLint message per kind the rule declares (plus the reason-less suppression and the invalid configuration every rule can report),
      // and one per kind of fix it offers as a suggestion.
      const meta = rules.find((r) => r.id === id)?.meta;
      const kinds = [...Object.keys(meta?.messages ?? {}), 'suppressionWithoutReason', 'invalidConfig'];
      const fixes = Object.keys(meta?.fixes ?? {});
      expect(rule.meta?.messages).toEqual(Object.fromEntries([...kinds.map((kind) => [kind, '{{message}}']), ...fixes.map((fix) => [fix, '{{description}}'])]));
      expect(Array.isArray(rule.meta?.schema)).toBe(true);
      expect(rule.meta?.languages?.length).toBeGreaterThan(0);
    }
  });

});

describe('the fact cache', () => {
  it('is written by a lint run, so the next tripwire check parses nothing it parsed', async () => {
    resetModels();
    const dir = makeGitRepo({
      'tripwire.config.json': '{ "tests": { "include": ["test/**/*.test.ts"] } }',
      'test/judge.test.ts': `import { judge } from './helpers/judge.js';\njudge();\n`,
      'test/helpers/judge.ts': `import OpenAI from 'openai';\nexport const judge = () => new OpenAI();\n`,
    });
    // The default location, as in an editor: the repository has no node_modules.
    const cacheFile = join(cacheDirectory(dir), `facts-${VERSION}-f${FACTS_VERSION}.facts`);
    expect(existsSync(cacheFile)).toBe(false);
    const results = await eslintFor(dir).lintFiles(['.']);
    expect(eslintTriples(results, dir)).toEqual(['no-paid-calls-in-free-tests test/judge.test.ts:1']);
    expect(existsSync(cacheFile)).toBe(true);
    const after = await run({ cwd: dir });
    expect(after.model.stats).toMatchObject({ parsed: 0, cached: 2 });
  });
});

describe('a file nested deeper than the parsers go', () => {
  /** Every message of every linted file: `file rule/messageId line:column`, ESLint's own parse errors as `(parser)`. */
  function messages(results: ESLint.LintResult[], cwd: string): string[] {
    return results.flatMap((result) => result.messages.map((m) => `${result.filePath.slice(cwd.length + 1)} ${m.ruleId === null ? `(${m.message})` : `${m.ruleId}/${m.messageId ?? ''} ${m.line}:${m.column}`}`));
  }

  it('is one problem on that file and never aborts the lint of the others', async () => {
    // The tripwire rules read every test file's facts when they lint any file: a RangeError
    // in one file's parse ended ESLint's whole run, unrelated files included.
    resetModels();
    const dir = makeGitRepo({
      'tripwire.config.json': '{ "tests": { "include": ["test/**/*.test.ts"] } }',
      'test/parens.test.ts': `export const parens = ${'('.repeat(10_000)}1${')'.repeat(10_000)};\n`,
      'test/chat.test.ts': `import OpenAI from 'openai';\nnew OpenAI();\n`,
      'test/format.test.ts': `export const format = (s: string) => s;\n`,
    });
    const results = await eslintFor(dir).lintFiles(['.']);
    expect(messages(results, dir).sort()).toEqual(['test/chat.test.ts tripwire/no-paid-calls-in-free-tests/paidImport 1:1', 'test/parens.test.ts (Parsing error: Maximum call stack size exceeded)']);
  });

  it('reports a map of 1000 chained spreads once, on the map, at the reference where the chain is cut', async () => {
    resetModels();
    const lines = [`const m0 = { 'chat-basic': ['test/chat.test.ts'] };`];
    for (let i = 1; i <= 1000; i++) lines.push(`const m${i} = { ...m${i - 1} };`);
    lines.push(`export const E2E_TOUCHFILES = m1000;`);
    const dir = makeGitRepo({
      'tripwire.config.json': JSON.stringify({
        tests: { include: ['test/**/*.test.ts'], paid: ['test/chat.test.ts'], ids: [{ call: 'runEval', arg: 0 }] },
        maps: { touchfiles: { file: 'test/helpers/touchfiles.ts', export: 'E2E_TOUCHFILES' } },
      }),
      'test/helpers/touchfiles.ts': `${lines.join('\n')}\n`,
      'test/helpers/run.ts': `export const runEval = (id: string) => id;\n`,
      'test/chat.test.ts': `import { runEval } from './helpers/run.js';\nrunEval('chat-basic');\n`,
    });
    const results = await eslintFor(dir).lintFiles(['.']);
    const onMap = messages(results, dir).filter((m) => m.startsWith('test/helpers/touchfiles.ts tripwire/touchfiles-cover-paid-tests/'));
    expect(onMap).toEqual(['test/helpers/touchfiles.ts tripwire/touchfiles-cover-paid-tests/unevaluableMap 903:19']);
  });
});

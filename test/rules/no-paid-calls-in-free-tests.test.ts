import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { check } from '../../src/engine/index.js';
import type { CheckResult, Finding } from '../../src/types.js';
import { fixtureRepo } from '../support/overlay.js';
import { makeGitRepo } from '../support/repo.js';

const RULE = 'no-paid-calls-in-free-tests';
const fixture = (name: 'bad' | 'good' | 'precision/good') => fileURLToPath(new URL(`../../fixtures/rules/${RULE}/${name}`, import.meta.url));

const at = (finding: Finding) => `${finding.file}:${finding.line}`;
const ofRule = (result: CheckResult) => result.findings.filter((finding) => finding.ruleId === RULE);

/** One entry per violation shape of the bad fixture: where it is reported, and what its message must say. */
const BAD: [location: string, shape: string, reason: string[]][] = [
  ['test/free/summarize.test.ts:2', 'static import of a model SDK', ['openai']],
  ['test/free/messages.test.ts:5', 'require() of a model SDK', ['@anthropic-ai/sdk']],
  ['test/free/providers.test.ts:11', 'dynamic import() of a model SDK', ['@google/genai']],
  [
    'test/free/judge.test.ts:2',
    'transitive, depth 2: test → judge.ts → llm.ts → SDK',
    ['test/free/judge.test.ts → judgeAnswer (test/helpers/judge.ts) → complete (test/helpers/llm.ts) → @anthropic-ai/sdk'],
  ],
  ['test/free/stream-events.test.ts:7', 'spawn by argv', ['claude']],
  ['test/free/cli-smoke.test.ts:5', 'shell string through sh -c', ['claude']],
  ['test/free/codex-adapter.test.ts:13', 'command held in a constant', ['codex']],
  ['test/free/gemini-adapter.test.ts:6', 'command by absolute path', ['gemini']],
  ['test/free/bun-runner.test.ts:4', 'Bun.spawn({ cmd })', ['claude']],
  ['test/free/execa-runner.test.ts:5', 'execa', ['claude']],
  ['test/free/rate-limit.test.ts:9', 'fetch of a metered host', ['api.anthropic.com']],
  ['test/free/config.test.ts:9', 'API key read from the environment', ['OPENAI_API_KEY']],
  ['test/free/grade.test.ts:2', 'tsconfig paths alias to a helper that fetches', ['gradeWithModel (test/helpers/grade.ts)', 'api.openai.com']],
  ['test/free/score-run.test.ts:2', 'barrel re-export of a helper that spawns', ['scoreRun (test/helpers/score.ts)', 'claude']],
  ['test/free/which-runner.test.ts:6', 'CLI path from Bun.which', ['claude']],
  ['test/free/zx-runner.test.ts:5', 'zx $ template', ['claude']],
  ['test/free/session-id.test.ts:2', 'helper with a paid call at module top level, imported for a pure export', ['test/helpers/session.ts', 'claude']],
  ['test/free/exec-template.test.ts:6', 'template literal with a constant head', ['claude']],
  ['test/free/report-header.test.ts:6', 'suppression without a reason', ['without a reason']],
  ['test/free/report-header.test.ts:7', 'the call under that suppression stays reported', ['claude']],
];

/**
 * The precision harness: each quiet pattern of precision/good (left) has a twin
 * in the precision/bad overlay that still fires (here), for its stated reason.
 */
const TWINS: [location: string, quietTwin: string, reason: string[]][] = [
  ['test/unit/api-key-live.test.ts:2', 'api-key-plumbing: the test sets and restores the key the helper reads', ['childEnv (src/keys.ts) → anthropicKey (src/keys.ts) → reads ANTHROPIC_API_KEY']],
  ['test/unit/api-key-live.test.ts:5', 'api-key-plumbing: the test saves, writes, deletes and asserts the key', ['free test reads ANTHROPIC_API_KEY']],
  ['test/unit/codex-on-path.test.ts:10', 'codex-stub: a stub written into a temp dir put on the spawn PATH', ['spawns codex']],
  ['test/unit/summarize-live.test.ts:2', 'summarize-stub: a helper puts a stub claude first on PATH', ['summarizeWithClaude (src/cli.ts) → spawns claude']],
  ['test/unit/judge-helper.test.ts:2', 'triage: a pure export of the product that wraps an SDK', ['free test reaches a paid call', 'judgeSummary (test/helpers/judge.ts) → @anthropic-ai/sdk']],
  ['test/unit/label-sample.test.ts:2', 'triage-fake-client (the heuristic kind, below): the same product called by the test, not by a helper', ['free test reaches a paid call', 'labelSample (test/helpers/label.ts) → createTriager (src/triage.ts) → openai']],
  [
    'test/unit/triage-fake-client.test.ts:2',
    'triage: a pure export of the same product',
    ["free test reaches the model SDK 'openai' only through product code", 'createTriager (src/triage.ts) → openai', 'This is a heuristic'],
  ],
  ['test/unit/review-unmocked.test.ts:4', 'review-mocked: the helper is mocked before the dynamic import', ['reviewSummary (test/helpers/review.ts) → judgeSummary (test/helpers/judge.ts) → @anthropic-ai/sdk']],
  ['test/unit/warmup.test.ts:2', 'entry-points: the call is under import.meta.main / require.main === module', ['src/warmup.ts (on import) → summarizeWithClaude (src/cli.ts) → spawns claude']],
  ['test/unit/loader-missing.test.ts:2', 'built-package: a missing build output is not reported', ["cannot resolve '../helpers/tickets.js' from test/unit/loader-missing.test.ts", 'not checked for paid calls']],
];

describe(RULE, () => {
  describe('bad fixture', () => {
    let result: CheckResult;
    let findings: Finding[];

    beforeAll(async () => {
      result = await check({ cwd: fixture('bad'), cache: false, rules: [RULE] });
      findings = ofRule(result);
    });

    test('reports each violation once, at the call, the import, the env read or the comment', () => {
      expect(findings.map(at).sort()).toEqual([
        'test/free/bun-runner.test.ts:4',
        'test/free/cli-smoke.test.ts:5',
        'test/free/codex-adapter.test.ts:13',
        'test/free/config.test.ts:9',
        'test/free/exec-template.test.ts:6',
        'test/free/execa-runner.test.ts:5',
        'test/free/gemini-adapter.test.ts:6',
        'test/free/grade.test.ts:2',
        'test/free/judge.test.ts:2',
        'test/free/messages.test.ts:5',
        'test/free/providers.test.ts:11',
        'test/free/rate-limit.test.ts:9',
        'test/free/report-header.test.ts:6',
        'test/free/report-header.test.ts:7',
        'test/free/score-run.test.ts:2',
        'test/free/session-id.test.ts:2',
        'test/free/stream-events.test.ts:7',
        'test/free/summarize.test.ts:2',
        'test/free/which-runner.test.ts:6',
        'test/free/zx-runner.test.ts:5',
      ]);
    });

    test('reports nothing in the paid root, the helpers or the clean free test', () => {
      const files = new Set(findings.map((finding) => finding.file));
      expect([...files].filter((file) => !file.startsWith('test/free/'))).toEqual([]);
      expect(files.has('test/free/format-report.test.ts')).toBe(false);
    });

    test.each(BAD)('%s (%s) is reported for its reason', (location, _shape, reason) => {
      const finding = findings.find((candidate) => at(candidate) === location);
      expect(finding, `no finding at ${location}`).toBeDefined();
      for (const part of reason) expect(finding?.message).toContain(part);
    });

    test('every finding is an error of this rule (no parse error, unmatched glob or other kind)', () => {
      expect(result.findings.filter((finding) => finding.ruleId !== RULE || finding.severity !== 'error')).toEqual([]);
    });
  });

  describe('good fixture', () => {
    test('reports nothing: type imports, mocks, probes, unspawned strings, pure exports, paid roots and reasoned suppressions', async () => {
      const result = await check({ cwd: fixture('good'), cache: false, rules: [RULE] });
      expect(ofRule(result).map(at).sort()).toEqual([]);
    });

    test('raises no finding of any other kind either (no parse error, unmatched glob or invalid suppression)', async () => {
      const result = await check({ cwd: fixture('good'), cache: false, rules: [RULE] });
      expect(result.findings.map((finding) => `${finding.ruleId} ${at(finding)}`)).toEqual([]);
    });
  });

  describe('precision harness', () => {
    test('the good harness is quiet: key plumbing, stubbed CLIs, pure exports of a product that wraps an SDK, mocks before import(), entry guards, build outputs', async () => {
      const result = await check({ cwd: fixture('precision/good'), cache: false, rules: [RULE] });
      expect(ofRule(result).map(at)).toEqual([]);
    });

    describe('its bad twins', () => {
      let twins: Finding[];

      beforeAll(async () => {
        twins = ofRule(await check({ cwd: fixtureRepo(`rules/${RULE}/precision/good`, `rules/${RULE}/precision/bad`), cache: false, rules: [RULE] }));
      });

      test('report exactly the twins, none of the quiet files beside them', () => {
        expect(twins.map(at).sort()).toEqual(TWINS.map(([location]) => location).sort());
      });

      test.each(TWINS)('%s still fires (its quiet twin: %s)', (location, _quietTwin, reason) => {
        const finding = twins.find((candidate) => at(candidate) === location);
      expect(finding, `no finding at ${location}`).toBeDefined();
        for (const part of reason) expect(finding?.message).toContain(part);
      });
    });
  });
});

describe(`${RULE}: which code owns the paid call`, () => {
  test('an SDK the package under test imports (or a package of this repository) is the strict preset\'s kind when a free test only imports it; one the test sends a request with, or only the test imports, is the error; an SDK\'s helpers subpath is not its client', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': JSON.stringify({ preset: 'strict', tests: { include: ['packages/*/test/**/*.test.ts'] } }),
      'packages/wrapper/package.json': JSON.stringify({ name: '@acme/wrapper' }),
      'packages/wrapper/src/index.ts': "import OpenAI from 'openai';\nexport const make = (fetch: typeof globalThis.fetch) => new OpenAI({ apiKey: 'k', fetch });\n",
      'packages/wrapper/test/index.test.ts': "import OpenAI from 'openai';\nimport { test } from 'vitest';\ntest('builds', () => { void OpenAI; });\n",
      'packages/wrapper/test/live.test.ts': "import OpenAI from 'openai';\nimport { test } from 'vitest';\ntest('asks', async () => {\n  const client = new OpenAI({ apiKey: 'k' });\n  await client.chat.completions.create({ model: 'm', messages: [] });\n});\n",
      'packages/other/package.json': JSON.stringify({ name: '@acme/other', dependencies: { '@langchain/openai': '1.0.0' } }),
      'packages/other/src/index.ts': 'export const id = 1;\n',
      'packages/other/test/index.test.ts': "import OpenAI from 'openai';\nimport { ChatModel } from '@langchain/openai';\nimport { test } from 'vitest';\ntest('x', () => { void OpenAI; void ChatModel; });\n",
      'packages/other/test/schema.test.ts': "import { zodResponseFormat } from 'openai/helpers/zod';\nimport { test } from 'vitest';\ntest('formats', () => { void zodResponseFormat; });\n",
      'packages/openai/package.json': JSON.stringify({ name: '@langchain/openai' }),
      'packages/openai/src/index.ts': 'export class ChatModel {}\n',
    });
    const result = await check({ cwd: dir, cache: false, rules: [RULE] });
    expect(result.findings.map((finding) => `${at(finding)} ${finding.messageId} ${finding.severity}`)).toEqual([
      'packages/other/test/index.test.ts:1 paidImport error',
      'packages/other/test/index.test.ts:2 wrappedSdkImport error',
      'packages/wrapper/test/index.test.ts:1 wrappedSdkImport error',
      'packages/wrapper/test/live.test.ts:1 paidImport error',
    ]);
    const config = join(dir, 'tripwire.config.json');
    writeFileSync(config, readFileSync(config, 'utf8').replace('"preset":"strict",', ''));
    const recommended = await check({ cwd: dir, cache: false, rules: [RULE] });
    expect(recommended.findings.map((finding) => `${at(finding)} ${finding.messageId} ${finding.severity}`)).toEqual(['packages/other/test/index.test.ts:1 paidImport error', 'packages/wrapper/test/live.test.ts:1 paidImport error']);
  });
});

describe(`${RULE}: names through export *`, () => {
  // `export *` passes on only the names its target exports: a pure name asked of a barrel is not looked for in a sibling module
  // that does not export it (which made every declaration of that module part of the chain).
  const barrel = (testImports: string) =>
    makeGitRepo({
      'tripwire.config.json': JSON.stringify({ preset: 'strict', tests: { include: ['test/**/*.test.ts'] } }),
      'src/index.ts': "export * from './client.js';\nexport * from './pure.js';\n",
      'src/client.ts': "import OpenAI from 'openai';\nexport function makeClient() { return new OpenAI(); }\n",
      'src/pure.ts': "export function slug(text: string) { return text.toLowerCase(); }\nexport interface SlugOptions { lower: boolean }\nexport type Case = 'lower' | 'upper';\n",
      'test/unit.test.ts': `${testImports}\nimport { expect, test } from 'vitest';\ntest('x', () => { expect(1).toBe(1); });\n`,
    });

  test('a pure name of a barrel reaches only the module that exports it', async () => {
    const result = await check({ cwd: barrel("import { slug } from '../src/index.js';"), cache: false, rules: [RULE] });
    expect(ofRule(result)).toEqual([]);
  });

  test('a name exported by the module that imports the SDK still reaches it through the barrel', async () => {
    const result = await check({ cwd: barrel("import { makeClient } from '../src/index.js';"), cache: false, rules: [RULE] });
    expect(ofRule(result).map((finding) => `${at(finding)} ${finding.messageId}`)).toEqual(['test/unit.test.ts:1 sdkThroughProduct']);
    expect(ofRule(result)[0]?.message).toContain('makeClient (src/client.ts)');
  });

  test('a type imported without `type` is a name the barrel exports, not an unknown one', async () => {
    const result = await check({ cwd: barrel("import { slug, SlugOptions, Case } from '../src/index.js';"), cache: false, rules: [RULE] });
    expect(ofRule(result)).toEqual([]);
  });

  test('a name no branch exports is the worst case: every module the barrel re-exports', async () => {
    const result = await check({ cwd: barrel("import { nowhere } from '../src/index.js';"), cache: false, rules: [RULE] });
    expect(ofRule(result).map((finding) => `${at(finding)} ${finding.messageId}`)).toEqual(['test/unit.test.ts:1 sdkThroughProduct']);
  });
});

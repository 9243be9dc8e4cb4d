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
    // Each test runs the check itself: a mutation tester activates its mutant per test, never in a beforeAll hook.
    const checkBad = (): Promise<CheckResult> => check({ cwd: fixture('bad'), cache: false, rules: [RULE] });

    test('reports each violation once, at the call, the import, the env read or the comment', async () => {
      const findings = ofRule(await checkBad());
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

    test('reports nothing in the paid root, the helpers or the clean free test', async () => {
      const files = new Set(ofRule(await checkBad()).map((finding) => finding.file));
      expect([...files].filter((file) => !file.startsWith('test/free/'))).toEqual([]);
      expect(files.has('test/free/format-report.test.ts')).toBe(false);
    });

    test.each(BAD)('%s (%s) is reported for its reason', async (location, _shape, reason) => {
      const finding = ofRule(await checkBad()).find((candidate) => at(candidate) === location);
      expect(finding, `no finding at ${location}`).toBeDefined();
      for (const part of reason) expect(finding?.message).toContain(part);
    });

    test('every finding is an error of this rule (no parse error, unmatched glob or other kind)', async () => {
      expect((await checkBad()).findings.filter((finding) => finding.ruleId !== RULE || finding.severity !== 'error')).toEqual([]);
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
      let dir: string;
      const checkTwins = async (): Promise<Finding[]> => ofRule(await check({ cwd: dir, cache: false, rules: [RULE] }));

      beforeAll(() => {
        dir = fixtureRepo(`rules/${RULE}/precision/good`, `rules/${RULE}/precision/bad`);
      });

      test('report exactly the twins, none of the quiet files beside them', async () => {
        expect((await checkTwins()).map(at).sort()).toEqual(TWINS.map(([location]) => location).sort());
      });

      test.each(TWINS)('%s still fires (its quiet twin: %s)', async (location, _quietTwin, reason) => {
        const finding = (await checkTwins()).find((candidate) => at(candidate) === location);
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
  test('a test of the wrapper that sends a request itself (new Client(…).resource.method(…)) is the error; one that only calls a method of the client is the wrapper kind, whatever else it calls; a local name with a $ is matched as written; a package whose code imports the SDK only as a type does not wrap it, nor does a JSON file that is not a manifest name it', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': JSON.stringify({ preset: 'strict', tests: { include: ['**/test/**/*.test.ts'] } }),
      'package.json': JSON.stringify({ name: 'acme-wrapper' }),
      'src/index.ts': "import OpenAI from 'openai';\nexport const make = () => new OpenAI({ apiKey: 'k' });\n",
      'test/inline.test.ts': "import OpenAI from 'openai';\nimport { test } from 'vitest';\ntest('asks', async () => {\n  await new OpenAI({ apiKey: 'k' }).models.list();\n});\n",
      'test/close.test.ts': "import OpenAI from 'openai';\nimport { expect, test } from 'vitest';\ntest('closes', () => {\n  const client = new OpenAI({ apiKey: 'k' });\n  client.close();\n  expect(client.baseURL).not.toBe('');\n  process.stdout.write('closed\\n');\n});\n",
      'test/dollar.test.ts': "import $OpenAI from 'openai';\nimport { test } from 'vitest';\ntest('asks', async () => {\n  await new $OpenAI({ apiKey: 'k' }).models.list();\n});\n",
      'test/dollar-const.test.ts': "import OpenAI from 'openai';\nimport { test } from 'vitest';\ntest('asks', async () => {\n  const $client = new OpenAI({ apiKey: 'k' });\n  await $client.models.list();\n});\n",
      'typed/package.json': JSON.stringify({ name: 'acme-typed' }),
      'typed/src/index.ts': "import type OpenAI from 'openai';\nexport type Client = OpenAI;\n",
      'typed/test/fixtures/provider.json': JSON.stringify({ name: 'openai', models: ['gpt'] }),
      'typed/test/index.test.ts': "import OpenAI from 'openai';\nimport { test } from 'vitest';\ntest('x', () => { void OpenAI; });\n",
    });
    const result = await check({ cwd: dir, cache: false, rules: [RULE] });
    expect(result.findings.map((finding) => `${at(finding)}:${finding.column}-${finding.endLine}:${finding.endColumn} ${finding.messageId} ${finding.message}`)).toEqual([
      "test/close.test.ts:1:1-1:29 wrappedSdkImport free test imports the model SDK 'openai', which the package under test imports too: whether a request is made depends on the client the test builds (a heuristic). Build it with a fake transport, mock the module, or move the test under a paid test root.",
      "test/dollar-const.test.ts:1:1-1:29 paidImport free test imports the model SDK 'openai': test/dollar-const.test.ts → openai. Move it under a paid test root, use `import type`, or mock the module.",
      "test/dollar.test.ts:1:1-1:30 paidImport free test imports the model SDK 'openai': test/dollar.test.ts → openai. Move it under a paid test root, use `import type`, or mock the module.",
      "test/inline.test.ts:1:1-1:29 paidImport free test imports the model SDK 'openai': test/inline.test.ts → openai. Move it under a paid test root, use `import type`, or mock the module.",
      "typed/test/index.test.ts:1:1-1:29 paidImport free test imports the model SDK 'openai': typed/test/index.test.ts → openai. Move it under a paid test root, use `import type`, or mock the module.",
    ]);
  });
});

/**
 * Each finding kind in full: its id, position, message, related locations and
 * chain. One small harness under the strict preset (the heuristic kinds are off
 * in recommended), one free test per kind, and a paid test that does all of it.
 */
describe(`${RULE}: what each finding says, and where`, () => {
  let dir: string;
  const inFile = async (file: string): Promise<Finding[]> => ofRule(await check({ cwd: dir, cache: false, rules: [RULE] })).filter((finding) => finding.file === file);

  beforeAll(() => {
    dir = makeGitRepo({
      'tripwire.config.json': JSON.stringify({ preset: 'strict', tests: { include: ['test/**/*.test.ts'], paid: ['test/live/**/*.test.ts'] } }),
      'package.json': JSON.stringify({ name: 'acme' }),
      'src/ask.ts': "export async function ask(prompt: string) {\n  return fetch('https://api.openai.com/v1/responses', { method: 'POST', body: prompt });\n}\n",
      'src/client.ts': "import OpenAI from 'openai';\n\nexport const makeClient = () => new OpenAI();\n",
      'src/ask-all.ts': "import { ask } from './ask';\n\nexport const askAll = (prompts: string[]) => Promise.all(prompts.map((prompt) => ask(prompt)));\n",
      'test/helpers/llm.ts': "import Anthropic from '@anthropic-ai/sdk';\n\nexport function complete(prompt: string) {\n  return new Anthropic().messages.create({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: prompt }] });\n}\n",
      'test/helpers/ask-twice.ts': "import { ask } from '../../src/ask';\n\nexport const askTwice = async (prompt: string) => [await ask(prompt), await ask(prompt)];\n",
      'test/live/ask.test.ts': "import { execFileSync } from 'node:child_process';\nimport OpenAI from 'openai';\nimport { test } from 'vitest';\ntest('asks', () => { void OpenAI; execFileSync('claude', ['-p', 'hi']); });\n",
      'test/unit/spawn.test.ts': "import { execFileSync } from 'node:child_process';\nimport { test } from 'vitest';\ntest('runs', () => {\n  execFileSync('claude', ['-p', 'hi']);\n});\n",
      'test/unit/key.test.ts': "import { test } from 'vitest';\ntest('x', () => {\n  const key = process.env.OPENAI_API_KEY;\n  void key;\n});\n",
      'test/unit/sdk.test.ts': "import { test } from 'vitest';\nimport Anthropic from '@anthropic-ai/sdk';\ntest('x', () => { void Anthropic; });\n",
      'test/unit/helper.test.ts': "import { test } from 'vitest';\nimport { complete } from '../helpers/llm';\ntest('x', () => { void complete; });\n",
      'test/unit/helper-product.test.ts': "import { test } from 'vitest';\nimport { askTwice } from '../helpers/ask-twice';\ntest('x', () => { void askTwice; });\n",
      'test/unit/product-call.test.ts': "import { test } from 'vitest';\nimport { ask } from '../../src/ask';\ntest('x', () => { void ask; });\n",
      'test/unit/product-sdk.test.ts': "import { test } from 'vitest';\nimport { makeClient } from '../../src/client';\ntest('x', () => { void makeClient; });\n",
      'test/unit/product-deep.test.ts': "import { test } from 'vitest';\nimport { askAll } from '../../src/ask-all';\ntest('x', () => { void askAll; });\n",
      'test/unit/missing.test.ts': "import { test } from 'vitest';\nimport { gone } from '../helpers/gone';\ntest('x', () => { void gone; });\n",
    });
  });

  test('one finding per free test, none in the paid one', async () => {
    expect(ofRule(await check({ cwd: dir, cache: false, rules: [RULE] })).map((finding) => `${at(finding)} ${finding.messageId}`)).toEqual([
      'test/unit/helper-product.test.ts:2 transitivePaidCall',
      'test/unit/helper.test.ts:2 transitivePaidCall',
      'test/unit/key.test.ts:3 paidCall',
      'test/unit/missing.test.ts:2 unresolvedImport',
      'test/unit/product-call.test.ts:2 callThroughProduct',
      'test/unit/product-deep.test.ts:2 callThroughProduct',
      'test/unit/product-sdk.test.ts:2 sdkThroughProduct',
      'test/unit/sdk.test.ts:2 paidImport',
      'test/unit/spawn.test.ts:4 paidCall',
    ]);
  });

  test('paidCall: a spawn of a model CLI, at the call, the chain from the test to the spawn', async () => {
    expect(await inFile('test/unit/spawn.test.ts')).toEqual([
      {
        ruleId: RULE,
        messageId: 'paidCall',
        severity: 'error',
        file: 'test/unit/spawn.test.ts',
        line: 4,
        column: 3,
        endLine: 4,
        endColumn: 39,
        message: 'free test spawns claude. Move the call under a paid test root or replace it with a fake.',
        chain: [
          { label: 'test/unit/spawn.test.ts', file: 'test/unit/spawn.test.ts', line: 4 },
          { label: 'spawns claude', file: 'test/unit/spawn.test.ts', line: 4 },
        ],
      },
    ]);
  });

  test('paidCall: a read of an API key, at the read', async () => {
    expect(await inFile('test/unit/key.test.ts')).toEqual([
      {
        ruleId: RULE,
        messageId: 'paidCall',
        severity: 'error',
        file: 'test/unit/key.test.ts',
        line: 3,
        column: 15,
        endLine: 3,
        endColumn: 41,
        message: 'free test reads OPENAI_API_KEY. Move the call under a paid test root or replace it with a fake.',
        chain: [
          { label: 'test/unit/key.test.ts', file: 'test/unit/key.test.ts', line: 3 },
          { label: 'reads OPENAI_API_KEY', file: 'test/unit/key.test.ts', line: 3 },
        ],
      },
    ]);
  });

  test('paidImport: at the import, the SDK as the last link (no line: it is a package)', async () => {
    expect(await inFile('test/unit/sdk.test.ts')).toEqual([
      {
        ruleId: RULE,
        messageId: 'paidImport',
        severity: 'error',
        file: 'test/unit/sdk.test.ts',
        line: 2,
        column: 1,
        endLine: 2,
        endColumn: 43,
        message: "free test imports the model SDK '@anthropic-ai/sdk': test/unit/sdk.test.ts → @anthropic-ai/sdk. Move it under a paid test root, use `import type`, or mock the module.",
        chain: [
          { label: 'test/unit/sdk.test.ts', file: 'test/unit/sdk.test.ts', line: 2 },
          { label: '@anthropic-ai/sdk', file: 'test/unit/sdk.test.ts' },
        ],
      },
    ]);
  });

  test('transitivePaidCall: at the import, each positioned step related, the SDK last in the chain', async () => {
    expect(await inFile('test/unit/helper.test.ts')).toEqual([
      {
        ruleId: RULE,
        messageId: 'transitivePaidCall',
        severity: 'error',
        file: 'test/unit/helper.test.ts',
        line: 2,
        column: 1,
        endLine: 2,
        endColumn: 43,
        message:
          "free test reaches a paid call through '../helpers/llm': test/unit/helper.test.ts → complete (test/helpers/llm.ts) → @anthropic-ai/sdk. Import only what makes no paid call, mock the module, or move the test under a paid test root.",
        related: [{ file: 'test/helpers/llm.ts', line: 3, column: 1, message: 'complete (test/helpers/llm.ts)' }],
        chain: [
          { label: 'test/unit/helper.test.ts', file: 'test/unit/helper.test.ts', line: 2 },
          { label: 'complete (test/helpers/llm.ts)', file: 'test/helpers/llm.ts', line: 3 },
          { label: '@anthropic-ai/sdk', file: 'test/helpers/llm.ts' },
        ],
      },
    ]);
  });

  test('transitivePaidCall: a test helper that calls a product function that requests a metered host chose that call for the test', async () => {
    expect(await inFile('test/unit/helper-product.test.ts')).toEqual([
      {
        ruleId: RULE,
        messageId: 'transitivePaidCall',
        severity: 'error',
        file: 'test/unit/helper-product.test.ts',
        line: 2,
        column: 1,
        endLine: 2,
        endColumn: 49,
        message:
          "free test reaches a paid call through '../helpers/ask-twice': test/unit/helper-product.test.ts → askTwice (test/helpers/ask-twice.ts) → ask (src/ask.ts) → requests api.openai.com. Import only what makes no paid call, mock the module, or move the test under a paid test root.",
        related: [
          { file: 'test/helpers/ask-twice.ts', line: 3, column: 14, message: 'askTwice (test/helpers/ask-twice.ts)' },
          { file: 'src/ask.ts', line: 1, column: 1, message: 'ask (src/ask.ts)' },
          { file: 'src/ask.ts', line: 2, column: 10, message: 'requests api.openai.com' },
        ],
        chain: [
          { label: 'test/unit/helper-product.test.ts', file: 'test/unit/helper-product.test.ts', line: 2 },
          { label: 'askTwice (test/helpers/ask-twice.ts)', file: 'test/helpers/ask-twice.ts', line: 3 },
          { label: 'ask (src/ask.ts)', file: 'src/ask.ts', line: 1 },
          { label: 'requests api.openai.com', file: 'src/ask.ts', line: 2 },
        ],
      },
    ]);
  });

  test('callThroughProduct: a metered request in product code the test imports directly', async () => {
    expect(await inFile('test/unit/product-call.test.ts')).toEqual([
      {
        ruleId: RULE,
        messageId: 'callThroughProduct',
        severity: 'error',
        file: 'test/unit/product-call.test.ts',
        line: 2,
        column: 1,
        endLine: 2,
        endColumn: 37,
        message:
          'free test reaches a paid call in product code: test/unit/product-call.test.ts → ask (src/ask.ts) → requests api.openai.com. This is a heuristic: whether it runs depends on what the test passes in. Pass a fake transport or client, mock the module, or move the test under a paid test root.',
        related: [
          { file: 'src/ask.ts', line: 1, column: 1, message: 'ask (src/ask.ts)' },
          { file: 'src/ask.ts', line: 2, column: 10, message: 'requests api.openai.com' },
        ],
        chain: [
          { label: 'test/unit/product-call.test.ts', file: 'test/unit/product-call.test.ts', line: 2 },
          { label: 'ask (src/ask.ts)', file: 'src/ask.ts', line: 1 },
          { label: 'requests api.openai.com', file: 'src/ask.ts', line: 2 },
        ],
      },
    ]);
  });

  test('callThroughProduct: the kind is read from the last step of a longer chain', async () => {
    expect((await inFile('test/unit/product-deep.test.ts')).map((finding) => `${finding.messageId} ${finding.message}`)).toEqual([
      'callThroughProduct free test reaches a paid call in product code: test/unit/product-deep.test.ts → askAll (src/ask-all.ts) → ask (src/ask.ts) → requests api.openai.com. This is a heuristic: whether it runs depends on what the test passes in. Pass a fake transport or client, mock the module, or move the test under a paid test root.',
    ]);
  });

  test('sdkThroughProduct: an SDK reached only through product code, named in the message, unpositioned so not related', async () => {
    expect(await inFile('test/unit/product-sdk.test.ts')).toEqual([
      {
        ruleId: RULE,
        messageId: 'sdkThroughProduct',
        severity: 'error',
        file: 'test/unit/product-sdk.test.ts',
        line: 2,
        column: 1,
        endLine: 2,
        endColumn: 47,
        message:
          "free test reaches the model SDK 'openai' only through product code: test/unit/product-sdk.test.ts → makeClient (src/client.ts) → openai. This is a heuristic: the product imports the SDK, and whether this test makes a request depends on the client it runs with. Pass a fake client or transport, mock the module, or move the test under a paid test root.",
        related: [{ file: 'src/client.ts', line: 3, column: 14, message: 'makeClient (src/client.ts)' }],
        chain: [
          { label: 'test/unit/product-sdk.test.ts', file: 'test/unit/product-sdk.test.ts', line: 2 },
          { label: 'makeClient (src/client.ts)', file: 'src/client.ts', line: 3 },
          { label: 'openai', file: 'src/client.ts' },
        ],
      },
    ]);
  });

  test('unresolvedImport: at the import that cannot be followed', async () => {
    expect(await inFile('test/unit/missing.test.ts')).toEqual([
      {
        ruleId: RULE,
        messageId: 'unresolvedImport',
        severity: 'error',
        file: 'test/unit/missing.test.ts',
        line: 2,
        column: 1,
        endLine: 2,
        endColumn: 40,
        message: "cannot resolve '../helpers/gone' from test/unit/missing.test.ts: what it imports was not checked for paid calls. Fix the path, or add the module it names to the repository.",
      },
    ]);
  });
});

describe(`${RULE}: one finding per import, one per unresolved specifier`, () => {
  test('an import of two paid names is one finding (at the first name that reaches the call); a missing module under a helper two tests load, with different mocks, is reported once, in the helper', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': JSON.stringify({ tests: { include: ['test/**/*.test.ts'] } }),
      'test/helpers/llm.ts':
        "import Anthropic from '@anthropic-ai/sdk';\nimport { render } from './render';\n\nexport const complete = (prompt: string) => new Anthropic().messages.create({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: render(prompt) }] });\nexport const grade = (answer: string) => complete(`grade: ${answer}`);\n",
      'test/unit/two-names.test.ts': "import { test } from 'vitest';\nimport { complete, grade } from '../helpers/llm';\ntest('x', () => { void complete; void grade; });\n",
      'test/unit/mocked-fs.test.ts': "import { test, vi } from 'vitest';\nimport { grade } from '../helpers/llm';\nvi.mock('node:fs');\ntest('x', () => { void grade; });\n",
    });
    const findings = ofRule(await check({ cwd: dir, cache: false, rules: [RULE] }));
    expect(findings.map((finding) => `${at(finding)}:${finding.column} ${finding.messageId} ${finding.message}`)).toEqual([
      "test/helpers/llm.ts:2:1 unresolvedImport cannot resolve './render' from test/helpers/llm.ts: what it imports was not checked for paid calls. Fix the path, or add the module it names to the repository.",
      "test/unit/mocked-fs.test.ts:2:1 transitivePaidCall free test reaches a paid call through '../helpers/llm': test/unit/mocked-fs.test.ts → grade (test/helpers/llm.ts) → complete (test/helpers/llm.ts) → @anthropic-ai/sdk. Import only what makes no paid call, mock the module, or move the test under a paid test root.",
      "test/unit/two-names.test.ts:2:1 transitivePaidCall free test reaches a paid call through '../helpers/llm': test/unit/two-names.test.ts → complete (test/helpers/llm.ts) → @anthropic-ai/sdk. Import only what makes no paid call, mock the module, or move the test under a paid test root.",
    ]);
  });
});

describe(`${RULE}: a free test it could not read`, () => {
  test('is the read-error finding (fileTooLarge) alone; the free tests beside it are still checked, also for an SDK import while a product file is too large to read', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': JSON.stringify({ tests: { include: ['test/**/*.test.ts'] }, limits: { maxFileBytes: 200 } }),
      'test/big.test.ts': `import { execFileSync } from 'node:child_process';\nimport { test } from 'vitest';\ntest('runs', () => {\n  execFileSync('claude', ['-p', 'hi']);\n});\n${'// padding\n'.repeat(30)}`,
      'test/small.test.ts': "import { execFileSync } from 'node:child_process';\nexecFileSync('claude', ['-p']);\n",
      'test/sdk.test.ts': "import OpenAI from 'openai';\nvoid OpenAI;\n",
      'src/rows.ts': `export const rows = [\n${'  "row",\n'.repeat(30)}];\n`,
    });
    const result = await check({ cwd: dir, cache: false });
    expect(result.findings.map((finding) => `${at(finding)} ${finding.ruleId} ${finding.messageId}`)).toEqual([
      'src/rows.ts:1 read-error fileTooLarge',
      'test/big.test.ts:1 read-error fileTooLarge',
      'test/sdk.test.ts:1 no-paid-calls-in-free-tests paidImport',
      'test/small.test.ts:2 no-paid-calls-in-free-tests paidCall',
    ]);
  });
});

describe(`${RULE}: what an import brings in`, () => {
  test('a bare require() or import() takes the whole module (reported through its paid export); an import of a type only, a type binding of a paid function beside a pure value, and an import for side effects of a module that makes no call on load, are not; one of a module that calls on load is', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': JSON.stringify({ tests: { include: ['test/**/*.test.ts'] } }),
      'test/helpers/llm.ts':
        "import Anthropic from '@anthropic-ai/sdk';\n\nexport interface Config { model: string }\nexport const complete = (prompt: string) => new Anthropic().messages.create({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: prompt }] });\nexport const render = (prompt: string) => prompt.trim();\n",
      'test/unit/bare-require.test.ts': "import { test } from 'vitest';\ntest('x', () => {\n  require('../helpers/llm');\n});\n",
      'test/unit/bare-import.test.ts': "import { test } from 'vitest';\ntest('x', async () => {\n  await import('../helpers/llm');\n});\n",
      'test/unit/type-binding.test.ts': "import { test } from 'vitest';\nimport { type Config } from '../helpers/llm';\nconst c: Config = { model: 'm' };\ntest('x', () => { void c; });\n",
      'test/unit/typeof.test.ts': "import { test } from 'vitest';\nimport { type complete, render } from '../helpers/llm';\ntype Complete = typeof complete;\ntest('x', () => { const c: Complete | null = null; void c; void render; });\n",
      'test/unit/side-effect.test.ts': "import { test } from 'vitest';\nimport '../helpers/llm';\ntest('x', () => {});\n",
      'test/helpers/warm.ts': "import { execFileSync } from 'node:child_process';\n\nexecFileSync('claude', ['-p', 'warm up']);\n",
      'test/unit/side-effect-call.test.ts': "import { test } from 'vitest';\nimport '../helpers/warm';\ntest('x', () => {});\n",
    });
    const findings = ofRule(await check({ cwd: dir, cache: false, rules: [RULE] }));
    expect(findings.map((finding) => `${at(finding)}:${finding.column} ${finding.messageId} ${finding.message}`)).toEqual([
      "test/unit/bare-import.test.ts:3:9 transitivePaidCall free test reaches a paid call through '../helpers/llm': test/unit/bare-import.test.ts → complete (test/helpers/llm.ts) → @anthropic-ai/sdk. Import only what makes no paid call, mock the module, or move the test under a paid test root.",
      "test/unit/bare-require.test.ts:3:3 transitivePaidCall free test reaches a paid call through '../helpers/llm': test/unit/bare-require.test.ts → complete (test/helpers/llm.ts) → @anthropic-ai/sdk. Import only what makes no paid call, mock the module, or move the test under a paid test root.",
      "test/unit/side-effect-call.test.ts:2:1 transitivePaidCall free test reaches a paid call through '../helpers/warm': test/unit/side-effect-call.test.ts → test/helpers/warm.ts (on import) → spawns claude. Import only what makes no paid call, mock the module, or move the test under a paid test root.",
    ]);
  });
});

describe(`${RULE}: each free test is checked with its own plants and mocks`, () => {
  test('a key or a stub CLI one test plants does not quiet the test beside it; a mock matches the module it resolves to, never another; a namespace import is followed through the members it uses, or only the module load when it uses none; each unresolved import is reported', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': JSON.stringify({ tests: { include: ['test/**/*.test.ts'] } }),
      'test/helpers/cli.ts': "import { execFileSync } from 'node:child_process';\n\nexport const ask = (prompt: string) => execFileSync('claude', ['-p', prompt]);\n",
      'test/helpers/key.ts': "export const keyed = () => process.env.OPENAI_API_KEY;\n",
      'test/helpers/render.ts': "export const render = (prompt: string) => prompt.trim();\n",
      'test/helpers/session.ts': "import { execFileSync } from 'node:child_process';\n\nexecFileSync('claude', ['-p', 'warm up']);\nexport const id = 'session';\n",
      'test/unit/a-plants-key.test.ts': "import { test } from 'vitest';\nimport { keyed } from '../helpers/key';\nprocess.env.OPENAI_API_KEY = 'sk-test';\ntest('x', () => { void keyed(); });\n",
      'test/unit/b-reads-key.test.ts': "import { test } from 'vitest';\nimport { keyed } from '../helpers/key';\ntest('x', () => { void keyed(); });\n",
      'test/unit/c-stubs-cli.test.ts': "import { writeFileSync } from 'node:fs';\nimport { test } from 'vitest';\nimport { ask } from '../helpers/cli';\nwriteFileSync('/tmp/bin/claude', '#!/bin/sh\\n', { mode: 0o755 });\ntest('x', () => { void ask('hi'); });\n",
      'test/unit/d-runs-cli.test.ts': "import { test } from 'vitest';\nimport { ask } from '../helpers/cli';\ntest('x', () => { void ask('hi'); });\n",
      'test/unit/e-mocks-by-path.test.ts': "import { test, vi } from 'vitest';\nimport { ask } from '../helpers/cli.js';\nvi.mock('../helpers/cli');\ntest('x', () => { void ask('hi'); });\n",
      'test/unit/f-mocks-another.test.ts': "import { test, vi } from 'vitest';\nimport { ask } from '../helpers/cli';\nvi.mock('../helpers/render');\ntest('x', () => { void ask('hi'); });\n",
      'test/unit/g-mocks-missing.test.ts': "import { test, vi } from 'vitest';\nimport { gone } from '../helpers/gone';\nvi.mock('./absent-setup');\ntest('x', () => { void gone; });\n",
      'test/unit/h-namespace-member.test.ts': "import { test } from 'vitest';\nimport * as cli from '../helpers/cli';\ntest('x', () => { void cli.ask('hi'); });\n",
      'test/unit/i-namespace-unused.test.ts': "import { test } from 'vitest';\nimport * as session from '../helpers/session';\ntest('x', () => {});\n",
      'test/unit/i-namespace-unused-quiet.test.ts': "import { test } from 'vitest';\nimport * as cli from '../helpers/cli';\ntest('x', () => {});\n",
      'test/unit/j-missing.test.ts': "import { test } from 'vitest';\nimport { absent } from '../helpers/absent';\ntest('x', () => { void absent; });\n",
      'test/unit/k-pure.test.ts': "import { test } from 'vitest';\nimport { render } from '../helpers/render';\ntest('x', () => { void render('x'); });\n",
    });
    const findings = ofRule(await check({ cwd: dir, cache: false, rules: [RULE] }));
    expect(findings.map((finding) => `${at(finding)}:${finding.column} ${finding.messageId} ${finding.message}`)).toEqual([
      "test/unit/b-reads-key.test.ts:2:1 transitivePaidCall free test reaches a paid call through '../helpers/key': test/unit/b-reads-key.test.ts → keyed (test/helpers/key.ts) → reads OPENAI_API_KEY. Import only what makes no paid call, mock the module, or move the test under a paid test root.",
      "test/unit/d-runs-cli.test.ts:2:1 transitivePaidCall free test reaches a paid call through '../helpers/cli': test/unit/d-runs-cli.test.ts → ask (test/helpers/cli.ts) → spawns claude. Import only what makes no paid call, mock the module, or move the test under a paid test root.",
      "test/unit/f-mocks-another.test.ts:2:1 transitivePaidCall free test reaches a paid call through '../helpers/cli': test/unit/f-mocks-another.test.ts → ask (test/helpers/cli.ts) → spawns claude. Import only what makes no paid call, mock the module, or move the test under a paid test root.",
      "test/unit/g-mocks-missing.test.ts:2:1 unresolvedImport cannot resolve '../helpers/gone' from test/unit/g-mocks-missing.test.ts: what it imports was not checked for paid calls. Fix the path, or add the module it names to the repository.",
      "test/unit/h-namespace-member.test.ts:2:1 transitivePaidCall free test reaches a paid call through '../helpers/cli': test/unit/h-namespace-member.test.ts → ask (test/helpers/cli.ts) → spawns claude. Import only what makes no paid call, mock the module, or move the test under a paid test root.",
      "test/unit/i-namespace-unused.test.ts:2:1 transitivePaidCall free test reaches a paid call through '../helpers/session': test/unit/i-namespace-unused.test.ts → test/helpers/session.ts (on import) → spawns claude. Import only what makes no paid call, mock the module, or move the test under a paid test root.",
      "test/unit/j-missing.test.ts:2:1 unresolvedImport cannot resolve '../helpers/absent' from test/unit/j-missing.test.ts: what it imports was not checked for paid calls. Fix the path, or add the module it names to the repository.",
    ]);
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

describe(`${RULE}: what a signature counts as paid, and what a test plants`, () => {
  test('a model CLI spawned with no argument, or with a probe flag beside a prompt, is a paid call; one spawned with probe flags only, a command chosen at run time, a request to another host or to a computed URL are not', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': JSON.stringify({ tests: { include: ['test/**/*.test.ts'] } }),
      'test/unit/no-args.test.ts': "import { spawn } from 'node:child_process';\nimport { test } from 'vitest';\ntest('x', () => {\n  spawn('claude');\n});\n",
      'test/unit/probe-then-ask.test.ts': "import { execFileSync } from 'node:child_process';\nimport { test } from 'vitest';\ntest('x', () => {\n  execFileSync('claude', ['--version', '-p', 'hi']);\n});\n",
      'test/unit/probe-only.test.ts': "import { execFileSync } from 'node:child_process';\nimport { test } from 'vitest';\ntest('x', () => {\n  execFileSync('claude', ['--version']);\n});\n",
      'test/unit/computed.test.ts': "import { execSync } from 'node:child_process';\nimport { test } from 'vitest';\nconst run = (command: string) => execSync(command);\ntest('x', () => {\n  run(process.argv[2] ?? 'true');\n});\n",
      'test/unit/hosts.test.ts': "import { test } from 'vitest';\ntest('x', async () => {\n  await fetch('https://example.com/status');\n  await fetch(process.argv[2] ?? '');\n});\n",
    });
    const findings = ofRule(await check({ cwd: dir, cache: false, rules: [RULE] }));
    expect(findings.map((finding) => `${at(finding)}:${finding.column} ${finding.messageId} ${finding.message}`)).toEqual([
      'test/unit/no-args.test.ts:4:3 paidCall free test spawns claude. Move the call under a paid test root or replace it with a fake.',
      'test/unit/probe-then-ask.test.ts:4:3 paidCall free test spawns claude. Move the call under a paid test root or replace it with a fake.',
    ]);
  });

  test('what a test plants is read from the test and the test-support files it imports at run time, in a test directory at any depth: not from an import of a type only, nor from product code, whose write of a key is not a read either', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': JSON.stringify({ tests: { include: ['**/*.test.ts'] } }),
      'test/helpers/stub.ts': "import { writeFileSync } from 'node:fs';\nexport type Stubbed = { bin: string };\nwriteFileSync('/tmp/bin/claude', '#!/bin/sh\\n', { mode: 0o755 });\n",
      'test/unit/type-only.test.ts': "import { execFileSync } from 'node:child_process';\nimport type { Stubbed } from '../helpers/stub';\nimport { test } from 'vitest';\ntest('x', () => {\n  const s: Stubbed | null = null;\n  void s;\n  execFileSync('claude', ['-p', 'hi']);\n});\n",
      'test/helpers/path.ts': "import { mkdtempSync } from 'node:fs';\nconst dir = mkdtempSync('/tmp/bin-');\nprocess.env.NO_COLOR = '1';\nprocess.env.PATH = `${dir}:${process.env.PATH}`;\nexport const binDir = dir;\n",
      'test/unit/on-path.test.ts': "import { execFileSync } from 'node:child_process';\nimport { test } from 'vitest';\nimport { binDir } from '../helpers/path';\ntest('x', () => {\n  void binDir;\n  execFileSync('claude', ['-p', 'hi']);\n});\n",
      'packages/app/test/stub.ts': "import { writeFileSync } from 'node:fs';\nexport const ready = true;\nwriteFileSync('/tmp/bin/claude', '#!/bin/sh\\n', { mode: 0o755 });\n",
      'packages/app/test/unit/nested.test.ts': "import { execFileSync } from 'node:child_process';\nimport { test } from 'vitest';\nimport { ready } from '../stub';\ntest('x', () => {\n  void ready;\n  execFileSync('claude', ['-p', 'hi']);\n});\n",
      'src/setup.ts': "export function configure(): void {\n  process.env.OPENAI_API_KEY = 'sk-local';\n}\n",
      'test/unit/reads-product-key.test.ts': "import { test } from 'vitest';\nimport { configure } from '../../src/setup';\ntest('x', () => {\n  configure();\n  void process.env.OPENAI_API_KEY;\n});\n",
    });
    const findings = ofRule(await check({ cwd: dir, cache: false, rules: [RULE] }));
    expect(findings.map((finding) => `${at(finding)}:${finding.column} ${finding.messageId} ${finding.message}`)).toEqual([
      'test/unit/reads-product-key.test.ts:5:8 paidCall free test reads OPENAI_API_KEY. Move the call under a paid test root or replace it with a fake.',
      'test/unit/type-only.test.ts:7:3 paidCall free test spawns claude. Move the call under a paid test root or replace it with a fake.',
    ]);
  });

  test('a test-support file too large to read plants nothing, and the free test that imports it is still checked', async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': JSON.stringify({ tests: { include: ['test/**/*.test.ts'] }, limits: { maxFileBytes: 300 } }),
      'test/helpers/big.ts': `export const rows = [\n${'  "row",\n'.repeat(40)}];\n`,
      'test/unit/big-helper.test.ts': "import { execFileSync } from 'node:child_process';\nimport { rows } from '../helpers/big';\nvoid rows;\nexecFileSync('claude', ['-p']);\n",
    });
    const result = await check({ cwd: dir, cache: false, rules: [RULE] });
    expect(result.findings.map((finding) => `${at(finding)} ${finding.ruleId} ${finding.messageId}`)).toEqual(['test/helpers/big.ts:1 read-error fileTooLarge', 'test/unit/big-helper.test.ts:4 no-paid-calls-in-free-tests paidCall']);
  });
});

describe(`${RULE}: the chain it reports`, () => {
  const files = {
    'tripwire.config.json': JSON.stringify({ tests: { include: ['test/**/*.test.ts'], paid: ['test/live/**/*.test.ts'] } }),
    'package.json': JSON.stringify({ name: 'acme' }),
    'test/helpers/first.ts': "import { execFileSync } from 'node:child_process';\n\nexport function first() {\n  return execFileSync('claude', ['-p', 'one']);\n}\n",
    'test/helpers/second.ts': "import { execFileSync } from 'node:child_process';\n\nexport function second() {\n  return execFileSync('claude', ['-p', 'two']);\n}\n",
    'test/helpers/both.ts': "import { first } from './first';\nimport { second } from './second';\n\nexport function both() {\n  return [first(), second()];\n}\n",
    'test/unit/through.test.ts': "import { test } from 'vitest';\nimport { both } from '../helpers/both';\ntest('x', () => { void both; });\n",
    'test/live/ask.test.ts': "import { test } from 'vitest';\ntest('asks', () => 1);\n",
  };
  const chainOf = async (dir: string): Promise<string | undefined> =>
    ofRule(await check({ cwd: dir, cache: false, rules: [RULE] })).find((finding) => finding.file === 'test/unit/through.test.ts')?.chain?.map((link) => link.label).join(' → ');

  test('of two equally short chains, the one through the first call in the code, whatever other tests reached first', async () => {
    const through = 'test/unit/through.test.ts → both (test/helpers/both.ts) → first (test/helpers/first.ts) → spawns claude';
    expect(await chainOf(makeGitRepo(files))).toBe(through);
    // A test checked before it reaches the second helper first.
    expect(await chainOf(makeGitRepo({ ...files, 'test/unit/direct.test.ts': "import { test } from 'vitest';\nimport { second } from '../helpers/second';\ntest('x', () => { void second; });\n" }))).toBe(through);
  });
});

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import tripwire from '../../src/index.js';
import { resetModels } from '../../src/eslint/adapter.js';
import { PACKAGE_ROOT } from '../../src/version.js';
import { makeGitRepo } from '../support/repo.js';

// The root a linted file belongs to: found above the file as the CLI finds it
// above its working directory, whatever ESLint's cwd; settings.tripwire.root overrides.

const CHAT = "import OpenAI from 'openai';\nexport const client = new OpenAI();\n";
const JUDGE = "import OpenAI from 'openai';\nexport const judge = new OpenAI();\n";

/** `rule file:line` of every tripwire message, the file relative to `top`. */
function tripwireMessages(results: ESLint.LintResult[], top: string): string[] {
  return results
    .flatMap((result) => result.messages.filter((m) => m.ruleId?.startsWith('tripwire/')).map((m) => `${m.ruleId} ${result.filePath.slice(top.length + 1)}:${m.line}`))
    .sort();
}

describe('the root in ESLint', () => {
  it("with ESLint's cwd in test/, is the directory above that holds tripwire.config.json", async () => {
    const dir = makeGitRepo({
      'tripwire.config.json': '{ "tests": { "include": ["test/**/*.test.ts"], "paid": ["test/evals/**/*.test.ts"] } }',
      'src/format.ts': 'export const format = (s: string): string => s.trim();\n',
      'test/format.test.ts': "import { format } from '../src/format.js';\nformat(' a ');\n",
      'test/chat.test.ts': CHAT,
      'test/evals/judge.test.ts': JUDGE,
    });
    // The eval is paid (so it needs a touchfile entry), the free chat test reaches a paid SDK.
    const expected = ['tripwire/no-paid-calls-in-free-tests test/chat.test.ts:1', 'tripwire/touchfiles-cover-paid-tests test/evals/judge.test.ts:1'];
    resetModels();
    const fromTest = new ESLint({ cwd: join(dir, 'test'), overrideConfigFile: true, overrideConfig: tripwire.configs.recommended });
    expect(tripwireMessages(await fromTest.lintFiles(['.']), dir)).toEqual(expected);
    resetModels();
    const fromTop = new ESLint({ cwd: dir, overrideConfigFile: true, overrideConfig: tripwire.configs.recommended });
    expect(tripwireMessages(await fromTop.lintFiles(['test']), dir)).toEqual(expected);
  });

  const MONOREPO = {
    'package.json': '{ "private": true, "workspaces": ["packages/*"] }\n',
    'packages/api/package.json': JSON.stringify({ name: 'api', type: 'module', tripwire: { tests: { include: ['test/**/*.test.ts'], paid: ['test/evals/**/*.test.ts'] } } }),
    'packages/api/test/chat.test.ts': CHAT,
    'packages/api/test/evals/judge.test.ts': JUDGE,
  };

  it("in a monorepo linted from its top, a package's own eslint.config.js (looked up per file) is checked against the package's configuration", async () => {
    resetModels();
    const dir = makeGitRepo(MONOREPO);
    const plugin = pathToFileURL(join(PACKAGE_ROOT, 'dist/src/index.js')).href;
    writeFileSync(join(dir, 'packages/api/eslint.config.js'), `import tripwire from ${JSON.stringify(plugin)};\nexport default [...tripwire.configs.recommended];\n`);
    const eslint = new ESLint({ cwd: dir });
    expect(tripwireMessages(await eslint.lintFiles(['packages/api']), dir)).toEqual([
      'tripwire/no-paid-calls-in-free-tests packages/api/test/chat.test.ts:1',
      'tripwire/touchfiles-cover-paid-tests packages/api/test/evals/judge.test.ts:1',
    ]);
  });

  it('settings.tripwire.root overrides what is found above the file', async () => {
    resetModels();
    const dir = makeGitRepo(MONOREPO);
    // The monorepo's top configures nothing: every test there is free under the defaults, the eval included.
    const eslint = new ESLint({ cwd: dir, overrideConfigFile: true, overrideConfig: [...tripwire.configs.recommended, { settings: { tripwire: { root: '.' } } }] });
    expect(tripwireMessages(await eslint.lintFiles(['packages/api']), dir)).toEqual([
      'tripwire/no-paid-calls-in-free-tests packages/api/test/chat.test.ts:1',
      'tripwire/no-paid-calls-in-free-tests packages/api/test/evals/judge.test.ts:1',
    ]);
  });
});

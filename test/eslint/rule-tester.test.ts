import { join } from 'node:path';
import { RuleTester } from 'eslint';
import tsParser from '@typescript-eslint/parser';
import { describe, it } from 'vitest';
import tripwire from '../../src/index.js';
import { makeGitRepo } from '../support/repo.js';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

// A real repository for the model; each case's code is the unsaved buffer of test/free/case.test.ts in it.
const root = makeGitRepo({
  'tripwire.config.json': '{ "tests": { "include": ["test/**/*.test.ts"], "paid": ["test/evals/**/*.test.ts"] } }',
  'test/free/case.test.ts': 'export {};\n',
  'test/helpers/judge.ts': `import Anthropic from '@anthropic-ai/sdk';\nexport const parseVerdict = (s: string) => s.trim();\nexport async function runJudge(q: string) {\n  return new Anthropic().messages.create({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: q }] });\n}\n`,
});
const filename = join(root, 'test/free/case.test.ts');

const ruleTester = new RuleTester({
  languageOptions: { parser: tsParser },
  settings: { tripwire: { root } },
});

const rule = tripwire.rules['no-paid-calls-in-free-tests'];
if (!rule) throw new Error('rule missing from the plugin');

ruleTester.run('no-paid-calls-in-free-tests', rule, {
  valid: [
    { filename, code: "import type { ChatCompletion } from 'openai';" },
    { filename, code: "import OpenAI from 'openai';\nvi.mock('openai');" },
    { filename, code: "import { execSync } from 'node:child_process';\nexecSync('claude --version');" },
    { filename, code: "import { execSync } from 'node:child_process';\nexecSync('echo claude');" },
    { filename, code: "import { parseVerdict } from '../helpers/judge.js';\nparseVerdict(' ok ');" },
    { filename, code: "const home = process.env.HOME;" },
  ],
  invalid: [
    {
      filename,
      code: "import OpenAI from 'openai';",
      errors: [{ messageId: 'paidImport', line: 1, column: 1, endLine: 1, endColumn: 29 }],
    },
    {
      filename,
      code: "import { spawn } from 'node:child_process';\nspawn('claude', ['-p', 'hi']);",
      errors: [{ messageId: 'paidCall', line: 2, column: 1, endLine: 2, endColumn: 30 }],
    },
    {
      filename,
      code: "await fetch('https://api.openai.com/v1/chat/completions');",
      errors: [{ messageId: 'paidCall', line: 1, column: 7, endLine: 1, endColumn: 58 }],
    },
    {
      filename,
      code: "const key = process.env.OPENAI_API_KEY;",
      errors: [{ messageId: 'paidCall', line: 1, column: 13, endLine: 1, endColumn: 39 }],
    },
    {
      filename,
      code: "import { runJudge } from '../helpers/judge.js';\nawait runJudge('q');",
      errors: [{ messageId: 'transitivePaidCall', line: 1, column: 1, endLine: 1, endColumn: 48 }],
    },
  ],
});

import type { ReportOptions } from '../../src/report/index.js';
import type { CheckResult } from '../../src/types.js';

export const checkResult: CheckResult = {
  findings: [
    {
      ruleId: 'tiers-cover-paid-tests', messageId: 'paidIdWithoutTier',
      severity: 'error',
      file: 'test/helpers/touchfiles.ts',
      line: 12,
      column: 3,
      endLine: 12,
      endColumn: 19,
      message: 'Paid test "checkout flow" is in no tier; add it to gate or periodic',
      related: [
        { file: 'test/e2e/checkout.paid.test.ts', line: 4, column: 1, message: 'paid test declared here' },
        { file: 'tiers.json', line: 2 },
      ],
    },
    {
      ruleId: 'no-paid-calls-in-free-tests', messageId: 'paidCall',
      severity: 'warn',
      file: 'test/unit/pricing.test.ts',
      line: 41,
      column: 10,
      endLine: 43,
      endColumn: 2,
      message: 'Calls openai.chat: 100% of runs hit a paid API\nMove the call behind the paid tag, or mock it',
    },
    {
      ruleId: 'touchfiles-cover-paid-tests', messageId: 'missingTouchfileEntry',
      severity: 'error',
      file: 'test/helpers/touchfiles.ts',
      line: 3,
      column: 1,
      message: 'Touchfile entry "src/llm/**" matches no file',
    },
  ],
  summary: { errors: 2, warnings: 1, files: 312, rules: 7, ms: 184 },
};

export const reportOptions: ReportOptions = {
  cwd: '/work/demo-repo',
  color: false,
  toolVersion: '0.1.0',
  rules: [
    {
      id: 'no-paid-calls-in-free-tests',
      description: 'Free tests must not call paid LLM APIs',
      url: 'https://example.test/rules/no-paid-calls-in-free-tests',
      severity: 'warn',
    },
    {
      id: 'touchfiles-cover-paid-tests',
      description: 'Every paid test is covered by a touchfile entry',
      url: 'https://example.test/rules/touchfiles-cover-paid-tests',
      severity: 'error',
      messages: { missingTouchfileEntry: { description: 'A paid test id has no touchfile entry.' } },
    },
    {
      id: 'tiers-cover-paid-tests',
      description: 'Every paid test belongs to a tier',
      url: 'https://example.test/rules/tiers-cover-paid-tests',
    },
  ],
};

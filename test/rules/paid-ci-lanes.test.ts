import { describe, expect, it } from 'vitest';
import { check } from '../../src/engine/index.js';
import { conditionExpression, evaluate, parseExpression, truth, UNKNOWN_VALUE } from '../../src/analysis/gh-expression.js';
import { fixtureRepo } from '../support/overlay.js';
import { makeGitRepo, runCli } from '../support/repo.js';

/** `line:column-endLine:endColumn messageId` of each finding of the rule in a repository holding `files`. */
async function reported(files: Record<string, string>): Promise<string[]> {
  const result = await check({ cwd: makeGitRepo(files), cache: false, rules: ['paid-ci-lanes'] });
  return result.findings.map((f) => `${f.file}:${f.line}:${f.column}-${f.endLine ?? ''}:${f.endColumn ?? ''} ${f.messageId}`);
}

async function messages(files: Record<string, string>): Promise<string[]> {
  const result = await check({ cwd: makeGitRepo(files), cache: false, rules: ['paid-ci-lanes'] });
  return result.findings.map((f) => `${f.file}:${f.line} ${f.messageId} ${f.message}`);
}

const HARNESS = {
  'tripwire.config.json': '{ "tests": { "include": ["test/**/*.test.ts"], "paid": ["test/evals/**/*.test.ts"] } }',
  'package.json': '{ "scripts": { "test": "vitest run --exclude \'test/evals/**\'", "test:evals": "vitest run test/evals", "evals": "npm run test:evals", "test:integration": "vitest run --project integration" } }',
  'test/unit/a.test.ts': "import { test } from 'vitest';\ntest('a', () => {});\n",
  'test/evals/judge.test.ts': "import { test } from 'vitest';\ntest('judge', () => {});\n",
};

describe('paid-ci-lanes: the free lane', () => {
  it('reports a job-level key reaching `npm test`, at the key', async () => {
    expect(await reported({ ...HARNESS, '.github/workflows/ci.yml': 'on: push\njobs:\n  unit:\n    runs-on: ubuntu-latest\n    env:\n      OPENAI_API_KEY: ${{ secrets.OPENAI_API_KEY }}\n    steps:\n      - run: npm test\n' })).toEqual([
      '.github/workflows/ci.yml:6:23-6:52 secretInFreeLane',
    ]);
  });

  it('reports a key the free step passes itself, in its run text', async () => {
    expect(await reported({ ...HARNESS, '.github/workflows/ci.yml': 'on: push\njobs:\n  unit:\n    runs-on: ubuntu-latest\n    steps:\n      - run: ANTHROPIC_API_KEY=${{ secrets.ANTHROPIC_API_KEY }} npx vitest run test/unit\n' })).toEqual([
      '.github/workflows/ci.yml:6:14-6:89 secretInFreeLane',
    ]);
  });

  it('reports a secret of another name assigned to a key variable, and a configured key name', async () => {
    expect(
      await reported({
        ...HARNESS,
        'tripwire.config.json': '{ "tests": { "include": ["test/**/*.test.ts"], "paid": ["test/evals/**/*.test.ts"] }, "paid": { "env": ["ACME_KEY"] } }',
        '.github/workflows/ci.yml': 'on: push\njobs:\n  unit:\n    runs-on: ubuntu-latest\n    steps:\n      - env:\n          OPENAI_API_KEY: ${{ secrets.OAI }}\n          X: ${{ secrets.ACME_KEY }}\n        run: npm test\n',
      }),
    ).toEqual(['.github/workflows/ci.yml:7:27-7:45 secretInFreeLane', '.github/workflows/ci.yml:8:14-8:37 secretInFreeLane']);
  });

  it('does not report a key given to the paid step of the same job, nor a fake key, nor another secret', async () => {
    expect(
      await reported({
        ...HARNESS,
        '.github/workflows/ci.yml':
          'on: push\njobs:\n  all:\n    runs-on: ubuntu-latest\n    env:\n      OPENAI_API_KEY: sk-fake\n      NPM_TOKEN: ${{ secrets.NPM_TOKEN }}\n    steps:\n      - run: npm test\n      - env:\n          OPENAI_API_KEY: ${{ secrets.OPENAI_API_KEY }}\n        run: npm run evals\n',
      }),
    ).toEqual([]);
  });

  it('does not count a paid script, a paid directory, or an integration suite as the free suite', async () => {
    expect(
      await reported({
        ...HARNESS,
        '.github/workflows/ci.yml':
          'on: push\njobs:\n  paid:\n    runs-on: ubuntu-latest\n    env:\n      OPENAI_API_KEY: ${{ secrets.OPENAI_API_KEY }}\n    steps:\n      - run: npm run evals\n      - run: npx vitest run test/evals/judge.test.ts\n      - run: pnpm test:integration\n      - run: npx vitest run --config vitest.e2e.config.ts\n',
      }),
    ).toEqual([]);
  });

  it('reports a secret chosen at run time that reaches the free suite as unevaluable, once', async () => {
    expect(await reported({ ...HARNESS, '.github/workflows/ci.yml': 'on: push\njobs:\n  unit:\n    runs-on: ubuntu-latest\n    env:\n      KEY: ${{ secrets[matrix.key] }}\n    steps:\n      - run: npm test\n      - run: npm test -- --shard 2/2\n' })).toEqual([
      '.github/workflows/ci.yml:6:12-6:38 unevaluableExpression',
    ]);
  });
});

describe('paid-ci-lanes: the paid lane on pull requests', () => {
  it('reports an ungated job-level key at the job, with defect, consequence and fix', async () => {
    expect(await messages({ ...HARNESS, '.github/workflows/ci.yml': 'on: pull_request\njobs:\n  judge:\n    runs-on: ubuntu-latest\n    env:\n      OPENAI_API_KEY: ${{ secrets.OPENAI_API_KEY }}\n    steps:\n      - run: node judge.mjs\n' })).toEqual([
      ".github/workflows/ci.yml:3 untrustedPaidJob job judge (.github/workflows/ci.yml:3) receives secrets.OPENAI_API_KEY on pull_request without a condition on the author's association: a pull request from an untrusted author (a fork, a first-time contributor, a bot) reaches it and can spend the key's money or read the key. Add `if: contains(fromJSON('[\"OWNER\",\"MEMBER\",\"COLLABORATOR\"]'), github.event.pull_request.author_association)` to the job (or make it need a job that has it).",
    ]);
  });

  it('reports a step that runs paid tests without a key as well: one finding per job, the other steps related', async () => {
    const result = await check({
      cwd: makeGitRepo({ ...HARNESS, '.github/workflows/ci.yml': 'on: pull_request_target\njobs:\n  evals:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm run test:evals\n      - run: npx vitest run test/evals\n' }),
      cache: false,
      rules: ['paid-ci-lanes'],
    });
    expect(result.findings.map((f) => [f.line, f.messageId, f.related])).toEqual([[6, 'untrustedPaidStep', [{ file: '.github/workflows/ci.yml', line: 7, message: 'another paid step of the job without a trust condition' }]]]);
  });

  it('accepts the condition in its usual shapes: ==-chains, contains on a list or a string, an event guard, a wrapped expression', async () => {
    expect(
      await reported({
        ...HARNESS,
        '.github/workflows/ci.yml': [
          'on: [pull_request, push]',
          'jobs:',
          '  a:',
          "    if: github.event.pull_request.author_association == 'OWNER' || github.event.pull_request.author_association == 'member'",
          '    env: { OPENAI_API_KEY: "${{ secrets.OPENAI_API_KEY }}" }',
          '    steps: [{ run: node a.mjs }]',
          '  b:',
          "    if: ${{ contains('OWNER,MEMBER,COLLABORATOR', github.event.pull_request.author_association) && !cancelled() }}",
          '    env: { OPENAI_API_KEY: "${{ secrets.OPENAI_API_KEY }}" }',
          '    steps: [{ run: node b.mjs }]',
          '  c:',
          "    if: github.event_name == 'push'",
          '    env: { OPENAI_API_KEY: "${{ secrets.OPENAI_API_KEY }}" }',
          '    steps: [{ run: node c.mjs }]',
          '  d:',
          '    if: false',
          '    env: { OPENAI_API_KEY: "${{ secrets.OPENAI_API_KEY }}" }',
          '    steps: [{ run: node d.mjs }]',
          '',
        ].join('\n'),
      }),
    ).toEqual([]);
  });

  it('does not accept a condition that mixes text and an expression (always true), a negated check, or a needs gate after always()', async () => {
    expect(
      await reported({
        ...HARNESS,
        '.github/workflows/ci.yml': [
          'on: pull_request',
          'jobs:',
          '  gate:',
          "    if: contains(fromJSON('[\"OWNER\"]'), github.event.pull_request.author_association)",
          '    steps: [{ run: echo ok }]',
          '  a:',
          "    if: ${{ github.event.pull_request.author_association == 'OWNER' }} && true",
          '    env: { OPENAI_API_KEY: "${{ secrets.OPENAI_API_KEY }}" }',
          '    steps: [{ run: node a.mjs }]',
          '  b:',
          "    if: github.event.pull_request.author_association != 'NONE'",
          '    env: { OPENAI_API_KEY: "${{ secrets.OPENAI_API_KEY }}" }',
          '    steps: [{ run: node b.mjs }]',
          '  c:',
          '    needs: gate',
          '    if: always()',
          '    env: { OPENAI_API_KEY: "${{ secrets.OPENAI_API_KEY }}" }',
          '    steps: [{ run: node c.mjs }]',
          '  d:',
          '    needs: [c, gate]',
          '    env: { OPENAI_API_KEY: "${{ secrets.OPENAI_API_KEY }}" }',
          '    steps: [{ run: node d.mjs }]',
          '',
        ].join('\n'),
      }),
    ).toEqual(['.github/workflows/ci.yml:7:9-7:79 untrustedPaidJob', '.github/workflows/ci.yml:11:9-11:63 untrustedAssociation', '.github/workflows/ci.yml:16:9-16:17 untrustedPaidJob']);
  });

  it('reports the actor, a field of the head the author controls and another object\'s association as the wrong field', async () => {
    expect(
      await reported({
        ...HARNESS,
        '.github/workflows/ci.yml': [
          'on: pull_request',
          'jobs:',
          '  a:',
          "    if: github.actor == 'octocat'",
          '    env: { OPENAI_API_KEY: "${{ secrets.OPENAI_API_KEY }}" }',
          '    steps: [{ run: node a.mjs }]',
          '  b:',
          "    if: github.event.pull_request.head.ref == 'main'",
          '    env: { OPENAI_API_KEY: "${{ secrets.OPENAI_API_KEY }}" }',
          '    steps: [{ run: node b.mjs }]',
          '  c:',
          '    if: github.event.pull_request.head.repo.full_name != github.repository',
          '    env: { OPENAI_API_KEY: "${{ secrets.OPENAI_API_KEY }}" }',
          '    steps: [{ run: node c.mjs }]',
          '',
        ].join('\n'),
      }),
    ).toEqual(['.github/workflows/ci.yml:4:9-4:34 trustOnWrongField', '.github/workflows/ci.yml:8:9-8:53 trustOnWrongField', '.github/workflows/ci.yml:12:9-12:75 trustOnWrongField']);
  });

  it('takes a head in this repository as a trust condition (an author who cannot push opens pull requests from a fork), directly, negated as fork, or through a needed job\'s output', async () => {
    const SAME_REPOSITORY = 'github.event.pull_request.head.repo.full_name == github.repository';
    expect(
      await reported({
        ...HARNESS,
        '.github/workflows/ci.yml': [
          'on: pull_request',
          'jobs:',
          '  changes:',
          '    runs-on: ubuntu-latest',
          '    outputs:',
          `      internal: \${{ github.event_name != 'pull_request' || ${SAME_REPOSITORY} }}`,
          '      fixed: "true"',
          '    steps: [{ run: echo }]',
          '  a:',
          `    if: ${SAME_REPOSITORY}`,
          '    env: { OPENAI_API_KEY: "${{ secrets.OPENAI_API_KEY }}" }',
          '    steps: [{ run: node a.mjs }]',
          '  b:',
          '    if: ${{ !github.event.pull_request.head.repo.fork }}',
          '    env: { OPENAI_API_KEY: "${{ secrets.OPENAI_API_KEY }}" }',
          '    steps: [{ run: node b.mjs }]',
          '  c:',
          '    needs: changes',
          '    steps:',
          '      - run: node c.mjs',
          "        if: needs.changes.outputs.internal == 'true'",
          '        env: { OPENAI_API_KEY: "${{ secrets.OPENAI_API_KEY }}" }',
          '',
        ].join('\n'),
      }),
    ).toEqual([]);
  });

  it('evaluates a job output on each pull-request event: one that lets every event but pull_request through admits pull_request_target', async () => {
    const workflow = [
      'on: [pull_request, pull_request_target]',
      'jobs:',
      '  changes:',
      '    runs-on: ubuntu-latest',
      '    outputs:',
      "      internal: ${{ github.event_name != 'pull_request' || github.event.pull_request.head.repo.full_name == github.repository }}",
      '    steps: [{ run: echo }]',
      '  c:',
      '    needs: changes',
      '    steps:',
      '      - run: node c.mjs',
      "        if: needs.changes.outputs.internal == 'true'",
      '        env: { OPENAI_API_KEY: "${{ secrets.OPENAI_API_KEY }}" }',
      '',
    ].join('\n');
    expect(await reported({ ...HARNESS, '.github/workflows/ci.yml': workflow })).toEqual(['.github/workflows/ci.yml:12:13-12:53 untrustedPaidStep']);
    expect(await reported({ ...HARNESS, '.github/workflows/ci.yml': workflow.replace('on: [pull_request, pull_request_target]', 'on: pull_request') })).toEqual([]);
  });

  it('does not take it where it proves nothing: a job that does not need the output\'s job, an output set by a step, a writer the options leave untrusted', async () => {
    const workflow = (options: string) => [
      'on: pull_request',
      'jobs:',
      '  changes:',
      '    runs-on: ubuntu-latest',
      '    outputs:',
      '      internal: ${{ github.event.pull_request.head.repo.full_name == github.repository }}',
      '      filtered: ${{ steps.filter.outputs.internal }}',
      '    steps: [{ id: filter, run: echo }]',
      '  a:',
      "    if: needs.changes.outputs.internal == 'true'",
      '    env: { OPENAI_API_KEY: "${{ secrets.OPENAI_API_KEY }}" }',
      '    steps: [{ run: node a.mjs }]',
      '  b:',
      '    needs: changes',
      "    if: needs.changes.outputs.filtered == 'true'",
      '    env: { OPENAI_API_KEY: "${{ secrets.OPENAI_API_KEY }}" }',
      '    steps: [{ run: node b.mjs }]',
      '  c:',
      '    if: github.event.pull_request.head.repo.full_name == github.repository',
      '    env: { OPENAI_API_KEY: "${{ secrets.OPENAI_API_KEY }}" }',
      '    steps: [{ run: node c.mjs }]',
      '',
      options,
    ].join('\n');
    expect(await reported({ ...HARNESS, '.github/workflows/ci.yml': workflow('') })).toEqual(['.github/workflows/ci.yml:10:9-10:49 unprovenCondition', '.github/workflows/ci.yml:15:9-15:49 unprovenCondition']);
    const ownerOnly = '{ "preset": "strict", "tests": { "include": ["test/**/*.test.ts"], "paid": ["test/evals/**/*.test.ts"] }, "rules": { "paid-ci-lanes": ["error", { "trustedAssociations": ["OWNER"] }] } }';
    expect(await reported({ ...HARNESS, 'tripwire.config.json': ownerOnly, '.github/workflows/ci.yml': workflow('') })).toContain('.github/workflows/ci.yml:19:9-19:75 trustOnWrongField');
  });

  it('reports a condition it cannot prove either way (a label, a job output) as unprovenCondition: a warning, an error under strict', async () => {
    const files = {
      ...HARNESS,
      '.github/workflows/ci.yml': "on:\n  pull_request:\n    types: [labeled]\njobs:\n  a:\n    if: github.event.label.name == 'run-evals'\n    env: { OPENAI_API_KEY: \"${{ secrets.OPENAI_API_KEY }}\" }\n    steps: [{ run: node a.mjs }]\n",
    };
    const recommended = await check({ cwd: makeGitRepo(files), cache: false, rules: ['paid-ci-lanes'] });
    expect(recommended.findings.map((f) => `${f.line}:${f.column} ${f.messageId} ${f.severity}`)).toEqual(['6:9 unprovenCondition warn']);
    const strict = await check({ cwd: makeGitRepo({ ...files, 'tripwire.config.json': '{ "preset": "strict", "tests": { "include": ["test/**/*.test.ts"], "paid": ["test/evals/**/*.test.ts"] } }' }), cache: false, rules: ['paid-ci-lanes'] });
    expect(strict.findings.map((f) => `${f.line}:${f.column} ${f.messageId} ${f.severity}`)).toEqual(['6:9 unprovenCondition error']);
  });

  it('judges every pull-request event the workflow has: a guard on pull_request alone leaves pull_request_target open', async () => {
    expect(
      await reported({
        ...HARNESS,
        '.github/workflows/ci.yml': "on: [pull_request, pull_request_target]\njobs:\n  a:\n    if: github.event_name != 'pull_request' || github.event.pull_request.author_association == 'OWNER'\n    env: { OPENAI_API_KEY: \"${{ secrets.OPENAI_API_KEY }}\" }\n    steps: [{ run: node a.mjs }]\n",
      }),
    ).toEqual(['.github/workflows/ci.yml:4:9-4:103 untrustedAssociation']);
  });

  it('needs no condition in a workflow that pull requests do not trigger, or one the options skip with a reason', async () => {
    expect(
      await reported({
        ...HARNESS,
        'tripwire.config.json':
          '{ "tests": { "include": ["test/**/*.test.ts"], "paid": ["test/evals/**/*.test.ts"] }, "rules": { "paid-ci-lanes": ["error", { "skip": [{ "workflow": ".github/workflows/legacy-*.yml", "reason": "disabled in the repository settings" }] }] } }',
        '.github/workflows/nightly.yml': 'on:\n  schedule: [{ cron: "0 3 * * *" }]\n  workflow_dispatch: {}\njobs:\n  a:\n    env: { OPENAI_API_KEY: "${{ secrets.OPENAI_API_KEY }}" }\n    steps: [{ run: npm run evals }]\n',
        '.github/workflows/legacy-evals.yml': 'on: pull_request\njobs:\n  a:\n    env: { OPENAI_API_KEY: "${{ secrets.OPENAI_API_KEY }}" }\n    steps: [{ run: npm run evals }]\n',
      }),
    ).toEqual([]);
  });

  it('takes the trusted associations and extra key names from its options', async () => {
    expect(
      await reported({
        ...HARNESS,
        'tripwire.config.json':
          '{ "tests": { "include": ["test/**/*.test.ts"], "paid": ["test/evals/**/*.test.ts"] }, "rules": { "paid-ci-lanes": ["error", { "trustedAssociations": ["OWNER"], "secrets": ["LLM_GATEWAY_TOKEN"] }] } }',
        '.github/workflows/ci.yml':
          "on: pull_request\njobs:\n  a:\n    if: contains(fromJSON('[\"OWNER\", \"MEMBER\"]'), github.event.pull_request.author_association)\n    env: { OPENAI_API_KEY: \"${{ secrets.OPENAI_API_KEY }}\" }\n    steps: [{ run: node a.mjs }]\n  b:\n    env: { GATEWAY: \"${{ secrets.LLM_GATEWAY_TOKEN }}\" }\n    steps: [{ run: node b.mjs }]\n",
      }),
    ).toEqual(['.github/workflows/ci.yml:4:9-4:96 untrustedAssociation', '.github/workflows/ci.yml:7:3-7:4 untrustedPaidJob']);
  });

  it('rejects a skip without its reason as an invalid configuration', async () => {
    const dir = makeGitRepo({ ...HARNESS, 'tripwire.config.json': '{ "rules": { "paid-ci-lanes": ["error", { "skip": [{ "workflow": "x.yml" }] }] } }' });
    const run = runCli(['check'], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('reason');
  });

  it('reports a pull_request_target job that runs `gh pr checkout` and paid tests, at the checkout', async () => {
    expect(await reported({ ...HARNESS, '.github/workflows/t.yml': "on: pull_request_target\njobs:\n  a:\n    if: github.event.pull_request.author_association == 'OWNER'\n    steps:\n      - run: gh pr checkout ${{ github.event.number }}\n      - run: npm run evals\n" })).toEqual([
      '.github/workflows/t.yml:6:9-6:12 prTargetRunsPrCode',
    ]);
  });

  it('reports a remote reusable workflow given every secret only when the job is ungated', async () => {
    expect(
      await reported({
        ...HARNESS,
        '.github/workflows/ci.yml':
          "on: pull_request\njobs:\n  a:\n    uses: acme/ci/.github/workflows/evals.yml@v1\n    secrets: inherit\n  b:\n    if: github.event.pull_request.author_association == 'MEMBER'\n    uses: acme/ci/.github/workflows/evals.yml@v1\n    secrets: inherit\n  c:\n    uses: acme/ci/.github/workflows/lint.yml@v1\n",
      }),
    ).toEqual(['.github/workflows/ci.yml:4:11-4:49 unseenReusableWorkflow']);
  });

  it('reports a file that does not parse once, and does not read the rest of it', async () => {
    expect(await reported({ ...HARNESS, '.github/workflows/ci.yml': 'on: pull_request\njobs:\n  a:\n    steps: [\n' })).toEqual(['.github/workflows/ci.yml:5:1-5:2 unparsableWorkflow']);
  });

  it('reads jobs through YAML aliases', async () => {
    expect(
      await reported({
        ...HARNESS,
        '.github/workflows/ci.yml': 'on: pull_request\njobs:\n  a: &job\n    env: { OPENAI_API_KEY: "${{ secrets.OPENAI_API_KEY }}" }\n    steps: [{ run: node a.mjs }]\n  b: *job\n',
      }),
    ).toEqual(['.github/workflows/ci.yml:3:3-3:4 untrustedPaidJob', '.github/workflows/ci.yml:6:3-6:4 untrustedPaidJob']);
  });
});

describe('paid-ci-lanes: GitHub expressions', () => {
  const value = (expression: string, association: string): unknown => {
    const parsed = parseExpression(expression);
    if ('error' in parsed) return parsed.error;
    const result = evaluate(parsed, (path) => (path === 'github.event.pull_request.author_association' ? association : path === 'github.event_name' ? 'pull_request' : UNKNOWN_VALUE));
    return result === UNKNOWN_VALUE ? 'unknown' : truth(result);
  };

  it.each([
    ["contains(fromJSON('[\"OWNER\",\"MEMBER\"]'), github.event.pull_request.author_association)", 'NONE', false],
    ["contains(fromJSON('[\"OWNER\",\"MEMBER\"]'), github.event.pull_request.author_association)", 'member', true],
    ["github.event.pull_request.author_association == 'owner'", 'OWNER', true],
    ["github.event['pull_request'].author_association == 'OWNER'", 'NONE', false],
    ["github.event.pull_request.author_association != 'NONE'", 'CONTRIBUTOR', true],
    ["github.event_name != 'pull_request' || github.event.pull_request.author_association == 'OWNER'", 'NONE', false],
    ["github.event.label.name == 'run-evals' && github.event.pull_request.author_association == 'OWNER'", 'NONE', false],
    ["github.event.label.name == 'run-evals' || github.event.pull_request.author_association == 'OWNER'", 'NONE', 'unknown'],
    ["!(github.event.pull_request.author_association == 'OWNER')", 'NONE', true],
    ['always() && false', 'NONE', false],
    ['success()', 'NONE', 'unknown'],
    ["startsWith(github.event.pull_request.author_association, 'OWN')", 'OWNER', true],
    ['1 < 2', 'NONE', true],
    ["github.event.pull_request.author_association == 'OWNER' ||", 'NONE', 'an incomplete expression'],
    ["contains(fromJSON('[\"OWNER\"]', github.event.pull_request.author_association)", 'NONE', "')' expected"],
  ])('%s for %s is %s', (expression, association, expected) => {
    expect(value(expression, association)).toBe(expected);
  });

  it.each([
    ['${{ a == b }}', ' a == b '],
    ["github.event_name == 'push'", "github.event_name == 'push'"],
    ['${{ a }} && ${{ b }}', null],
    ['run ${{ a }}', null],
  ])('reads the expression of the condition %s', (text, expected) => {
    expect(conditionExpression(text)).toBe(expected);
  });
});

describe('paid-ci-lanes: the CLI and ESLint surfaces', () => {
  it('tripwire check, spawned, prints each bad fixture finding with file:line and exits 1', () => {
    const run = runCli(['check', '--no-cache', '--rule', 'paid-ci-lanes', '--format', 'json'], fixtureRepo('ci/good', 'ci/bad/new-job-untrusted'));
    expect(run.code).toBe(1);
    const output: { findings: { ruleId: string; messageId: string; file: string; line: number; column: number }[] } = JSON.parse(run.stdout);
    expect(output.findings.map((f) => `${f.ruleId} ${f.messageId} ${f.file}:${f.line}:${f.column}`)).toEqual(['paid-ci-lanes untrustedPaidJob .github/workflows/ci.yml:43:3']);
  });

  it('tripwire check is clean on the good fixture', () => {
    const run = runCli(['check', '--no-cache', '--rule', 'paid-ci-lanes'], fixtureRepo('ci/good'));
    expect(run.stdout).toMatch(/^✔ no problems/);
    expect(run.code).toBe(0);
  });
});

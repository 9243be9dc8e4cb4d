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

/** Each finding of the rule at `line:column`, its message id, whether it has related locations, and its message. */
async function described(files: Record<string, string>): Promise<string[]> {
  const result = await check({ cwd: makeGitRepo(files), cache: false, rules: ['paid-ci-lanes'] });
  return result.findings.filter((f) => f.ruleId === 'paid-ci-lanes').map((f) => `${f.line}:${f.column} ${f.messageId}${f.related === undefined ? '' : ` related ${JSON.stringify(f.related)}`} ${f.message}`);
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

  it('names the key in each free-lane message: a workflow key under another name, a job key chosen at run time under a key variable, a key in the run text; no other secret of the workflow or the step', async () => {
    expect(
      await described({
        ...HARNESS,
        '.github/workflows/ci.yml':
          'on: push\nenv:\n  NPM_TOKEN: ${{ secrets.NPM_TOKEN }}\n  OPENAI_API_KEY: ${{ secrets.OAI }}\njobs:\n  unit:\n    runs-on: ubuntu-latest\n    env:\n      OPENAI_API_KEY: ${{ secrets[matrix.key] }}\n    steps:\n      - env:\n          GH_TOKEN: ${{ secrets.GH_TOKEN }}\n        run: ANTHROPIC=${{ secrets.ANTHROPIC_API_KEY }} npm test\n',
      }),
    ).toEqual([
      "4:19 secretInFreeLane the free suite (`test` → `vitest run --exclude test/evals/**`, job unit, .github/workflows/ci.yml:11) receives secrets.OAI (as OPENAI_API_KEY): it runs on every change, for every author, so a free test (or a paid test that reads the key instead of skipping) spends money and can expose the key. Move the key to the paid job, and gate that job on the author's association.",
      "9:23 secretInFreeLane the free suite (`test` → `vitest run --exclude test/evals/**`, job unit, .github/workflows/ci.yml:11) receives a secret chosen at run time (as OPENAI_API_KEY): it runs on every change, for every author, so a free test (or a paid test that reads the key instead of skipping) spends money and can expose the key. Move the key to the paid job, and gate that job on the author's association.",
      "13:14 secretInFreeLane the free suite (`test` → `vitest run --exclude test/evals/**`, job unit, .github/workflows/ci.yml:11) receives secrets.ANTHROPIC_API_KEY: it runs on every change, for every author, so a free test (or a paid test that reads the key instead of skipping) spends money and can expose the key. Move the key to the paid job, and gate that job on the author's association.",
    ]);
  });

  it('says why a secret chosen at run time in the free suite is reported as unevaluable', async () => {
    expect(await described({ ...HARNESS, '.github/workflows/ci.yml': 'on: push\njobs:\n  unit:\n    runs-on: ubuntu-latest\n    env:\n      KEY: ${{ secrets[matrix.key] }}\n    steps:\n      - run: npm test\n' })).toEqual([
      '6:12 unevaluableExpression a secret chosen at run time reaches the free suite (`test` → `vitest run --exclude test/evals/**`, job unit, .github/workflows/ci.yml:8): whether it is a model key cannot be read statically. Pass no secret to the free suite, or name the secret.',
    ]);
  });

  it("reads the free suite's script in the workflow's default working directory", async () => {
    expect(
      await reported({
        ...HARNESS,
        'package.json': '{ "scripts": { "test": "echo none" } }',
        'app/package.json': '{ "scripts": { "test": "vitest run" } }',
        '.github/workflows/ci.yml': 'on: push\ndefaults:\n  run:\n    working-directory: app\njobs:\n  unit:\n    env:\n      OPENAI_API_KEY: ${{ secrets.OPENAI_API_KEY }}\n    steps:\n      - run: npm test\n',
      }),
    ).toEqual(['.github/workflows/ci.yml:8:23-8:52 secretInFreeLane']);
  });

  it('leaves a workflow too large to read to the read-error finding, and checks the others', async () => {
    const result = await check({
      cwd: makeGitRepo({
        ...HARNESS,
        'tripwire.config.json': '{ "tests": { "include": ["test/**/*.test.ts"], "paid": ["test/evals/**/*.test.ts"] }, "limits": { "maxFileBytes": 400 } }',
        '.github/workflows/big.yml': `on: push\njobs:\n  unit:\n    env:\n      OPENAI_API_KEY: \${{ secrets.OPENAI_API_KEY }}\n    steps:\n      - run: npm test\n${'# padding\n'.repeat(40)}`,
        '.github/workflows/ci.yml': 'on: push\njobs:\n  unit:\n    env:\n      OPENAI_API_KEY: ${{ secrets.OPENAI_API_KEY }}\n    steps:\n      - run: npm test\n',
      }),
      cache: false,
      rules: ['paid-ci-lanes'],
    });
    expect(result.findings.map((f) => `${f.ruleId} ${f.messageId} ${f.file}:${f.line}:${f.column}`)).toEqual(['read-error fileTooLarge .github/workflows/big.yml:1:1', 'paid-ci-lanes secretInFreeLane .github/workflows/ci.yml:5:23']);
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

  it('names the job\'s first model key in its message, with every pull-request event, and relates nothing to a job finding', async () => {
    expect(
      await described({
        ...HARNESS,
        '.github/workflows/ci.yml': 'on: [pull_request, pull_request_target]\njobs:\n  judge:\n    env:\n      MODEL: ${{ secrets[matrix.model] }}\n      OPENAI_API_KEY: ${{ secrets.OPENAI_API_KEY }}\n    steps:\n      - run: node judge.mjs\n',
      }),
    ).toEqual(["3:3 untrustedPaidJob job judge (.github/workflows/ci.yml:3) receives secrets.OPENAI_API_KEY on pull_request/pull_request_target without a condition on the author's association: a pull request from an untrusted author (a fork, a first-time contributor, a bot) reaches it and can spend the key's money or read the key. Add `if: contains(fromJSON('[\"OWNER\",\"MEMBER\",\"COLLABORATOR\"]'), github.event.pull_request.author_association)` to the job (or make it need a job that has it)."]);
  });

  it('reports an ungated job whose only secret is chosen at run time as unevaluable, at the secret; a key already reported in the free lane is not asked again', async () => {
    expect(
      await described({
        ...HARNESS,
        '.github/workflows/ci.yml':
          'on: [pull_request, pull_request_target]\nenv:\n  OPENAI_API_KEY: ${{ secrets.OPENAI_API_KEY }}\njobs:\n  unit:\n    steps:\n      - run: npm test\n  judge:\n    env:\n      MODEL: ${{ secrets[matrix.model] }}\n    steps:\n      - run: node judge.mjs\n',
      }),
    ).toEqual([
      "3:19 secretInFreeLane the free suite (`test` → `vitest run --exclude test/evals/**`, job unit, .github/workflows/ci.yml:7) receives secrets.OPENAI_API_KEY: it runs on every change, for every author, so a free test (or a paid test that reads the key instead of skipping) spends money and can expose the key. Move the key to the paid job, and gate that job on the author's association.",
      '10:14 unevaluableExpression job judge (.github/workflows/ci.yml:8) runs on pull_request/pull_request_target with no trust condition and receives a secret chosen at run time: whether it is a model key cannot be read statically. Name the secret, or restrict the job to trusted authors.',
    ]);
  });

  it('does not report as paid a job whose key is reported in its free step, nor a step that gets another secret', async () => {
    expect(
      await reported({
        ...HARNESS,
        '.github/workflows/ci.yml':
          'on: pull_request\njobs:\n  unit:\n    env:\n      OPENAI_API_KEY: ${{ secrets.OPENAI_API_KEY }}\n    steps:\n      - run: npm test\n  unit2:\n    steps:\n      - env:\n          OPENAI_API_KEY: ${{ secrets.OPENAI_API_KEY }}\n        run: npm test\n      - env:\n          NPM_TOKEN: ${{ secrets.NPM_TOKEN }}\n        run: npm publish --dry-run\n',
      }),
    ).toEqual(['.github/workflows/ci.yml:5:23-5:52 secretInFreeLane', '.github/workflows/ci.yml:11:27-11:56 secretInFreeLane']);
  });

  it('reports a job that passes every secret to a local reusable workflow that reads a model key; not one that reads none, nor one that passes no secret', async () => {
    expect(
      await described({
        ...HARNESS,
        '.github/workflows/evals.yml': 'on: workflow_call\njobs:\n  run:\n    env:\n      GH_TOKEN: ${{ secrets.GH_TOKEN }}\n    steps:\n      - env:\n          OPENAI_API_KEY: ${{ secrets.OPENAI_API_KEY }}\n        run: node judge.mjs\n',
        '.github/workflows/lint.yml': 'on: workflow_call\njobs:\n  run:\n    env:\n      NPM_TOKEN: ${{ secrets.NPM_TOKEN }}\n    steps:\n      - run: npm run lint\n',
        '.github/workflows/ci.yml': 'on: pull_request\njobs:\n  evals:\n    uses: ./.github/workflows/evals.yml\n    secrets: inherit\n  lint:\n    uses: ./.github/workflows/lint.yml\n    secrets: inherit\n  named:\n    uses: ./.github/workflows/evals.yml\n',
      }),
    ).toEqual(["3:3 untrustedPaidJob job evals (.github/workflows/ci.yml:3) passes its secrets to ./.github/workflows/evals.yml (which uses a model key) on pull_request without a condition on the author's association: a pull request from an untrusted author (a fork, a first-time contributor, a bot) reaches it and can spend the key's money or read the key. Add `if: contains(fromJSON('[\"OWNER\",\"MEMBER\",\"COLLABORATOR\"]'), github.event.pull_request.author_association)` to the job (or make it need a job that has it)."]);
  });

  it('says why a remote reusable workflow given every secret is reported', async () => {
    expect(await described({ ...HARNESS, '.github/workflows/ci.yml': 'on: [pull_request, pull_request_target]\njobs:\n  a:\n    uses: acme/ci/.github/workflows/evals.yml@v1\n    secrets: inherit\n' })).toEqual([
      '4:11 unseenReusableWorkflow job a (.github/workflows/ci.yml:3) runs on pull_request/pull_request_target with no trust condition and passes every secret to acme/ci/.github/workflows/evals.yml@v1, which tripwire cannot read: if it uses a model key, any pull request spends it. Pass only the secrets it needs, or restrict the job to trusted authors.',
    ]);
  });

  it('reports the first paid step of a job, naming its key or its paid run, and counts the other paid steps; a step with nothing paid is not one', async () => {
    expect(
      await described({
        ...HARNESS,
        '.github/workflows/ci.yml':
          "on: [pull_request, pull_request_target]\njobs:\n  one:\n    steps:\n      - run: echo build\n      - env:\n          M: ${{ secrets[matrix.m] }}\n          OPENAI_API_KEY: ${{ secrets.OPENAI_API_KEY }}\n        run: node judge.mjs\n  two:\n    steps:\n      - run: npm run evals\n      - env: { OPENAI_API_KEY: '${{ secrets.OPENAI_API_KEY }}' }\n        run: node judge.mjs\n  three:\n    steps:\n      - run: npm run evals\n      - run: npm run test:evals\n      - run: npx vitest run test/evals\n      - run: npm test\n",
      }),
    ).toEqual([
      "6:9 untrustedPaidStep a step of job one (.github/workflows/ci.yml:6) receives secrets.OPENAI_API_KEY on pull_request/pull_request_target without a condition on the author's association: a pull request from an untrusted author (a fork, a first-time contributor, a bot) reaches it and can spend the key's money or read the key. Add `if: contains(fromJSON('[\"OWNER\",\"MEMBER\",\"COLLABORATOR\"]'), github.event.pull_request.author_association)` to the job or the step.",
      "12:9 untrustedPaidStep related [{\"file\":\".github/workflows/ci.yml\",\"line\":13,\"message\":\"another paid step of the job without a trust condition\"}] a step of job two (.github/workflows/ci.yml:12) runs paid tests (`evals` → `test:evals` → `vitest run test/evals`) on pull_request/pull_request_target (and 1 more step of the job) without a condition on the author's association: a pull request from an untrusted author (a fork, a first-time contributor, a bot) reaches it and can spend the key's money or read the key. Add `if: contains(fromJSON('[\"OWNER\",\"MEMBER\",\"COLLABORATOR\"]'), github.event.pull_request.author_association)` to the job or the step.",
      "17:9 untrustedPaidStep related [{\"file\":\".github/workflows/ci.yml\",\"line\":18,\"message\":\"another paid step of the job without a trust condition\"},{\"file\":\".github/workflows/ci.yml\",\"line\":19,\"message\":\"another paid step of the job without a trust condition\"}] a step of job three (.github/workflows/ci.yml:17) runs paid tests (`evals` → `test:evals` → `vitest run test/evals`) on pull_request/pull_request_target (and 2 more steps of the job) without a condition on the author's association: a pull request from an untrusted author (a fork, a first-time contributor, a bot) reaches it and can spend the key's money or read the key. Add `if: contains(fromJSON('[\"OWNER\",\"MEMBER\",\"COLLABORATOR\"]'), github.event.pull_request.author_association)` to the job or the step.",
    ]);
  });

  it('lets a step its own trust condition gates through, and still reports an ungated paid step after it; a step secret chosen at run time is unevaluable only when ungated', async () => {
    expect(
      await described({
        ...HARNESS,
        '.github/workflows/ci.yml':
          "on: [pull_request, pull_request_target]\njobs:\n  own:\n    steps:\n      - if: github.event.pull_request.author_association == 'OWNER'\n        env: { OPENAI_API_KEY: '${{ secrets.OPENAI_API_KEY }}' }\n        run: node judge.mjs\n      - if: github.event.pull_request.author_association == 'OWNER'\n        env: { M: '${{ secrets[matrix.m] }}' }\n        run: node judge.mjs\n      - env: { M: '${{ secrets[matrix.m] }}' }\n        run: node other.mjs\n      - run: npm run evals\n",
      }),
    ).toEqual([
      '11:19 unevaluableExpression a step of job own (.github/workflows/ci.yml:11) runs on pull_request/pull_request_target with no trust condition and receives a secret chosen at run time: whether it is a model key cannot be read statically. Name the secret, or restrict the step to trusted authors.',
      "13:9 untrustedPaidStep a step of job own (.github/workflows/ci.yml:13) runs paid tests (`evals` → `test:evals` → `vitest run test/evals`) on pull_request/pull_request_target without a condition on the author's association: a pull request from an untrusted author (a fork, a first-time contributor, a bot) reaches it and can spend the key's money or read the key. Add `if: contains(fromJSON('[\"OWNER\",\"MEMBER\",\"COLLABORATOR\"]'), github.event.pull_request.author_association)` to the job or the step.",
    ]);
  });

  it("reports a paid step at the condition that tried to gate it: the step's own, else the job's; at the step when neither tests the author", async () => {
    expect(
      await reported({
        ...HARNESS,
        '.github/workflows/ci.yml':
          "on: pull_request\njobs:\n  event:\n    if: github.event_name == 'pull_request'\n    steps:\n      - run: npm run evals\n  both:\n    if: github.actor == 'octocat'\n    steps:\n      - if: github.event.label.name == 'evals'\n        run: npm run evals\n  wrong:\n    if: github.actor == 'octocat'\n    steps:\n      - run: npm run evals\n  stepwrong:\n    steps:\n      - if: github.triggering_actor == 'octocat'\n        run: npm run evals\n",
      }),
    ).toEqual([
      '.github/workflows/ci.yml:6:9-6:12 untrustedPaidStep',
      '.github/workflows/ci.yml:10:13-10:47 unprovenCondition',
      '.github/workflows/ci.yml:13:9-13:34 trustOnWrongField',
      '.github/workflows/ci.yml:18:13-18:49 trustOnWrongField',
    ]);
  });

  it("says what is wrong with each condition: one it cannot evaluate, one that reads no field, one that reads two others, one that admits an untrusted association", async () => {
    expect(
      await described({
        ...HARNESS,
        '.github/workflows/ci.yml':
          "on: pull_request\njobs:\n  broken:\n    if: github.event.pull_request.author_association == 'OWNER' ||\n    env: { OPENAI_API_KEY: '${{ secrets.OPENAI_API_KEY }}' }\n    steps: [{ run: node a.mjs }]\n  status:\n    if: success()\n    env: { OPENAI_API_KEY: '${{ secrets.OPENAI_API_KEY }}' }\n    steps: [{ run: node a.mjs }]\n  two:\n    if: github.event.label.name == 'evals' || needs.gate.outputs.ok == 'true'\n    env: { OPENAI_API_KEY: '${{ secrets.OPENAI_API_KEY }}' }\n    steps: [{ run: node a.mjs }]\n  assoc:\n    if: github.event.pull_request.author_association != 'NONE'\n    env: { OPENAI_API_KEY: '${{ secrets.OPENAI_API_KEY }}' }\n    steps: [{ run: node a.mjs }]\n  actor:\n    if: github.actor == 'octocat'\n    env: { OPENAI_API_KEY: '${{ secrets.OPENAI_API_KEY }}' }\n    steps: [{ run: node a.mjs }]\n",
      }),
    ).toEqual([
      "4:9 unevaluableExpression job broken (.github/workflows/ci.yml:3) receives secrets.OPENAI_API_KEY on pull_request, and its condition cannot be evaluated statically (an incomplete expression), so it is not known to restrict the run to trusted authors. Rewrite the condition, e.g. `contains(fromJSON('[\"OWNER\",\"MEMBER\",\"COLLABORATOR\"]'), github.event.pull_request.author_association)`.",
      "8:9 unprovenCondition job status (.github/workflows/ci.yml:7) receives secrets.OPENAI_API_KEY on pull_request, under a condition that reads values and not the author's association: tripwire cannot tell whether it keeps untrusted authors out (a heuristic). If it is meant as the trust check, state it on the association, e.g. `contains(fromJSON('[\"OWNER\",\"MEMBER\",\"COLLABORATOR\"]'), github.event.pull_request.author_association)`.",
      "12:9 unprovenCondition job two (.github/workflows/ci.yml:11) receives secrets.OPENAI_API_KEY on pull_request, under a condition that reads github.event.label.name, needs.gate.outputs.ok and not the author's association: tripwire cannot tell whether it keeps untrusted authors out (a heuristic). If it is meant as the trust check, state it on the association, e.g. `contains(fromJSON('[\"OWNER\",\"MEMBER\",\"COLLABORATOR\"]'), github.event.pull_request.author_association)`.",
      "16:9 untrustedAssociation job assoc (.github/workflows/ci.yml:15) receives secrets.OPENAI_API_KEY on pull_request, and its author_association condition lets CONTRIBUTOR through: a pull request from an untrusted author (a fork, a first-time contributor, a bot) reaches it and can spend the key's money or read the key. Allow only OWNER, MEMBER, COLLABORATOR.",
      "20:9 trustOnWrongField job actor (.github/workflows/ci.yml:19) receives secrets.OPENAI_API_KEY on pull_request, and its condition tests github.actor, not github.event.pull_request.author_association: a pull request from an untrusted author (a fork, a first-time contributor, a bot) reaches it and can spend the key's money or read the key. Test the author's association instead, e.g. `contains(fromJSON('[\"OWNER\",\"MEMBER\",\"COLLABORATOR\"]'), github.event.pull_request.author_association)`.",
    ]);
  });

  it('takes a job as gated only through a gated job it needs: not an ungated one, a job that does not exist, or a cycle', async () => {
    expect(
      await reported({
        ...HARNESS,
        '.github/workflows/ci.yml':
          "on: pull_request\njobs:\n  build:\n    steps: [{ run: echo build }]\n  judge:\n    needs: [build, missing]\n    env: { OPENAI_API_KEY: '${{ secrets.OPENAI_API_KEY }}' }\n    steps: [{ run: node a.mjs }]\n  ping:\n    needs: pong\n    env: { OPENAI_API_KEY: '${{ secrets.OPENAI_API_KEY }}' }\n    steps: [{ run: node a.mjs }]\n  pong:\n    needs: ping\n    steps: [{ run: echo pong }]\n",
      }),
    ).toEqual(['.github/workflows/ci.yml:5:3-5:8 untrustedPaidJob', '.github/workflows/ci.yml:9:3-9:7 untrustedPaidJob']);
  });

  it('reports a pull_request_target job that checks out the head (by ref, by repository, by git fetch, by gh pr checkout) with a key or paid tests, at the checkout, and nothing else of that job', async () => {
    expect(
      await described({
        ...HARNESS,
        '.github/workflows/t.yml':
          "on: pull_request_target\njobs:\n  sha:\n    env: { OPENAI_API_KEY: '${{ secrets.OPENAI_API_KEY }}' }\n    steps:\n      - uses: actions/setup-node@v4\n      - uses: actions/checkout@v4\n        with:\n          fetch-depth: 0\n          ref: ${{ github.event.pull_request.head.sha }}\n      - run: node judge.mjs\n  repo:\n    if: github.event.pull_request.author_association == 'OWNER'\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          repository: ${{ github.event.pull_request.head.repo.full_name }}\n      - run: npm run evals\n  fetch:\n    if: github.event.pull_request.author_association == 'OWNER'\n    steps:\n      - run: git  fetch origin pull/${{ github.event.number }}/head\n      - env: { OPENAI_API_KEY: '${{ secrets.OPENAI_API_KEY }}' }\n        run: node judge.mjs\n  gh:\n    if: github.event.pull_request.author_association == 'OWNER'\n    steps:\n      - run: gh  pr  checkout \"$PR\"\n      - run: npm run evals\n",
      }),
    ).toEqual([
      "7:9 prTargetRunsPrCode job sha (.github/workflows/t.yml:3) runs on pull_request_target, checks out the pull request's head here and receives secrets.OPENAI_API_KEY: the pull request's code runs with the key, so anyone who opens one can exfiltrate it, whatever the condition says. Run paid tests on pull_request, gated on the author's association, or check out the base only.",
      "15:9 prTargetRunsPrCode job repo (.github/workflows/t.yml:12) runs on pull_request_target, checks out the pull request's head here and runs paid tests (`evals` → `test:evals` → `vitest run test/evals`): the pull request's code runs with the key, so anyone who opens one can exfiltrate it, whatever the condition says. Run paid tests on pull_request, gated on the author's association, or check out the base only.",
      "22:9 prTargetRunsPrCode job fetch (.github/workflows/t.yml:19) runs on pull_request_target, checks out the pull request's head here and receives secrets.OPENAI_API_KEY: the pull request's code runs with the key, so anyone who opens one can exfiltrate it, whatever the condition says. Run paid tests on pull_request, gated on the author's association, or check out the base only.",
      "28:9 prTargetRunsPrCode job gh (.github/workflows/t.yml:25) runs on pull_request_target, checks out the pull request's head here and runs paid tests (`evals` → `test:evals` → `vitest run test/evals`): the pull request's code runs with the key, so anyone who opens one can exfiltrate it, whatever the condition says. Run paid tests on pull_request, gated on the author's association, or check out the base only.",
    ]);
  });

  it('does not take as a head checkout a job with nothing paid, a head name in another input, another action named checkout, or a head ref named outside git', async () => {
    expect(
      await reported({
        ...HARNESS,
        '.github/workflows/t.yml':
          "on: pull_request_target\njobs:\n  free:\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          ref: ${{ github.event.pull_request.head.sha }}\n      - run: npm run lint\n  base:\n    if: github.event.pull_request.author_association == 'OWNER'\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          path: pr-${{ github.head_ref }}\n      - uses: acme/actions/checkout@v1\n        with:\n          ref: ${{ github.event.pull_request.head.sha }}\n      - run: echo ${{ github.head_ref }}\n      - env: { OPENAI_API_KEY: '${{ secrets.OPENAI_API_KEY }}' }\n        run: node judge.mjs\n",
      }),
    ).toEqual([]);
  });

  it('leaves a head checkout with only a secret chosen at run time to the unevaluable finding, at the secret', async () => {
    expect(
      await reported({
        ...HARNESS,
        '.github/workflows/t.yml':
          "on: pull_request_target\njobs:\n  a:\n    env: { KEY: '${{ secrets[matrix.key] }}' }\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          ref: ${{ github.event.pull_request.head.sha }}\n      - run: node a.mjs\n",
      }),
    ).toEqual(['.github/workflows/t.yml:4:17-4:45 unevaluableExpression']);
  });

  it('reads no called workflow outside .github/workflows, and takes `secrets: inherit` without `uses` (which GitHub rejects) as passing nothing', async () => {
    expect(
      await reported({
        ...HARNESS,
        'ci/evals.yml': 'on: workflow_call\njobs:\n  run:\n    env:\n      OPENAI_API_KEY: ${{ secrets.OPENAI_API_KEY }}\n    steps:\n      - run: node judge.mjs\n',
        '.github/workflows/ci.yml': 'on: pull_request\njobs:\n  elsewhere:\n    uses: ./ci/evals.yml\n    secrets: inherit\n  stray:\n    secrets: inherit\n    steps:\n      - run: echo build\n',
      }),
    ).toEqual([]);
  });

  it('says where a workflow does not parse or has a part of the wrong shape, and checks nothing there', async () => {
    const [unparsable, ...rest] = await described({ ...HARNESS, '.github/workflows/ci.yml': 'on: pull_request\njobs:\n  a:\n    steps: [\n' });
    expect(rest).toEqual([]);
    expect(unparsable).toMatch(/^5:1 unparsableWorkflow \.github\/workflows\/ci\.yml does not parse as YAML \(.+\): none of its jobs was checked for model keys or trust conditions\. Fix the YAML\.$/);
    expect(await described({ ...HARNESS, '.github/workflows/ci.yml': "on: pull_request\njobs:\n  a:\n    steps: 3\n  b: 4\n" })).toEqual([
      '4:12 unparsableWorkflow .github/workflows/ci.yml: jobs.a.steps is not a list, so that part was not checked for model keys or trust conditions. Give it the shape GitHub runs.',
      '5:6 unparsableWorkflow .github/workflows/ci.yml: job b is not a mapping, so that part was not checked for model keys or trust conditions. Give it the shape GitHub runs.',
    ]);
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

  it('reads nothing for a job that passes its secrets to a local workflow the repository lacks (GitHub does not start that run): no finding, and no read error', async () => {
    const files = {
      ...HARNESS,
      '.github/workflows/ci.yml': 'on: pull_request\njobs:\n  evals:\n    uses: ./.github/workflows/missing.yml\n    secrets: inherit\n',
    };
    const result = await check({ cwd: makeGitRepo(files), cache: false, rules: ['paid-ci-lanes'] });
    expect(result.findings.map((f) => `${f.ruleId} ${f.messageId ?? ''} ${f.file}`)).toEqual([]);
    const present = await check({ cwd: makeGitRepo({ ...files, '.github/workflows/missing.yml': 'on: workflow_call\njobs:\n  run:\n    runs-on: ubuntu-latest\n    env: { OPENAI_API_KEY: "${{ secrets.OPENAI_API_KEY }}" }\n    steps: [{ run: node run.mjs }]\n' }), cache: false, rules: ['paid-ci-lanes'] });
    expect(present.findings.map((f) => `${f.ruleId} ${f.messageId ?? ''} ${f.file}:${f.line}`)).toEqual(['paid-ci-lanes untrustedPaidJob .github/workflows/ci.yml:3']);
  });
});

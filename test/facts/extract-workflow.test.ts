import { describe, expect, it } from 'vitest';
import { extractWorkflowFacts } from '../../src/facts/extract-workflow.js';

describe('extractWorkflowFacts', () => {
  it('reads the events of on in its string, list and map forms, each where it is named', () => {
    expect(extractWorkflowFacts('on: push\njobs: {}\n').events.map((event) => `${event.name} ${event.loc.line}:${event.loc.column}`)).toEqual(['push 1:5']);
    expect(extractWorkflowFacts('on: [push, pull_request]\njobs: {}\n').events.map((event) => event.name)).toEqual(['push', 'pull_request']);
    expect(extractWorkflowFacts('on:\n  pull_request_target:\n    types: [labeled]\n  schedule:\n    - cron: "0 3 * * *"\njobs: {}\n').events.map((event) => `${event.name} ${event.loc.line}`)).toEqual(['pull_request_target 2', 'schedule 4']);
  });

  it('reads the key `on` that YAML 1.1 reads as true', () => {
    expect(extractWorkflowFacts('%YAML 1.1\n---\non: pull_request\njobs: {}\n').events.map((event) => event.name)).toEqual(['pull_request']);
  });

  it('records each secret with the variable or input it sets, at its value; a computed one without a name', () => {
    const facts = extractWorkflowFacts(
      [
        'on: push',
        'env:',
        '  OPENAI_API_KEY: ${{ secrets.OAI }}',
        'jobs:',
        '  a:',
        '    strategy:',
        '      matrix:',
        "        key: ['${{ secrets[\"ONE\"] }}']",
        '    steps:',
        '      - uses: acme/judge@v1',
        '        with:',
        '          api_key: ${{ secrets.ANTHROPIC_API_KEY }}',
        '      - run: echo ${{ secrets[matrix.name] }} ${{ toJSON(secrets) }}',
      ].join('\n'),
    );
    expect(facts.secrets).toEqual([{ name: 'OAI', key: 'OPENAI_API_KEY', loc: { line: 3, column: 19, endLine: 3, endColumn: 37 } }]);
    expect(facts.jobs[0]?.secrets.map((secret) => [secret.name, secret.key])).toEqual([['ONE', null]]);
    expect(facts.jobs[0]?.steps.map((step) => step.secrets.map((secret) => [secret.name, secret.key]))).toEqual([[['ANTHROPIC_API_KEY', 'api_key']], [[null, null], [null, null]]]);
  });

  it('reads a job\'s condition, needs, reusable workflow and inherited secrets, and a step\'s inputs', () => {
    const [gate, call] = extractWorkflowFacts(
      [
        'on: pull_request',
        'jobs:',
        '  gate:',
        "    if: github.event.pull_request.author_association == 'OWNER'",
        '    needs: lint',
        '    defaults: { run: { working-directory: packages/a } }',
        '    steps:',
        '      - uses: actions/checkout@v4',
        '        with: { ref: "${{ github.event.pull_request.head.sha }}", fetch-depth: 0 }',
        '  call:',
        '    needs: [gate, lint]',
        '    uses: ./.github/workflows/evals.yml',
        '    secrets: inherit',
      ].join('\n'),
    ).jobs;
    expect(gate).toMatchObject({ id: 'gate', if: { text: "github.event.pull_request.author_association == 'OWNER'", loc: { line: 4, column: 9 } }, needs: ['lint'], cwd: 'packages/a', uses: null, inheritSecrets: false });
    expect(gate?.steps[0]?.with.map((input) => [input.key, input.value])).toEqual([
      ['ref', '${{ github.event.pull_request.head.sha }}'],
      ['fetch-depth', '0'],
    ]);
    expect(call).toMatchObject({ id: 'call', needs: ['gate', 'lint'], uses: { value: './.github/workflows/evals.yml' }, inheritSecrets: true, steps: [] });
  });

  it('reports a parse error at its position, and a part that is not the shape GitHub runs', () => {
    expect(extractWorkflowFacts('on: push\njobs: [\n').parseErrors.length).toBeGreaterThan(0);
    expect(extractWorkflowFacts('on: push\njobs:\n  a:\n    steps: oops\n').shapeErrors).toEqual([{ message: 'jobs.a.steps is not a list', loc: { line: 4, column: 12, endLine: 4, endColumn: 16 } }]);
    expect(extractWorkflowFacts('on: push\njobs:\n  a: 1\n').shapeErrors.map((problem) => problem.message)).toEqual(['job a is not a mapping']);
  });

  describe('job digests: what a job is, as data', () => {
    const WORKFLOW = 'on: push\nenv:\n  A: 1\njobs:\n  evals:\n    runs-on: ubuntu-latest\n    env:\n      MODEL: small\n    steps:\n      - run: npm run evals\n  unit:\n    steps:\n      - run: npm test\n';
    const digests = (source: string): Record<string, string | null> => Object.fromEntries(extractWorkflowFacts(source).jobs.map((job) => [job.id, job.digest]));

    it('is the same for a comment, a reordering of keys and another quoting; differs for a value of the job or of the workflow', () => {
      const before = digests(WORKFLOW);
      expect(before['evals']).toMatch(/^[0-9a-f]{64}$/);
      expect(before['evals']).not.toBe(before['unit']);
      const reordered = WORKFLOW.replace('    runs-on: ubuntu-latest\n    env:\n      MODEL: small\n', "    env:\n      MODEL: 'small' # cheap\n    runs-on: ubuntu-latest\n");
      expect(digests(`# ci\n${reordered}`)).toEqual(before);
      const model = digests(WORKFLOW.replace('MODEL: small', 'MODEL: large'));
      expect(model['evals']).not.toBe(before['evals']);
      expect(model['unit']).toBe(before['unit']);
      const workflowEnv = digests(WORKFLOW.replace('A: 1', 'A: 2'));
      expect(workflowEnv['evals']).not.toBe(before['evals']);
      expect(workflowEnv['unit']).not.toBe(before['unit']);
    });

    it('is the expanded value for an aliased job, and null when the aliases expand past the limit', () => {
      const aliased = digests('on: push\njobs:\n  one: &job\n    steps:\n      - run: npm test\n  two: *job\n');
      expect(aliased['two']).toBe(aliased['one']);
      const bomb = ['on: push', 'x0: &a0 [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]', ...Array.from({ length: 8 }, (_, i) => `x${i + 1}: &a${i + 1} [*a${i}, *a${i}, *a${i}, *a${i}, *a${i}, *a${i}, *a${i}, *a${i}, *a${i}, *a${i}]`), 'jobs:', '  a:', '    steps:', '      - run: npm test', ''].join('\n');
      expect(digests(bomb)).toEqual({ a: null });
    });
  });
});

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
});

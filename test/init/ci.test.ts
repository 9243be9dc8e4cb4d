import { describe, expect, it } from 'vitest';
import { commandsOf, readWorkflows } from '../../src/init/ci.js';

function read(files: Record<string, string>): ReturnType<typeof readWorkflows> {
  return readWorkflows(Object.keys(files), (file) => files[file] ?? null);
}

describe('readWorkflows', () => {
  it('reads a secretless job running pnpm test, with its line', () => {
    const result = read({
      '.github/workflows/test.yml': [
        'name: Test',
        'on: push',
        'jobs:',
        '  unit:',
        '    name: Unit tests',
        '    runs-on: ubuntu-latest',
        '    steps:',
        '      - name: Test',
        '        run: pnpm test',
      ].join('\n'),
    });
    expect(result).toEqual({
      steps: [
        {
          workflow: '.github/workflows/test.yml',
          job: 'unit',
          jobName: 'Unit tests',
          step: 'Test',
          run: 'pnpm test',
          cwd: '',
          secrets: [],
          pullRequest: false,
          routine: true,
          line: 8,
        },
      ],
      errors: [],
    });
  });

  it('gives a job-level env secret to every step of the job', () => {
    const { steps } = read({
      '.github/workflows/evals.yml': [
        'on: push',
        'jobs:',
        '  evals:',
        '    runs-on: ubuntu-latest',
        '    env:',
        '      OPENAI_API_KEY: ${{ secrets.OPENAI_API_KEY }}',
        '    steps:',
        '      - run: pnpm install',
        '      - run: pnpm evals',
      ].join('\n'),
    });
    expect(steps.map((step) => [step.run, step.jobName, step.step, step.secrets, step.line])).toEqual([
      ['pnpm install', null, null, ['OPENAI_API_KEY'], 8],
      ['pnpm evals', null, null, ['OPENAI_API_KEY'], 9],
    ]);
  });

  it('gives a step-level secret to that step only', () => {
    const { steps } = read({
      '.github/workflows/ci.yml': [
        'on: push',
        'jobs:',
        '  test:',
        '    runs-on: ubuntu-latest',
        '    steps:',
        '      - name: Unit',
        '        run: npm test',
        '      - name: Evals',
        '        run: npm run evals',
        '        env:',
        '          ANTHROPIC_API_KEY: ${{ secrets.ANTHROPIC_API_KEY }}',
      ].join('\n'),
    });
    expect(steps.map((step) => [step.step, step.secrets])).toEqual([
      ['Unit', []],
      ['Evals', ['ANTHROPIC_API_KEY']],
    ]);
  });

  it('unions workflow, job, step and run-text secrets, sorted and unique, in both reference forms', () => {
    const { steps, errors } = read({
      '.github/workflows/ci.yml': [
        'on: push',
        'env:',
        '  TOKEN: ${{ secrets.GITHUB_TOKEN }}',
        '  SHA: ${{ github.sha }}',
        'jobs:',
        '  test:',
        '    runs-on: ubuntu-latest',
        '    env:',
        "      KEY: ${{ secrets['ZED_KEY'] }}",
        '      AGAIN: ${{ secrets.GITHUB_TOKEN }}',
        '    steps:',
        '      - run: |',
        '          curl -H "x-key: ${{ secrets.BETA || secrets.ALPHA }}" example.test',
        '          echo secrets.NOT_AN_EXPRESSION',
        '        env:',
        '          MODEL: ${{ secrets["MODEL_KEY"] }}',
        '          PLAIN: hello',
      ].join('\n'),
    });
    expect(errors).toEqual([]);
    expect(steps.map((step) => step.secrets)).toEqual([['ALPHA', 'BETA', 'GITHUB_TOKEN', 'MODEL_KEY', 'ZED_KEY']]);
  });

  it('reads a workflow-level env secret into a job without env of its own', () => {
    const { steps } = read({
      '.github/workflows/ci.yml': [
        'on: push',
        'env:',
        '  OPENAI_API_KEY: ${{ secrets.OPENAI_API_KEY }}',
        'jobs:',
        '  a:',
        '    runs-on: ubuntu-latest',
        '    steps:',
        '      - run: npm test',
      ].join('\n'),
    });
    expect(steps.map((step) => step.secrets)).toEqual([['OPENAI_API_KEY']]);
  });

  it('takes the working directory from the step, else the job defaults, else the workflow defaults', () => {
    const { steps } = read({
      '.github/workflows/ci.yml': [
        'on: push',
        'defaults:',
        '  run:',
        '    working-directory: ./workflow-dir/',
        'jobs:',
        '  inherits:',
        '    runs-on: ubuntu-latest',
        '    steps:',
        '      - run: echo workflow',
        '  own:',
        '    runs-on: ubuntu-latest',
        '    defaults:',
        '      run:',
        '        working-directory: packages/job-dir',
        '    steps:',
        '      - run: echo job',
        '      - run: echo step',
        '        working-directory: ./step-dir',
        '      - run: echo workspace-sub',
        '        working-directory: ${{ github.workspace }}/repo',
        '      - run: echo workspace',
        '        working-directory: ${{ github.workspace }}',
        '      - run: echo matrix',
        '        working-directory: ${{ matrix.dir }}',
        '      - run: echo dot',
        '        working-directory: .',
        '      - run: echo outside',
        '        working-directory: ../elsewhere',
        '      - run: echo climbs-out',
        '        working-directory: sub/../..',
        '      - run: echo absolute',
        '        working-directory: /tmp/build',
        '  shell-only:',
        '    runs-on: ubuntu-latest',
        '    defaults:',
        '      run:',
        '        shell: bash',
        '    steps:',
        '      - run: echo shell-only',
        '  empty-defaults:',
        '    runs-on: ubuntu-latest',
        '    defaults: {}',
        '    steps:',
        '      - run: echo empty-defaults',
      ].join('\n'),
    });
    expect(steps.map((step) => [step.run, step.cwd])).toEqual([
      ['echo workflow', 'workflow-dir'],
      ['echo job', 'packages/job-dir'],
      ['echo step', 'step-dir'],
      ['echo workspace-sub', 'repo'],
      ['echo workspace', ''],
      ['echo matrix', null],
      ['echo dot', ''],
      ['echo outside', null],
      ['echo climbs-out', null],
      ['echo absolute', null],
      ['echo shell-only', 'workflow-dir'],
      ['echo empty-defaults', 'workflow-dir'],
    ]);
  });

  it('detects pull_request and pull_request_target in the string, list and map forms of on', () => {
    const { steps, errors } = read({
      '.github/workflows/a-string.yml': ['on: pull_request', 'jobs:', '  a:', '    runs-on: ubuntu-latest', '    steps:', '      - run: npm test'].join('\n'),
      '.github/workflows/b-list.yml': ['on: [push, pull_request_target]', 'jobs:', '  a:', '    runs-on: ubuntu-latest', '    steps:', '      - run: npm test'].join('\n'),
      '.github/workflows/c-map.yml': ['on:', '  pull_request:', '    branches: [main]', 'jobs:', '  a:', '    runs-on: ubuntu-latest', '    steps:', '      - run: npm test'].join('\n'),
      '.github/workflows/d-push.yml': ['on:', '  push:', '    branches: [main]', 'jobs:', '  a:', '    runs-on: ubuntu-latest', '    steps:', '      - run: npm test'].join('\n'),
      '.github/workflows/e-yaml11.yml': ['%YAML 1.1', '---', 'on: pull_request', 'jobs:', '  a:', '    runs-on: ubuntu-latest', '    steps:', '      - run: npm test'].join('\n'),
    });
    expect(errors).toEqual([]);
    expect(steps.map((step) => [step.workflow, step.pullRequest, step.routine])).toEqual([
      ['.github/workflows/a-string.yml', true, true],
      ['.github/workflows/b-list.yml', true, true],
      ['.github/workflows/c-map.yml', true, true],
      ['.github/workflows/d-push.yml', false, true],
      ['.github/workflows/e-yaml11.yml', true, true],
    ]);
  });

  it('tells a workflow that runs on every change from one started by hand or on a schedule', () => {
    const job = ['jobs:', '  a:', '    runs-on: ubuntu-latest', '    steps:', '      - run: npm test'];
    const { steps } = read({
      '.github/workflows/a-dispatch.yml': ['on: workflow_dispatch', ...job].join('\n'),
      '.github/workflows/b-nightly.yml': ['on:', '  schedule:', "    - cron: '0 3 * * *'", ...job].join('\n'),
      '.github/workflows/c-merge-queue.yml': ['on: [merge_group, workflow_dispatch]', ...job].join('\n'),
    });
    expect(steps.map((step) => [step.workflow, step.routine])).toEqual([
      ['.github/workflows/a-dispatch.yml', false],
      ['.github/workflows/b-nightly.yml', false],
      ['.github/workflows/c-merge-queue.yml', true],
    ]);
  });

  it('skips uses-only steps and reusable-workflow jobs', () => {
    const { steps, errors } = read({
      '.github/workflows/ci.yml': [
        'on: push',
        'jobs:',
        '  reuse:',
        '    uses: ./.github/workflows/shared.yml',
        '    secrets: inherit',
        '  test:',
        '    runs-on: ubuntu-latest',
        '    steps:',
        '      - uses: actions/checkout@v4',
        '      - uses: actions/setup-node@v4',
        '        with:',
        '          node-version: 20',
        '      - run: npm test',
      ].join('\n'),
    });
    expect(errors).toEqual([]);
    expect(steps.map((step) => [step.job, step.run, step.line])).toEqual([['test', 'npm test', 13]]);
  });

  it('reports invalid YAML as one error without throwing, and still reads the other files', () => {
    const { steps, errors } = read({
      '.github/workflows/broken.yml': ['on: push', 'jobs: [', '  a: b'].join('\n'),
      '.github/workflows/good.yaml': ['on: push', 'jobs:', '  a:', '    steps:', '      - run: npm test'].join('\n'),
    });
    expect(errors).toHaveLength(1);
    expect(errors[0]?.file).toBe('.github/workflows/broken.yml');
    expect(errors[0]?.message).toMatch(/^Flow sequence in block collection/);
    expect(steps.map((step) => step.workflow)).toEqual(['.github/workflows/good.yaml']);
  });

  it('reports an unexpected shape as one error per file', () => {
    const { steps, errors } = read({
      '.github/workflows/empty.yml': '',
      '.github/workflows/no-jobs.yml': 'on: push',
      '.github/workflows/steps-map.yml': ['on: push', 'jobs:', '  a:', '    steps:', '      run: npm test'].join('\n'),
      '.github/workflows/step-string.yml': ['on: push', 'jobs:', '  a:', '    steps:', '      - npm test', '      - oops'].join('\n'),
      '.github/workflows/defaults-string.yml': ['on: push', 'jobs:', '  a:', '    defaults: bash', '    steps:', '      - run: npm test'].join('\n'),
      '.github/workflows/defaults-run-string.yml': ['on: push', 'defaults:', '  run: bash', 'jobs:', '  a:', '    steps:', '      - run: npm test'].join('\n'),
    });
    expect(steps).toEqual([]);
    expect(errors).toEqual([
      { file: '.github/workflows/defaults-run-string.yml', message: 'defaults.run of the workflow is not a mapping' },
      { file: '.github/workflows/defaults-string.yml', message: 'defaults of job a is not a mapping' },
      { file: '.github/workflows/empty.yml', message: 'the workflow is not a mapping' },
      { file: '.github/workflows/no-jobs.yml', message: 'jobs is not a mapping' },
      { file: '.github/workflows/step-string.yml', message: 'jobs.a.steps[0] is not a mapping' },
      { file: '.github/workflows/steps-map.yml', message: 'jobs.a.steps is not a list' },
    ]);
  });

  it('reports a file that cannot be read', () => {
    const result = readWorkflows(['.github/workflows/gone.yml'], () => null);
    expect(result).toEqual({ steps: [], errors: [{ file: '.github/workflows/gone.yml', message: 'the file could not be read' }] });
  });

  it('ignores paths that are not workflows, without reading them', () => {
    const asked: string[] = [];
    const result = readWorkflows(
      ['.github/workflows/nested/ci.yml', '.github/workflows/ci.json', '.github/ci.yml', 'ci/.github/workflows/ci.yml', '.github/workflows/ci.yml'],
      (file) => {
        asked.push(file);
        return ['on: push', 'jobs:', '  a:', '    steps:', '      - run: npm test'].join('\n');
      },
    );
    expect(asked).toEqual(['.github/workflows/ci.yml']);
    expect(result.steps.map((step) => step.workflow)).toEqual(['.github/workflows/ci.yml']);
  });

  it('gives the line of a step that is a flow mapping, and keeps a folded run as the parser folds it', () => {
    const { steps } = read({
      '.github/workflows/ci.yml': [
        'on: push',
        'jobs:',
        '  a:',
        '    steps:',
        '',
        '      - { name: Flow, run: npm ci }',
        '      - name: Folded',
        '        run: >',
        '          npm run test --',
        '          --reporter dot',
      ].join('\n'),
    });
    expect(steps.map((step) => [step.step, step.run, step.line])).toEqual([
      ['Flow', 'npm ci', 6],
      ['Folded', 'npm run test -- --reporter dot\n', 7],
    ]);
    expect(commandsOf(steps[1]?.run ?? '')).toEqual([['npm', 'run', 'test', '--', '--reporter', 'dot']]);
  });

  it('reads numeric and boolean step names as text', () => {
    const { steps } = read({
      '.github/workflows/ci.yml': ['on: push', 'jobs:', '  a:', '    steps:', '      - name: 2024', '        run: npm test', '      - name: true', '        run: npm run lint'].join('\n'),
    });
    expect(steps.map((step) => step.step)).toEqual(['2024', 'true']);
  });

  it('gives the steps of an aliased job the line of the alias', () => {
    const { steps, errors } = read({
      '.github/workflows/ci.yml': [
        'on: push',
        'jobs:',
        '  first: &job',
        '    runs-on: ubuntu-latest',
        '    steps:',
        '      - run: npm test',
        '  second: *job',
      ].join('\n'),
    });
    expect(errors).toEqual([]);
    expect(steps.map((step) => [step.job, step.line])).toEqual([
      ['first', 6],
      ['second', 7],
    ]);
  });
});

describe('commandsOf', () => {
  it('joins backslash-continued lines', () => {
    expect(commandsOf('pnpm vitest run \\\n  --project unit \\\n  test/a.test.ts\nnpm test')).toEqual([
      ['pnpm', 'vitest', 'run', '--project', 'unit', 'test/a.test.ts'],
      ['npm', 'test'],
    ]);
  });

  it('splits on newlines, &&, ||, ; and |', () => {
    expect(commandsOf('npm ci\nnpm run build && npm test || echo failed; cat log | grep ok')).toEqual([
      ['npm', 'ci'],
      ['npm', 'run', 'build'],
      ['npm', 'test'],
      ['echo', 'failed'],
      ['cat', 'log'],
      ['grep', 'ok'],
    ]);
  });

  it('strips leading env assignments', () => {
    expect(commandsOf('FOO=1 BAR="two words" pnpm test')).toEqual([['pnpm', 'test']]);
  });

  it('keeps a leading cd as a command of its own', () => {
    expect(commandsOf('cd x && npm test')).toEqual([
      ['cd', 'x'],
      ['npm', 'test'],
    ]);
  });

  it('skips comment lines and trailing comments, but not a # inside a word or quotes', () => {
    expect(commandsOf('# install first\n  # indented comment\nnpm test # unit only\necho "a # b" c#d\necho "say \\" # quoted"\necho \\\' # comment')).toEqual([
      ['npm', 'test'],
      ['echo', 'a # b', 'c#d'],
      ['echo', 'say " # quoted'],
      ['echo', "'"],
    ]);
  });

  it('turns a word holding an expression into an empty word', () => {
    expect(commandsOf('npm run ${{ matrix.script }} -- --shard=${{ matrix.shard }}')).toEqual([['npm', 'run', '', '--', '']]);
  });

  it('drops redirections instead of reading them as arguments or command ends', () => {
    expect(commandsOf('npx vitest run 2>&1 | tee out.log\nnpm test > result.txt 2>/dev/null &> all.log\nnpm run lint >> lint.log < /dev/null\n> empty.log')).toEqual([
      ['vitest', 'run'],
      ['tee', 'out.log'],
      ['npm', 'test'],
      ['npm', 'run', 'lint'],
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { shellEnvRefs, pythonEnvRefs, scriptLanguage, shellScriptEnvRefs } from '../../src/facts/env-lexical.js';
import { extractScriptFacts } from '../../src/facts/extract-script.js';

describe('env writes in scripts', () => {
  it('records assignments, deletes, spawn env objects, env spreads, Object.assign and vi.stubEnv', () => {
    const facts = extractScriptFacts(
      'run.ts',
      `process.env.CMR_FIXTURE = dir;
delete process.env['CMR_TRACE'];
spawn('gh', [], { env: { PATH: bin, CMR_ALLOW_MERGE: '1' } });
const env = { ...process.env, 'REVIEW_FIXTURE_DIR': dir };
Object.assign(process.env, { EVALS_TIER: 'gate' });
vi.stubEnv('RUN_ALL', '1');
const options = { mode: 'x', CMR_NOT_ENV: 1 };
const read = process.env.CMR_READ;`,
    );
    expect(facts.envWrites.map((write) => `${write.name}@${write.loc.line}`)).toEqual([
      'CMR_FIXTURE@1',
      'CMR_TRACE@2',
      'PATH@3',
      'CMR_ALLOW_MERGE@3',
      'REVIEW_FIXTURE_DIR@4',
      'EVALS_TIER@5',
      'RUN_ALL@6',
    ]);
  });

  it('records a write through a top-level string constant, and not through a variable key', () => {
    const facts = extractScriptFacts('server.ts', `const KEY = 'FIXTURE_BASE_URL';\nlet other = 'OTHER';\nprocess.env[KEY] = url;\nprocess.env[other] = url;\nconst read = process.env[KEY];`);
    expect(facts.envWrites.map((write) => `${write.name}@${write.loc.line}`)).toEqual(['FIXTURE_BASE_URL@3']);
  });
});

describe('test-runner probes', () => {
  it('records typeof of runner globals, runner globals on globalThis, and in-checks on env', () => {
    const facts = extractScriptFacts(
      'src/x.ts',
      `if (typeof describe !== 'undefined') {}
if (typeof window !== 'undefined') {}
const worker = globalThis.__vitest_worker__;
const j = global['jest'];
if ('VITEST' in process.env) {}
if (import.meta.vitest) { const { it } = import.meta.vitest; }`,
    );
    expect(facts.testProbes.map((probe) => `${probe.via} ${probe.name}@${probe.loc.line}`)).toEqual(['typeof describe@1', 'global __vitest_worker__@3', 'global jest@4', 'env-in VITEST@5']);
  });
});

describe('strings and flags', () => {
  it('keeps string literals shaped like paths, env var names and flags, but not module specifiers', () => {
    const facts = extractScriptFacts(
      'src/x.ts',
      `import { a } from './a/b.js';
vi.mock('./mocked/module.js');
const p = 'tests/cmr/fixtures/bin/gh';
const e = 'CMR_FIXTURE';
const f = '--json';
const prose = 'read the docs/guide first';
const u = 'https://example.com/a/b';
const dyn = await import('./lazy/thing.js');`,
    );
    expect(facts.strings.map((literal) => literal.value)).toEqual(['tests/cmr/fixtures/bin/gh', 'CMR_FIXTURE', '--json']);
  });

  it('records the flags of parseArgs option lists and commander/yargs options', () => {
    const facts = extractScriptFacts(
      'src/cli.ts',
      `parseArgs({ options: { base: { type: 'string', short: 'b' }, 'max-warnings': { type: 'string' } } });
program.option('-f, --format <name>', 'output format').requiredOption('--config <file>');
yargs.option('staged', { type: 'boolean' });`,
    );
    expect(facts.flags.map((flag) => flag.name)).toEqual(['--base', '-b', '--max-warnings', '--config', '-f', '--format', '--staged']);
  });
});

describe('lexical env references', () => {
  it('reads shell $X, ${X:-d}, X=…, export X=… and env X=…, but not lower-case locals', () => {
    expect(shellEnvRefs('CMR_FIXTURE=$dir env -i GH_HOST=x gh pr view "${PR:-1}" $pr').map((ref) => `${ref.op} ${ref.name}@${ref.index}`)).toEqual([
      'set CMR_FIXTURE@0',
      'set GH_HOST@24',
      'read PR@48',
    ]);
    expect(shellEnvRefs('export CMR_TRACE=1').map((ref) => `${ref.op} ${ref.name}`)).toEqual(['set CMR_TRACE']);
  });

  it('treats an upper-case variable a script only assigns on its own line as a local', () => {
    const refs = shellScriptEnvRefs(['SCRIPT_DIR="$(dirname "$0")"', 'LOG=$(mktemp -d) # scratch', 'echo "$SCRIPT_DIR/$CMR_FIXTURE" > "$LOG/out"', 'export OUT=1', 'OUT=2', 'GH_HOST=x gh pr view']);
    expect(refs.map((line) => line.map((ref) => `${ref.op} ${ref.name}`))).toEqual([[], [], ['read CMR_FIXTURE'], ['set OUT'], ['set OUT'], ['set GH_HOST']]);
  });

  it('treats variables a script binds in a command of their own, a loop or a read as locals, wherever they sit on the line', () => {
    const refs = shellScriptEnvRefs([
      'B=$(command -v browse); $B goto "$URL"',
      'if [ -z "$MODE" ]; then MODE=fast; fi',
      'PASS=$((PASS+1)) && echo "$PASS"',
      'for FILE in *.md; do echo "$FILE"; done',
      'while IFS= read -r NAME VALUE; do echo "$NAME=$VALUE"; done',
      'TRACE=1 run "$TARGET"',
    ]);
    expect(refs.map((line) => line.map((ref) => `${ref.op} ${ref.name}`))).toEqual([['read URL'], [], [], [], ['set IFS'], ['set TRACE', 'read TARGET']]);
  });

  it('does not take a JavaScript template interpolation for a shell variable', () => {
    expect(shellEnvRefs('echo `${JSON.stringify(payload)}` "${HOME_DIR}" "${CFG[0]}" "${LEVEL:-1}"').map((ref) => `${ref.op} ${ref.name}`)).toEqual([
      'read HOME_DIR',
      'read CFG',
      'read LEVEL',
    ]);
  });

  it('reads Python os.environ and os.getenv', () => {
    const line = `spec = os.environ["CMR_FIXTURE"]; allow = os.environ.get('CMR_ALLOW_MERGE'); x = getenv("X"); os.environ["OUT"] = "1"`;
    expect(pythonEnvRefs(line).map((ref) => `${ref.op} ${ref.name}`)).toEqual(['read CMR_FIXTURE', 'read CMR_ALLOW_MERGE', 'read X', 'set OUT']);
  });

  it('tells a stub language by extension or shebang', () => {
    expect(scriptLanguage('bin/gh', '#!/usr/bin/env python3\n')).toBe('python');
    expect(scriptLanguage('bin/git', '#!/bin/bash\n')).toBe('shell');
    expect(scriptLanguage('bin/tool', 'no shebang\n')).toBe('unknown');
    expect(scriptLanguage('notes.txt', '')).toBeNull();
    expect(scriptLanguage('run.sh', '')).toBe('shell');
  });
});

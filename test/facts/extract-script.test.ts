import { describe, expect, it } from 'vitest';
import { extractScriptFacts } from '../../src/facts/extract-script.js';
import type { FileFacts, Site } from '../../src/facts/types.js';

function sites(facts: FileFacts): Site[] {
  return facts.units.flatMap((unit) => unit.sites);
}

function spawned(code: string): (string | null)[][][] {
  return sites(extractScriptFacts('probe.test.ts', code)).flatMap((site) => (site.kind === 'spawn' ? [site.commands] : []));
}

describe('imports and exports', () => {
  it('records static, type-only, namespace and side-effect imports', () => {
    const facts = extractScriptFacts(
      'a.ts',
      `import OpenAI from 'openai';
import type { ChatCompletion } from 'openai';
import { type A, b } from './b.js';
import * as judge from './judge.js';
import './setup.js';`,
    );
    expect(facts.imports.map((i) => [i.specifier, i.kind, i.typeOnly, i.bindings.map((b) => `${b.imported}:${b.local}:${b.typeOnly}`)])).toEqual([
      ['openai', 'static', false, ['default:OpenAI:false']],
      ['openai', 'static', true, ['ChatCompletion:ChatCompletion:true']],
      ['./b.js', 'static', false, ['A:A:true', 'b:b:false']],
      ['./judge.js', 'static', false, ['*:judge:false']],
      ['./setup.js', 'side-effect', false, []],
    ]);
  });

  it('records re-exports, star exports and local exports', () => {
    const facts = extractScriptFacts(
      'index.ts',
      `export { scoreRun } from './score.js';
export * from './grade.js';
export * as llm from './llm.js';
import { parse } from './parse.js';
export { parse };
export function run() {}
export const a = 1, b = 2;
export default class Runner {}`,
    );
    expect(facts.exports.map((e) => (e.kind === 'local' ? `local ${e.name}=${e.local}` : e.kind === 'reexport' ? `reexport ${e.name}=${e.specifier}#${e.imported}` : `${e.kind}`))).toEqual([
      'reexport scoreRun=./score.js#scoreRun',
      'star',
      'reexport llm=./llm.js#*',
      'reexport parse=./parse.js#parse',
      'local run=run',
      'local a=a',
      'local b=b',
      'local default=Runner',
    ]);
  });

  it('records require and dynamic import bindings with the unit they run in', () => {
    const facts = extractScriptFacts(
      'a.cjs',
      `const Anthropic = require('@anthropic-ai/sdk');
const { spawn } = require('node:child_process');
async function load() { const { GoogleGenAI } = await import('@google/genai'); return GoogleGenAI; }`,
    );
    expect(facts.imports.map((i) => [i.specifier, i.kind, i.unit, i.eager, i.bindings.map((b) => `${b.imported}:${b.local}`)])).toEqual([
      ['@anthropic-ai/sdk', 'require', 'Anthropic', true, ['*:Anthropic']],
      ['node:child_process', 'require', 'spawn', true, ['spawn:spawn']],
      ['@google/genai', 'dynamic', 'load', false, ['GoogleGenAI:GoogleGenAI']],
    ]);
  });

  it('records module mocks by specifier, including vi.mock(import(…))', () => {
    const facts = extractScriptFacts('a.test.ts', `vi.mock('openai');\njest.mock('../helpers/judge');\nmock.module('@anthropic-ai/sdk', () => ({}));\nvi.mock(import('./llm.js'));`);
    expect(facts.mocks.map((m) => `${m.via} ${m.specifier}`)).toEqual(['vi.mock openai', 'jest.mock ../helpers/judge', 'mock.module @anthropic-ai/sdk', 'vi.mock ./llm.js']);
  });
});

describe('spawned commands', () => {
  it('resolves an argv array', () => {
    expect(spawned(`import { spawn } from 'node:child_process';\nspawn('claude', ['-p', prompt]);`)).toEqual([[['claude', '-p', null]]]);
  });

  it('splits a shell string and expands sh -c', () => {
    expect(spawned(`import { execSync } from 'child_process';\nexecSync('sh -c "claude -p hello && echo done"');`)).toEqual([[['claude', '-p', 'hello'], ['echo', 'done']]]);
  });

  it('resolves a constant defined elsewhere in the file', () => {
    expect(spawned(`import { execFileSync } from 'node:child_process';\nconst CLI = 'codex';\nexecFileSync(CLI, ['exec', 'x']);`)).toEqual([[['codex', 'exec', 'x']]]);
  });

  it('keeps an absolute path as written', () => {
    expect(spawned(`import * as cp from 'node:child_process';\ncp.spawnSync('/usr/local/bin/gemini', ['-p', 'x']);`)).toEqual([[['/usr/local/bin/gemini', '-p', 'x']]]);
  });

  it('reads Bun.spawn({ cmd }) and a path from Bun.which', () => {
    expect(spawned(`const bin = Bun.which('claude');\nBun.spawn({ cmd: [bin!, '-p', 'x'] });`)).toEqual([[['claude', '-p', 'x']]]);
  });

  it('reads execa and a zx template with a constant head', () => {
    expect(spawned(`import { execa } from 'execa';\nimport { $ } from 'zx';\nawait execa('claude', ['-p', 'x']);\nawait $\`claude -p \${q}\`;`)).toEqual([[['claude', '-p', 'x']], [['claude', '-p', null]]]);
  });

  it('strips env assignments and wrappers in front of the program', () => {
    expect(spawned(`import { exec } from 'node:child_process';\nexec('FOO=1 env BAR=2 timeout 30 npx claude -p hi | tee out');`)).toEqual([[['claude', '-p', 'hi'], ['tee', 'out']]]);
  });

  it('keeps shell: true commands as one shell line', () => {
    expect(spawned(`import { spawn } from 'node:child_process';\nspawn('claude -p x; echo', [], { shell: true });`)).toEqual([[['claude', '-p', 'x'], ['echo']]]);
  });

  it('does not treat an unrelated local function named spawn as a spawn', () => {
    expect(spawned(`function spawn(name: string) { return name; }\nspawn('claude');`)).toEqual([]);
  });
});

describe('requests and env reads', () => {
  it('records fetch hosts from literals, constants, URL objects and option objects', () => {
    const facts = extractScriptFacts(
      'a.ts',
      `import axios from 'axios';
import https from 'node:https';
const BASE = 'https://api.openai.com/v1';
await fetch(BASE + '/chat/completions');
await fetch(new URL('/v1/messages', 'https://api.anthropic.com'));
await axios.post(\`https://api.groq.com/openai/v1/\${path}\`);
https.request({ hostname: 'api.mistral.ai', path: '/v1' });
await fetch(url);`,
    );
    expect(sites(facts).map((s) => (s.kind === 'request' ? `${s.via} ${s.host}` : s.kind))).toEqual([
      'fetch api.openai.com',
      'fetch api.anthropic.com',
      'axios.post api.groq.com',
      'https.request api.mistral.ai',
      'fetch null',
    ]);
  });

  it('records env reads through property, element access and destructuring', () => {
    const facts = extractScriptFacts('a.ts', `const a = process.env.OPENAI_API_KEY;\nconst b = process.env['ANTHROPIC_API_KEY'];\nconst { GEMINI_API_KEY: g } = process.env;\nconst c = import.meta.env.VITE_X;\nconst d = Bun.env.HOME;`);
    expect(sites(facts).map((s) => (s.kind === 'env' ? s.name : s.kind))).toEqual(['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'VITE_X', 'HOME']);
  });

  it('marks sets and deletes as writes, and a kept or asserted value as a save only where the file writes the variable', () => {
    const facts = extractScriptFacts(
      'a.test.ts',
      `const saved = process.env.OPENAI_API_KEY;
process.env.OPENAI_API_KEY = 'fake';
expect(process.env.OPENAI_API_KEY).toBe('fake');
delete process.env.OPENAI_API_KEY;
const other = process.env.GROQ_API_KEY;
client(process.env.OPENAI_API_KEY);`,
    );
    expect(sites(facts).map((s) => (s.kind === 'env' ? `${s.name}:${s.access ?? 'read'}` : s.kind))).toEqual([
      'OPENAI_API_KEY:save',
      'GROQ_API_KEY:read',
      'OPENAI_API_KEY:write',
      'OPENAI_API_KEY:save',
      'OPENAI_API_KEY:write',
      'OPENAI_API_KEY:read',
    ]);
  });
});

describe('plants', () => {
  it('records env vars the file sets in its own process, the files it writes and whether it makes a directory', () => {
    const facts = extractScriptFacts(
      'stub.ts',
      `import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
const dir = mkdtempSync('/tmp/stub-');
writeFileSync(join(dir, 'claude'), '#!/bin/sh');
copyFileSync('test/stubs/fake-cli.sh', join(dir, 'codex'));
vi.stubEnv('GEMINI_API_KEY', 'x');
Object.assign(process.env, { MISTRAL_API_KEY: 'y' });
process.env.PATH = dir;
spawn('node', [], { env: { OPENAI_API_KEY: 'z' } });`,
    );
    expect(facts.plants).toEqual({ env: ['GEMINI_API_KEY', 'MISTRAL_API_KEY', 'PATH'], files: ['claude', 'codex'], dirs: true });
  });

  it('plants nothing for a file that only reads and spawns', () => {
    const facts = extractScriptFacts('run.ts', `import { spawnSync } from 'node:child_process';
spawnSync('claude', ['-p', process.env.PROMPT ?? '']);`);
    expect(facts.plants).toEqual({ env: [], files: [], dirs: false });
  });
});

describe('units, refs and eagerness', () => {
  it('marks module-load code eager and function bodies deferred', () => {
    const facts = extractScriptFacts(
      'h.ts',
      `import { execSync } from 'node:child_process';
import { complete } from './llm.js';
const warm = execSync('claude -p warmup');
export function judge() { return complete('x'); }
export const parse = (s: string) => s.trim();
judge();`,
    );
    expect(facts.units.map((u) => [u.names.join(','), u.sites.map((s) => s.eager), u.refs.map((r) => `${r.name}${r.eagerCall ? '()' : ''}`)])).toEqual([
      ['warm', [true], ['execSync()']],
      ['judge', [], ['complete']],
      ['parse', [], []],
      ['<init>', [], ['judge()']],
    ]);
  });

  it('keeps an <init> unit for a bare top-level statement that names nothing of the file, but not for a directive', () => {
    expect(extractScriptFacts('m.ts', `'use strict';\nexpect.extend({});\nexport const a = 1;`).units.map((u) => u.names.join(','))).toEqual(['a', '<init>']);
    expect(extractScriptFacts('d.ts', `'use strict';\nexport const a = 1;`).units.map((u) => u.names.join(','))).toEqual(['a']);
  });

  it('keeps code under an entry-point guard out of the module initialiser', () => {
    const facts = extractScriptFacts(
      'main.ts',
      `import { run } from './run.js';
if (import.meta.main) run();
if (require.main === module) { run(); }
if (process.argv[1] === fileURLToPath(import.meta.url)) run();
if (process.env.AUTORUN) run();`,
    );
    expect(facts.units.map((u) => [u.names.join(','), u.refs.map((r) => `${r.name}${r.eagerCall ? '()' : ''}`)])).toEqual([
      ['<main>', ['run']],
      ['<main>', ['run']],
      ['<main>', ['run']],
      ['<init>', ['run()']],
    ]);
  });

  it('records each distinct reference of a unit once', () => {
    const facts = extractScriptFacts('t.ts', `import { a, b } from './m.js';\nexport function f() { a(); a(); b.x; a(); }\nexport const g = a() + a() + a;`);
    expect(facts.units.map((u) => u.refs.map((r) => `${r.name}${r.eagerCall ? '()' : ''}`))).toEqual([['a', 'b'], ['a()', 'a']]);
  });

  it('records the member used through a namespace import', () => {
    const facts = extractScriptFacts('t.ts', `import * as judge from './judge.js';\nexport const v = judge.parseVerdict('ok');`);
    expect(facts.units[0]?.refs.map((r) => `${r.name}.${r.member}:${r.eagerCall}`)).toEqual(['judge.parseVerdict:true']);
  });

  it('does not count type positions, property names or object keys as references', () => {
    const facts = extractScriptFacts('t.ts', `import { judge } from './judge.js';\nexport const x: typeof judge = null!;\nexport const y = { judge: 1 }.judge;`);
    expect(facts.units.flatMap((u) => u.refs)).toEqual([]);
  });
});

describe('suppressions and syntax errors', () => {
  it('parses rule lists and reasons', () => {
    const facts = extractScriptFacts('t.ts', `// tripwire-disable-next-line no-paid-calls-in-free-tests -- records the CLI version\nx();\n// tripwire-disable-next-line no-paid-calls-in-free-tests\ny(); /* tripwire-disable-line a, b -- why */`);
    expect(facts.suppressions.map((s) => [s.scope, s.rules, s.reason, s.loc.line])).toEqual([
      ['next-line', ['no-paid-calls-in-free-tests'], 'records the CLI version', 1],
      ['next-line', ['no-paid-calls-in-free-tests'], null, 3],
      ['line', ['a', 'b'], 'why', 4],
    ]);
  });

  it('takes only a comment that starts with the directive: in a block, at the end of a file, after the last statement of a block', () => {
    const code = [
      'function f() {',
      '  // tripwire-disable-next-line a -- inside a block',
      '  g();',
      '  h(); // tripwire-disable-line b -- trailing',
      '  // tripwire-disable-next-line c -- before the closing brace',
      '}',
      'const s = x + /* tripwire-disable-line d -- between tokens */ y;',
      '// tripwire-disable-next-line e -- at the end of the file',
    ].join('\n');
    expect(extractScriptFacts('t.ts', code).suppressions.map((s) => `${s.loc.line}:${s.loc.column} ${s.rules.join(',')}`)).toEqual(['2:3 a', '4:8 b', '5:3 c', '7:15 d', '8:1 e']);
  });

  it('ignores the directive in a string, a template, a regular expression and inside another comment (documentation showing the syntax)', () => {
    // Each of these silenced a real finding: a test's fixture text and a JSDoc line were taken for suppressions.
    const code = [
      "const a = '// tripwire-disable-line no-paid-calls-in-free-tests -- in a string';",
      'const b = `',
      '// tripwire-disable-next-line no-paid-calls-in-free-tests',
      "import OpenAI from 'openai';",
      '`;',
      'const c = `${a} // tripwire-disable-line x -- in a template tail`;',
      'const d = /\/\/ tripwire-disable-line y/;',
      '/**',
      ' * `// tripwire-disable-next-line <rule> -- <reason>` silences one finding.',
      ' */',
      'export const e = 1;',
    ].join('\n');
    expect(extractScriptFacts('t.ts', code).suppressions).toEqual([]);
  });

  it('reports syntax errors with their position', () => {
    const facts = extractScriptFacts('t.ts', `const a = ;\n`);
    expect(facts.parseErrors.map((e) => `${e.loc.line}:${e.loc.column} ${e.message}`)).toEqual(['1:11 Expression expected.']);
  });
});

// The text of every file of a synthetic harness, for revision 1 (the first
// commit) or 2 (the second). Each file draws from its own seed.

import { createRandom } from './random.mjs';
import { NOUNS, PROSE, QUALIFIERS, VERBS } from './words.mjs';

function fnv1a(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

const fileRandom = (seed, path) => createRandom(fnv1a(`${seed}:${path}`));
const cap = (word) => word[0].toUpperCase() + word.slice(1);
const quote = (text) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;

function sentence(random, min = 8, max = 18) {
  const words = [];
  const count = random.int(min, max);
  for (let i = 0; i < count; i++) words.push(random.pick(PROSE));
  return `${cap(words.join(' '))}.`;
}

function paragraph(random, sentences = random.int(2, 5)) {
  const out = [];
  for (let i = 0; i < sentences; i++) out.push(sentence(random));
  return out.join(' ');
}

// ---------------------------------------------------------------- shipped src

function fillerFunctions(random, prefix, count) {
  const out = [];
  const used = new Set();
  for (let i = 0; i < count; i++) {
    let name = `${random.pick(VERBS).replace(/s$/, '')}${cap(prefix)}${cap(random.pick(NOUNS))}`;
    while (used.has(name)) name += 'Again';
    used.add(name);
    const limit = random.int(2, 40);
    out.push(`export function ${name}(values: readonly string[], limit = ${limit}): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const value of values) {
    const key = value.trim().toLowerCase();
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    out.push(${random.chance(0.5) ? 'value.trim()' : 'key'});
    if (out.length >= limit) break;
  }
  return out${random.chance(0.5) ? '.sort()' : ''};
}
`);
  }
  return out.join('\n');
}

function srcFiles(plan, area, rev, files) {
  const { P, name } = area;
  const dir = `src/${name}`;
  const r = (file) => fileRandom(plan.seed, `${dir}/${file}`);

  files.set(`${dir}/types.ts`, `export interface ${P}Record {
  id: string;
  title: string;
  score: number;
  tags: string[];
}

export type ${P}Severity = 'low' | 'medium' | 'high';

export interface ${P}Options {
  /** At most this many records. */
  limit?: number;
  /** Records scoring below this are dropped. */
  minScore?: number;
}
`);

  let random = r('parse.ts');
  files.set(`${dir}/parse.ts`, `import type { ${P}Record } from './types.js';
import { normalizeWhitespace, splitLines } from '../shared/text.js';

const LINE = /^(?<id>[a-z0-9-]+)\\s+(?<score>-?\\d+(?:\\.\\d+)?)\\s+(?<title>.+)$/;

export function parse${P}(text: string): ${P}Record[] {
  const records: ${P}Record[] = [];
  for (const line of splitLines(text)) {
    if (line.startsWith('#')) continue;
    const match = LINE.exec(normalizeWhitespace(line));
    if (!match?.groups) continue;
    const title = match.groups.title ?? '';
    records.push({ id: match.groups.id ?? '', title, score: Number(match.groups.score), tags: tagsOf(title) });
  }
  return records;
}

function tagsOf(title: string): string[] {
  return title
    .split(' ')
    .filter((word) => word.startsWith('#') && word.length > 1)
    .map((word) => word.slice(1).toLowerCase());
}

${fillerFunctions(random, P, random.int(1, 4))}`);

  random = r('format.ts');
  const legacy = area === plan.edits.removedExport && rev === 1
    ? `
/** @deprecated kept for the old report writer; use format${P}. */
export function legacyFormat${P}(records: readonly ${P}Record[]): string {
  return records.map((record) => record.id).join(',');
}
`
    : '';
  files.set(`${dir}/format.ts`, `import type { ${P}Record } from './types.js';
import { truncate } from '../shared/text.js';

export function format${P}(records: readonly ${P}Record[], width = ${random.int(40, 120)}): string {
  if (records.length === 0) return 'No records.';
  return records
    .map((record) => \`\${record.id.padEnd(12)} \${record.score.toFixed(1).padStart(6)}  \${truncate(record.title, width)}\`)
    .join('\\n');
}
${legacy}
${fillerFunctions(random, P, random.int(1, 3))}`);

  random = r('rules.ts');
  const added = area === plan.edits.addedFunction && rev === 2
    ? `
export function clamp${P}Score(score: number, max = 5): number {
  return Math.min(max, Math.max(0, score));
}
`
    : '';
  files.set(`${dir}/rules.ts`, `import type { ${P}Options, ${P}Record, ${P}Severity } from './types.js';
import { parse${P} } from './parse.js';

const WEIGHTS: Record<${P}Severity, number> = { low: 1, medium: ${random.int(2, 4)}, high: ${random.int(5, 9)} };

export function score${P}(record: ${P}Record): number {
  const severity: ${P}Severity = record.tags.includes('urgent') ? 'high' : record.tags.length > 0 ? 'medium' : 'low';
  return record.score * WEIGHTS[severity];
}

export function rank${P}(records: readonly ${P}Record[], options: ${P}Options = {}): ${P}Record[] {
  const minScore = options.minScore ?? Number.NEGATIVE_INFINITY;
  return [...records]
    .filter((record) => record.score >= minScore)
    .sort((a, b) => score${P}(b) - score${P}(a) || a.id.localeCompare(b.id))
    .slice(0, options.limit ?? ${random.int(10, 100)});
}

export function rankText${P}(text: string, options?: ${P}Options): ${P}Record[] {
  return rank${P}(parse${P}(text), options);
}
${added}
${fillerFunctions(random, P, random.int(0, 3))}`);

  files.set(`${dir}/index.ts`, `export * from './parse.js';
export * from './format.js';
export * from './rules.js';
export type * from './types.js';
`);
}

function sharedSrcFiles(plan, files) {
  files.set('src/shared/text.ts', `export function splitLines(text: string): string[] {
  return text.split(/\\r?\\n/).filter((line) => line.trim() !== '');
}

export function normalizeWhitespace(text: string): string {
  return text.replace(/\\s+/g, ' ').trim();
}

export function truncate(text: string, width: number): string {
  return text.length <= width ? text : \`\${text.slice(0, Math.max(0, width - 1))}…\`;
}
`);
  files.set('src/shared/paths.ts', `import { join } from 'node:path';

export const SKILLS_DIR = 'skills';

export function skillPath(name: string): string {
  return join(SKILLS_DIR, name, 'SKILL.md');
}
`);
  files.set('src/shared/client.ts', `import Anthropic from '@anthropic-ai/sdk';

const MODEL = 'claude-3-5-haiku-latest';
let client: Anthropic | undefined;

/** One completion from the model: the product's only paid call. */
export async function complete(prompt: string, maxTokens = 400): Promise<string> {
  client ??= new Anthropic();
  const response = await client.messages.create({ model: MODEL, max_tokens: maxTokens, messages: [{ role: 'user', content: prompt }] });
  const first = response.content[0];
  return first?.type === 'text' ? first.text : '';
}
`);
  files.set('src/shared/index.ts', `export * from './text.js';
export * from './paths.js';
`);
  const random = fileRandom(plan.seed, 'src/cli.ts');
  const some = random.sample(plan.areas, Math.min(6, plan.areas.length)).sort((a, b) => a.index - b.index);
  files.set('src/cli.ts', `import { readFileSync } from 'node:fs';
${some.map((area) => `import { format${area.P}, rankText${area.P} } from './${area.name}/index.js';`).join('\n')}

const COMMANDS: Record<string, (text: string) => string> = {
${some.map((area) => `  '${area.name}': (text) => format${area.P}(rankText${area.P}(text)),`).join('\n')}
};

export function main(argv: string[]): number {
  const [command, file] = argv;
  const run = command === undefined ? undefined : COMMANDS[command];
  if (run === undefined || file === undefined) {
    process.stderr.write(\`usage: cli <\${Object.keys(COMMANDS).join('|')}> FILE\\n\`);
    return 2;
  }
  process.stdout.write(\`\${run(readFileSync(file, 'utf8'))}\\n\`);
  return 0;
}
`);
}

// ------------------------------------------------------------------- helpers

function sharedHelperFiles(files) {
  files.set('test/helpers/eval.ts', `import { describe, test } from 'vitest';
import { type EvalRun, runAgent } from './run.js';
import { recordResult } from './store.js';

export type Tier = 'gate' | 'periodic';

export interface EvalSpec {
  name: string;
  fixture: string;
  timeoutMs?: number;
  check: (run: EvalRun) => void | Promise<void>;
}

const PAID = process.env.EVALS === '1';
const SELECTED = new Set((process.env.EVALS_SELECTED ?? '').split(',').filter(Boolean));

export function isSelected(name: string): boolean {
  return PAID && (process.env.RUN_ALL === '1' || SELECTED.has(name));
}

export function describeTier(tier: Tier, body: () => void): void {
  const wanted = process.env.EVALS_TIER;
  describe.runIf(PAID && (wanted === undefined || wanted === tier))(\`\${tier} evals\`, body);
}

export function describeIfSelected(name: string, body: () => void): void {
  describe.runIf(isSelected(name))(name, body);
}

export function runEval(spec: EvalSpec): void {
  const timeoutMs = spec.timeoutMs ?? 300_000;
  test.runIf(isSelected(spec.name))(
    spec.name,
    async () => {
      const run = await runAgent({ fixture: spec.fixture, timeoutMs });
      let passed = false;
      try {
        await spec.check(run);
        passed = true;
      } finally {
        recordResult({ name: spec.name, passed, costUsd: run.costUsd, turns: run.turns, durationMs: run.durationMs });
      }
    },
    timeoutMs + 10_000,
  );
}
`);
  files.set('test/helpers/run.ts', `import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface EvalRun {
  text: string;
  costUsd: number;
  turns: number;
  exitCode: number;
  durationMs: number;
}

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');

export function runAgent(options: { fixture: string; model?: string; timeoutMs?: number }): Promise<EvalRun> {
  const workdir = mkdtempSync(join(tmpdir(), 'harness-eval-'));
  cpSync(join(FIXTURES, options.fixture), join(workdir, 'input.txt'));
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn('claude', ['-p', 'Process input.txt as the skill says.', '--output-format', 'stream-json', '--verbose', '--model', options.model ?? 'sonnet'], {
      cwd: workdir,
      timeout: options.timeoutMs ?? 300_000,
    });
    let stream = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stream += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const last = stream.trim().split('\\n').at(-1) ?? '{}';
      const event = JSON.parse(last) as { result?: string; total_cost_usd?: number; num_turns?: number };
      resolve({
        text: event.result ?? '',
        costUsd: event.total_cost_usd ?? 0,
        turns: event.num_turns ?? 0,
        exitCode: code ?? 1,
        durationMs: Date.now() - started,
      });
    });
  });
}
`);
  files.set('test/helpers/store.ts', `import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export interface StoredResult {
  name: string;
  passed: boolean;
  costUsd: number;
  turns: number;
  durationMs: number;
  recordedAt: string;
}

const RESULTS_DIR = join(process.cwd(), '.evals');

export function recordResult(result: Omit<StoredResult, 'recordedAt'>): StoredResult {
  const stored = { ...result, recordedAt: new Date().toISOString() };
  mkdirSync(RESULTS_DIR, { recursive: true });
  appendFileSync(join(RESULTS_DIR, 'results.jsonl'), \`\${JSON.stringify(stored)}\\n\`);
  return stored;
}
`);
  files.set('test/helpers/shared/io.ts', `import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures');

export function readFixture(area: string, name: string): string {
  return readFileSync(join(FIXTURES, area, name), 'utf8');
}
`);
  files.set('test/helpers/shared/judge.ts', `import { complete } from '@src/shared/client.js';

export async function judge(report: string, rubric: string): Promise<number> {
  const reply = await complete(\`Score this output from 1 to 5 against the rubric. Reply with the number only.\\nRubric: \${rubric}\\n\\n\${report}\`, 10);
  const score = Number.parseInt(reply, 10);
  return Number.isNaN(score) ? 0 : score;
}
`);
  files.set('test/helpers/shared/openai.ts', `export async function askOpenAI(prompt: string): Promise<string> {
  const response = await fetch('https://api.openai.com/v1/chat/completions', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: \`Bearer \${process.env.OPENAI_API_KEY ?? ''}\` },
    body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: prompt }] }),
  });
  const body = (await response.json()) as { choices?: { message?: { content?: string } }[] };
  return body.choices?.[0]?.message?.content ?? '';
}
`);
  files.set('test/helpers/shared/index.ts', `export * from './io.js';
`);
}

function areaHelperFiles(plan, area, rev, files) {
  const { P, name } = area;
  const dir = `test/helpers/${name}`;
  const title = area === plan.edits.editedHelper && rev === 2 ? 'a sample record' : 'sample';
  files.set(`${dir}/fixtures.ts`, `import { readFixture } from '../shared/io.js';
import { parse${P}, type ${P}Record } from '@src/${name}';

export function make${P}Record(overrides: Partial<${P}Record> = {}): ${P}Record {
  return { id: '${name}-1', title: '${title}', score: 1, tags: [], ...overrides };
}

export function load${P}Cases(fixture: string): ${P}Record[] {
  return parse${P}(readFixture('${name}', fixture));
}
`);
  files.set(`${dir}/expect.ts`, `import { expect } from 'vitest';
import { rank${P} } from '@src/${name}/rules.js';
import type { ${P}Record } from '@src/${name}/types.js';

export function expectRanked(records: ${P}Record[], ids: string[]): void {
  expect(rank${P}(records).map((record) => record.id)).toEqual(ids);
}

export function expectAllScored(records: ${P}Record[]): void {
  for (const record of records) expect(Number.isFinite(record.score)).toBe(true);
}
`);
  const grader = area.grader === 'openai'
    ? `import { askOpenAI } from '../shared/openai.js';
import { format${P} } from '@src/${name}';
import type { ${P}Record } from '@src/${name}/types.js';

export async function grade${P}(records: ${P}Record[], rubric: string): Promise<number> {
  const reply = await askOpenAI(\`Rubric: \${rubric}\\n\\n\${format${P}(records)}\\n\\nScore 1-5, number only.\`);
  return Number.parseInt(reply, 10) || 0;
}
`
    : `import { judge } from '../shared/judge.js';
import { format${P} } from '@src/${name}';
import type { ${P}Record } from '@src/${name}/types.js';

export async function grade${P}(records: ${P}Record[], rubric: string): Promise<number> {
  return judge(format${P}(records), rubric);
}
`;
  files.set(`${dir}/grader.ts`, grader);
  files.set(`${dir}/scenario.ts`, `import { grade${P} } from './grader.js';
import { load${P}Cases } from './fixtures.js';

export interface ${P}ScenarioResult {
  score: number;
  count: number;
}

export async function run${P}Scenario(fixture: string, rubric = 'Every record is ranked and formatted.'): Promise<${P}ScenarioResult> {
  const cases = load${P}Cases(fixture);
  return { score: await grade${P}(cases, rubric), count: cases.length };
}

export function describe${P}Scenario(fixture: string): string {
  return \`${name} scenario \${fixture}\`;
}
`);
  files.set(`${dir}/index.ts`, `export * from './fixtures.js';
export * from './expect.js';
`);
}

// --------------------------------------------------------------------- tests

function freeTest(plan, area, test, path, extra) {
  const random = fileRandom(plan.seed, path);
  const { P, name } = area;
  const srcAlias = random.chance(0.6);
  const helperAlias = random.chance(0.5);
  const srcSpec = srcAlias ? `@src/${name}` : `../../src/${name}/index.js`;
  const helperSpec = helperAlias ? `@helpers/${name}` : `../helpers/${name}/index.js`;
  const scenarioSpec = `../helpers/${name}/scenario.js`;
  const src = new Set();
  const helpers = new Set();
  const shared = new Set();
  const vitest = new Set(['describe', 'expect', 'test']);
  const titles = new Set();
  const cases = [];
  const count = test.tests + extra;
  for (let i = 0; i < count; i++) {
    let title = `${random.pick(VERBS)} ${random.pick(NOUNS)} with ${random.pick(QUALIFIERS)}`;
    while (titles.has(title)) title += ' again';
    titles.add(title);
    const kind = random.int(0, 5);
    const id = `${random.pick(NOUNS).slice(0, 3)}-${random.int(1, 99)}`;
    const score = random.int(1, 9);
    const modifier = random.chance(0.02) ? '.skip' : '';
    if (kind === 0) {
      src.add(`parse${P}`);
      cases.push(`  test${modifier}('${title}', () => {
    const records = parse${P}('${id} ${score} first #${random.pick(NOUNS)}\\n# comment\\nb-${score} ${score + 1} second');
    expect(records).toHaveLength(2);
    expect(records[0]?.id).toBe('${id}');
  });`);
    } else if (kind === 1) {
      src.add(`format${P}`);
      helpers.add(`make${P}Record`);
      cases.push(`  test${modifier}('${title}', () => {
    const text = format${P}([make${P}Record({ title: '${random.pick(NOUNS)} ${random.pick(NOUNS)}', score: ${score} })]);
    expect(text).toContain('${score}.0');
  });`);
    } else if (kind === 2) {
      helpers.add(`make${P}Record`).add('expectRanked');
      cases.push(`  test${modifier}('${title}', () => {
    expectRanked([make${P}Record({ id: 'a', score: ${score} }), make${P}Record({ id: 'b', score: ${score + 2} })], ['b', 'a']);
  });`);
    } else if (kind === 3) {
      src.add(`score${P}`);
      helpers.add(`make${P}Record`);
      cases.push(`  test${modifier}('${title}', () => {
    expect(score${P}(make${P}Record({ score: ${score}, tags: ['urgent'] }))).toBeGreaterThan(${score});
    expect(score${P}(make${P}Record({ score: 0 }))).toBe(0);
  });`);
    } else if (kind === 4) {
      shared.add('normalizeWhitespace');
      cases.push(`  test${modifier}('${title}', () => {
    expect(normalizeWhitespace('  ${random.pick(NOUNS)}   ${random.pick(NOUNS)} ')).toMatch(/^\\S+ \\S+$/);
  });`);
    } else {
      src.add(`rank${P}`);
      helpers.add(`make${P}Record`);
      cases.push(`  test.each([
    [${random.int(1, 3)}, 1],
    [${random.int(4, 9)}, 2],
  ])('${title} (limit %i)', (limit, expected) => {
    const records = [make${P}Record({ id: 'x' }), make${P}Record({ id: 'y', score: 2 })];
    expect(rank${P}(records, { limit: Math.min(limit, expected) })).toHaveLength(expected);
  });`);
    }
  }

  let scenario = '';
  let mock = '';
  if (test.kind === 'violation' || test.kind === 'mocked') {
    cases.push(`  test('scores the ${name} scenario', async () => {
    const result = await run${P}Scenario('basic.txt');
    expect(result.count).toBeGreaterThan(0);
  });`);
    scenario = `import { run${P}Scenario } from '${scenarioSpec}';\n`;
    if (test.kind === 'mocked') {
      vitest.add('vi');
      mock = `\nvi.mock('${scenarioSpec}', () => ({ run${P}Scenario: vi.fn(async () => ({ score: 5, count: 1 })) }));\n`;
    }
  } else if (test.kind === 'pure-scenario') {
    cases.push(`  test('names the ${name} scenario', () => {
    expect(describe${P}Scenario('basic.txt')).toContain('basic');
  });`);
    scenario = `import { describe${P}Scenario } from '${scenarioSpec}';\n`;
  }

  const lines = [`import { ${[...vitest].sort().join(', ')} } from 'vitest';`];
  if (src.size > 0) lines.push(`import { ${[...src].sort().join(', ')} } from '${srcSpec}';`);
  if (shared.size > 0) lines.push(`import { ${[...shared].sort().join(', ')} } from '${srcAlias ? '@src/shared' : '../../src/shared/index.js'}';`);
  if (helpers.size > 0) lines.push(`import { ${[...helpers].sort().join(', ')} } from '${helperSpec}';`);
  return `${lines.join('\n')}\n${scenario}${mock}
describe('${name} ${test.slug}', () => {
${cases.join('\n\n')}
});
`;
}

function paidTest(plan, area, test, rev) {
  const random = fileRandom(plan.seed, test.file);
  const { P, name } = area;
  const threshold = area.paid[0] === test && plan.edits.editedPaid === test && rev === 2 ? 4 : 3;
  const fixture = test.fixture.slice('test/fixtures/'.length);
  const body = (id, indent) => {
    const pad = ' '.repeat(indent);
    if (id.via === 'describeIfSelected') {
      return `${pad}describeIfSelected('${id.id}', () => {
${pad}  test('${random.pick(VERBS)} ${random.pick(NOUNS)} well enough to act on', async () => {
${pad}    const result = await run${P}Scenario('${test.slug}.txt', 'Each record names its source.');
${pad}    expect(result.score).toBeGreaterThanOrEqual(${threshold});
${pad}  }, 600_000);
${pad}});`;
    }
    return `${pad}runEval({
${pad}  name: '${id.id}',
${pad}  fixture: '${fixture}',
${pad}  check: async (run) => {
${pad}    expect(run.exitCode).toBe(0);
${pad}    const records = load${P}Cases('${test.slug}.txt');
${pad}    expect(run.text).toContain(records[0]?.id ?? '');
${pad}    expect(run.turns).toBeLessThanOrEqual(${random.int(6, 20)});
${pad}  },
${pad}});`;
  };
  const usesDescribe = test.ids.some((id) => id.via === 'describeIfSelected');
  const evalImports = new Set(test.ids.map((id) => id.via));
  if (test.shape === 'tier') evalImports.add('describeTier');
  const vitest = new Set(['expect']);
  if (usesDescribe) vitest.add('test');
  if (test.shape === 'periodic') vitest.add('describe');
  const helperAlias = random.chance(0.5);
  const head = [
    `import { ${[...vitest].sort().join(', ')} } from 'vitest';`,
    `import { ${[...evalImports].sort().join(', ')} } from '../../helpers/eval.js';`,
    `import { load${P}Cases } from '${helperAlias ? `@helpers/${name}` : `../../helpers/${name}/index.js`}';`,
  ];
  if (usesDescribe) head.push(`import { run${P}Scenario } from '../../helpers/${name}/scenario.js';`);
  let main;
  if (test.shape === 'tier') {
    main = `describeTier('${test.tier}', () => {\n${test.ids.map((id) => body(id, 2)).join('\n\n')}\n});`;
  } else if (test.shape === 'periodic') {
    main = `const periodic = process.env.EVALS_TIER === 'periodic';\n\ndescribe.runIf(periodic)('${name} ${test.slug}', () => {\n${test.ids.map((id) => body(id, 2)).join('\n\n')}\n});`;
  } else {
    main = test.ids.map((id) => body(id, 0)).join('\n\n');
  }
  return `${head.join('\n')}\n\n${main}\n`;
}

function fixtureText(plan, area, test) {
  const random = fileRandom(plan.seed, test.fixture);
  const lines = [`# ${area.name} ${test.slug}`];
  const count = random.int(3, 12);
  for (let i = 0; i < count; i++) {
    lines.push(`${random.pick(NOUNS).slice(0, 4)}-${i} ${random.int(0, 9)} ${random.pick(NOUNS)} ${random.pick(NOUNS)}${random.chance(0.3) ? ' #urgent' : ''}`);
  }
  return `${lines.join('\n')}\n`;
}

// ---------------------------------------------------------------------- maps

const SHARED_GLOBS = ['src/shared/**', 'test/helpers/shared/**'];

function idGlobs(area, test) {
  return ['...SHARED', `'src/${area.name}/**'`, `'test/helpers/${area.name}/**'`, `'${test.file}'`, `'${test.fixture}'`, `'skills/${area.skill}/**'`];
}

function mapFiles(plan, files) {
  files.set('test/helpers/maps/shared.ts', `/** The model client and the fixture reader: every eval reaches both. */
export const SHARED = [${SHARED_GLOBS.map(quote).join(', ')}];
`);
  const barrel = [];
  for (const group of plan.groups) {
    const areas = plan.areas.filter((area) => area.head === group);
    const G = group.toUpperCase();
    const touch = [];
    const tiers = [];
    for (const area of areas) {
      for (const test of area.paid) {
        for (const id of test.ids) {
          touch.push(`  '${id.id}': [${idGlobs(area, test).join(', ')}],`);
          tiers.push(`  '${id.id}': '${test.tier}',`);
        }
      }
    }
    if (touch.length === 0) continue;
    files.set(`test/helpers/maps/${group}.ts`, `// Selection map for the ${group} evals. Read statically: keep it literal.
import type { Tier } from '../eval.js';
import { SHARED } from './shared.js';

export const ${G}_TOUCHFILES: Record<string, string[]> = {
${touch.join('\n')}
};

export const ${G}_TIERS: Record<string, Tier> = {
${tiers.join('\n')}
};
`);
    barrel.push(G);
  }
  files.set('test/helpers/maps/index.ts', `${barrel.map((G) => `export { ${G}_TIERS, ${G}_TOUCHFILES } from './${G.toLowerCase()}.js';`).join('\n')}\n`);
  files.set('test/helpers/touchfiles.ts', `// Diff-based selection for the paid evals: an eval runs on a branch only when
// the diff touches one of its touchfiles or one of GLOBAL_TOUCHFILES.
import type { Tier } from './eval.js';
import {
${barrel.map((G) => `  ${G}_TIERS,\n  ${G}_TOUCHFILES,`).join('\n')}
} from './maps/index.js';

export const E2E_TOUCHFILES: Record<string, string[]> = {
${barrel.map((G) => `  ...${G}_TOUCHFILES,`).join('\n')}
};

export const E2E_TIERS: Record<string, Tier> = {
${barrel.map((G) => `  ...${G}_TIERS,`).join('\n')}
};

export const GLOBAL_TOUCHFILES: string[] = [
  'test/helpers/touchfiles.ts',
  'test/helpers/maps/**',
  'test/helpers/eval.ts',
  'test/helpers/run.ts',
  'test/helpers/store.ts',
];
`);
}

// -------------------------------------------------------------------- skills

function markdownTable(random, rows) {
  const out = ['| case | input | expected |', '|---|---|---|'];
  for (let i = 0; i < rows; i++) out.push(`| ${random.pick(QUALIFIERS)} | \`${random.pick(NOUNS)}\` | ${sentence(random, 4, 9)} |`);
  return out.join('\n');
}

function skillText(plan, skill, rev) {
  const random = fileRandom(plan.seed, `skills/${skill.name}/SKILL.md`);
  const areaRefs = skill.areas.slice(0, 6);
  const step2 = skill === plan.edits.editedSkill && rev === 2
    ? 'Read each record in full before ranking it; never rank a record you only saw in a summary.'
    : 'Read each record before ranking it.';
  const parts = [
    `---
name: ${skill.name}
description: ${sentence(random, 10, 20)}
allowed-tools: Read, Grep, Glob, Bash(git diff:*)
---

# ${cap(skill.name)}

${paragraph(random)}

## Steps

1. Collect the input the caller names. ${sentence(random)}
2. ${step2}
3. Follow [the checklist](references/${skill.refs[0].name}.md) for each record.
${skill.refs.slice(1).map((ref, i) => `${i + 4}. See [${ref.name}](references/${ref.name}.md). ${sentence(random)}`).join('\n')}

## Sources

${areaRefs.map((area) => `- \`src/${area}/rules.ts\` ranks ${area.replaceAll('-', ' ')} records; \`src/${area}/format.ts\` writes them.`).join('\n')}
`,
  ];
  let length = parts[0].length;
  let n = 1;
  while (length < skill.bytes - 600) {
    const section = [`## Case ${n}: ${random.pick(QUALIFIERS)}`, '', paragraph(random, random.int(3, 7))];
    if (random.chance(0.5)) section.push('', markdownTable(random, random.int(3, 8)));
    if (random.chance(0.4)) {
      section.push('', '```text', `${random.pick(NOUNS).slice(0, 4)}-1 ${random.int(1, 9)} ${random.pick(NOUNS)} #urgent`, `${random.pick(NOUNS).slice(0, 4)}-2 ${random.int(1, 9)} ${random.pick(NOUNS)}`, '```');
    }
    if (random.chance(0.5)) {
      section.push('');
      const items = random.int(2, 6);
      for (let i = 0; i < items; i++) section.push(`- ${sentence(random, 5, 12)}`);
    }
    const text = `${section.join('\n')}\n`;
    parts.push(text);
    length += text.length + 1;
    n++;
  }
  parts.push(`## Done when

- Every record was read and ranked.
- The report ends with the number of records per severity.
`);
  return parts.join('\n');
}

function referenceText(plan, skill, ref) {
  const path = `skills/${skill.name}/references/${ref.name}.md`;
  const random = fileRandom(plan.seed, path);
  const parts = [`# ${cap(ref.name.replaceAll('-', ' '))}\n\n${paragraph(random)}\n`];
  let length = parts[0].length;
  let n = 1;
  while (length < ref.bytes) {
    const text = `## ${cap(random.pick(VERBS))} ${random.pick(NOUNS)} (${n})\n\n${paragraph(random, random.int(2, 5))}\n\n${random.chance(0.4) ? `${markdownTable(random, random.int(2, 5))}\n` : `- ${sentence(random)}\n- ${sentence(random)}\n`}`;
    parts.push(text);
    length += text.length + 1;
    n++;
  }
  return parts.join('\n');
}

// ------------------------------------------------------------------ the repo

function rootFiles(plan, files) {
  files.set('package.json', `${JSON.stringify(
    {
      name: `synthetic-harness-${plan.size}`,
      version: '1.0.0',
      private: true,
      type: 'module',
      scripts: {
        test: "vitest run --exclude 'test/evals/**'",
        'evals:gate': 'EVALS=1 EVALS_TIER=gate vitest run test/evals',
        'evals:periodic': 'EVALS=1 EVALS_TIER=periodic RUN_ALL=1 vitest run test/evals',
        'lint:harness': 'tripwire check',
      },
      dependencies: { '@anthropic-ai/sdk': '^0.39.0' },
      devDependencies: { '@types/node': '^22.14.0', typescript: '^5.8.3', vitest: '^3.1.1' },
    },
    null,
    2,
  )}\n`);
  files.set('tsconfig.json', `${JSON.stringify(
    {
      compilerOptions: {
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'bundler',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
        paths: { '@src/*': ['./src/*'], '@helpers/*': ['./test/helpers/*'] },
      },
      include: ['src', 'test'],
    },
    null,
    2,
  )}\n`);
  files.set('.gitignore', 'node_modules/\n.evals/\n');
  files.set('README.md', `# synthetic harness (${plan.size} test files)

Generated by tripwire's \`bench/generate.mjs\` (size ${plan.size}, seed ${plan.seed}).
Free tests live under \`test/<area>/\`, paid evals under \`test/evals/<area>/\`;
\`test/helpers/touchfiles.ts\` selects the evals a diff touches.
`);
  const config = {
    tests: {
      include: ['test/**/*.test.ts'],
      paid: ['test/evals/**/*.test.ts'],
      ids: [
        { call: 'runEval', arg: 0, property: 'name' },
        { call: 'describeIfSelected', arg: 0 },
      ],
      selfGate: [{ env: 'EVALS_TIER' }, { call: 'describeTier', arg: 0 }],
    },
    paid: { modules: [], commands: [], hosts: [], env: [] },
    maps: {
      touchfiles: [{ file: 'test/helpers/touchfiles.ts', export: 'E2E_TOUCHFILES' }],
      tiers: { file: 'test/helpers/touchfiles.ts', export: 'E2E_TIERS', values: ['gate', 'periodic'] },
      globals: { file: 'test/helpers/touchfiles.ts', export: 'GLOBAL_TOUCHFILES', require: ['test/helpers/run.ts', 'test/helpers/store.ts'] },
    },
    shipped: { include: ['skills/**/*.md', 'src/**/*.ts'] },
    removed: [{ id: 'legacy-grader', tokens: ['LEGACY_GRADER_MODE'], why: 'Graders always call the judge model; the offline grader mode is gone.' }],
    frozen: '.tripwire/frozen.json',
  };
  files.set('tripwire.config.json', `${JSON.stringify(config, null, 2)}\n`);
}

/** Every file of the repository at revision 1 or 2, path → text. */
export function renderRepository(plan, rev) {
  const files = new Map();
  rootFiles(plan, files);
  sharedSrcFiles(plan, files);
  sharedHelperFiles(files);
  mapFiles(plan, files);
  for (const area of plan.areas) {
    srcFiles(plan, area, rev, files);
    areaHelperFiles(plan, area, rev, files);
    for (const test of area.free) {
      if (rev === 2 && test === plan.edits.renamedFrom) {
        const renamed = test.file.replace(/\.test\.ts$/, '-cases.test.ts');
        files.set(renamed, freeTest(plan, area, test, test.file, 1));
        continue;
      }
      files.set(test.file, freeTest(plan, area, test, test.file, 0));
    }
    for (const test of area.paid) {
      files.set(test.file, paidTest(plan, area, test, rev));
      files.set(test.fixture, fixtureText(plan, area, test));
    }
    if (rev === 2 && area === plan.edits.addedTest) {
      const added = { slug: 'added-cases', file: `test/${area.name}/added-cases.test.ts`, kind: 'plain', tests: 4 };
      files.set(added.file, freeTest(plan, area, added, added.file, 0));
    }
  }
  for (const skill of plan.skills) {
    files.set(`skills/${skill.name}/SKILL.md`, skillText(plan, skill, rev));
    for (const ref of skill.refs) files.set(`skills/${skill.name}/references/${ref.name}.md`, referenceText(plan, skill, ref));
  }
  return files;
}

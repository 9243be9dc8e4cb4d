// @vitest-environment jsdom
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The report is read back the way GitHub reads it: Markdown through a real CommonMark/GFM
// parser (markdown-it) into a DOM (jsdom), and each ```mermaid block through Mermaid's own
// parser. Mermaid needs a DOM to load, hence this file's environment.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import MarkdownIt from 'markdown-it';
import mermaid from 'mermaid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/engine/index.js';
import { markdown } from '../../src/report/markdown.js';
import type { ReportOptions } from '../../src/report/index.js';
import type { CheckResult, Finding } from '../../src/types.js';
import { PACKAGE_ROOT } from '../../src/version.js';
import { makeGitRepo } from '../support/repo.js';
import { checkResult, reportOptions } from './check-result.js';

const md = new MarkdownIt({ html: true });

/** The report as GitHub would show it: a DOM of the rendered HTML (raw HTML allowed, as GitHub allows some). */
function render(text: string): Document {
  return new DOMParser().parseFromString(md.render(text), 'text/html');
}

/** A cell's text, each `<br>` read as the line break it draws. */
function cellText(cell: Element): string {
  const copy = cell.cloneNode(true);
  if (!(copy instanceof Element)) throw new Error('not an element');
  for (const br of copy.querySelectorAll('br')) br.replaceWith('\n');
  return copy.textContent ?? '';
}

function tableRows(doc: Document, index: number): string[][] {
  const table = doc.querySelectorAll('table')[index];
  if (!table) throw new Error(`no table ${index}`);
  return [...table.querySelectorAll('tr')].map((row) => [...row.querySelectorAll('th, td')].map(cellText));
}

/** The fenced ```mermaid blocks, as markdown-it's parser finds them. */
function mermaidBlocks(text: string): string[] {
  return md.parse(text, {}).flatMap((token) => (token.type === 'fence' && token.info.trim() === 'mermaid' ? [token.content] : []));
}

interface FlowVertex {
  id: string;
  text: string;
}

function isFlowDb(db: unknown): db is { getVertices(): Map<string, FlowVertex>; getEdges(): { start: string; end: string }[] } {
  return typeof db === 'object' && db !== null && 'getVertices' in db && 'getEdges' in db;
}

/** Mermaid's parse must accept the block; then its flowchart's node labels as drawn, and its edges. */
async function parseFlowchart(block: string): Promise<{ labels: string[]; edges: string[] }> {
  expect(await mermaid.parse(block)).toEqual({ diagramType: 'flowchart-v2', config: {} });
  const diagram = await mermaid.mermaidAPI.getDiagramFromText(block);
  const db: unknown = diagram.db;
  if (!isFlowDb(db)) throw new Error('not a flowchart');
  const decode = document.createElement('textarea');
  const labels = [...db.getVertices().values()].map((vertex) => {
    // Mermaid keeps `#code;` entities in its own escape until it draws; this is what it draws.
    decode.innerHTML = vertex.text.replace(/ﬂ°°/g, '&#').replace(/ﬂ°/g, '&').replace(/¶ß/g, ';');
    return decode.value;
  });
  return { labels, edges: db.getEdges().map((edge) => `${edge.start}->${edge.end}`) };
}

async function checkAndReport(cwd: string, repoRoot?: string): Promise<string> {
  const result = await run({ cwd, cache: false, coverage: true });
  const options: ReportOptions = {
    cwd: result.root,
    ...(repoRoot !== undefined && { repoRoot }),
    color: false,
    toolVersion: '0.1.0',
    rules: result.rulesRun.map((rule) => ({ id: rule.id, description: rule.meta.description, url: rule.meta.url })),
  };
  return markdown(result, options);
}

describe('markdown, on the demo harness (one violation per contract)', () => {
  let report = '';
  let doc: Document;
  beforeAll(async () => {
    report = await checkAndReport(join(PACKAGE_ROOT, 'fixtures/demo'), PACKAGE_ROOT);
    doc = render(report);
  });

  it('heads the report with the verdict and the counts', () => {
    expect(doc.querySelector('h2')?.textContent).toBe('❌ tripwire found errors: 6 errors, 1 warning');
    expect(report).toMatch(/^## ❌ tripwire found errors: 6 errors, 1 warning\n\n28 files · 8 rules · \d+ ms\n/);
  });

  it('has one section per rule, in rule id order, each linked to its doc', () => {
    const sections = [...doc.querySelectorAll('h3')].map((h3) => [h3.textContent, h3.querySelector('a')?.getAttribute('href') ?? null]);
    const doc_ = (id: string): string => `https://github.com/tripwire-lint/tripwire/blob/main/rules/${id}.md`;
    expect(sections).toEqual([
      ['global-touchfiles-present · 1 error', doc_('global-touchfiles-present')],
      ['no-dangling-references · 1 warning', doc_('no-dangling-references')],
      ['no-paid-calls-in-free-tests · 1 error', doc_('no-paid-calls-in-free-tests')],
      ['no-weakened-frozen-tests · 1 error', doc_('no-weakened-frozen-tests')],
      ['paid-ci-lanes · 1 error', doc_('paid-ci-lanes')],
      ['tiers-cover-paid-tests · 1 error', doc_('tiers-cover-paid-tests')],
      ['touchfiles-cover-paid-tests · 1 error', doc_('touchfiles-cover-paid-tests')],
      ['Paid tests in the selection maps', null],
    ]);
  });

  it('lists each finding with severity, file:line from the git top level, message id and message', () => {
    const findings = [0, 1, 2, 3, 4, 5, 6].map((index) => tableRows(doc, index));
    expect(findings.map((rows) => rows[0])).toEqual(Array.from({ length: 7 }, () => ['severity', 'location', 'message id', 'message']));
    expect(findings.map((rows) => rows.slice(1).map((row) => row.slice(0, 3)))).toEqual([
      [['error', 'fixtures/demo/test/helpers/touchfiles.ts:39', 'mapFileNotGlobal']],
      [['warning', 'fixtures/demo/skills/review/SKILL.md:32', 'removedToken']],
      [['error', 'fixtures/demo/test/oracle.test.ts:3', 'transitivePaidCall']],
      [['error', 'fixtures/demo/test/findings.test.ts:16', 'frozenTestSkipped']],
      [['error', 'fixtures/demo/.github/workflows/ci.yml:29', 'untrustedPaidStep']],
      [['error', 'fixtures/demo/test/helpers/touchfiles.ts:36', 'orphanTier']],
      [['error', 'fixtures/demo/test/e2e-quality.test.ts:17', 'missingTouchfileEntry']],
    ]);
    // The message renders as written (`>` and `@` are escaped in the source, not in what a reader sees), its related place under it.
    expect(findings[3]?.[1]?.[3]).toBe(
      "frozen test 'parseFindings > keeps the highest severity when a location repeats' is skipped: a frozen test must run as pinned. Fix what makes it fail instead; only its owner (@ilya) unfreezes it.\n" +
        '↳ fixtures/demo/.tripwire/frozen.json:11 pinned by @ilya: Flaked once when the model repeated a location; the fix belongs in parseFindings, not in this test.',
    );
  });

  it('draws the chain from the free test to the SDK as a Mermaid flowchart that Mermaid parses', async () => {
    const blocks = mermaidBlocks(report);
    expect(blocks).toHaveLength(1);
    expect(await parseFlowchart(blocks[0] ?? '')).toEqual({
      labels: [
        'fixtures/demo/test/oracle.test.ts:3',
        'compareToOracle (fixtures/demo/test/helpers/oracle.ts:18)',
        'judgeSameIssue (fixtures/demo/test/helpers/judge.ts:17)',
        'ask (fixtures/demo/test/helpers/judge.ts:6)',
        '@anthropic-ai/sdk',
      ],
      edges: ['n0->n1', 'n1->n2', 'n2->n3', 'n3->n4'],
    });
  });

  it('tables the paid test ids against the touchfile and tier maps', () => {
    expect(doc.querySelector('h3:last-of-type + p')?.textContent).toBe('3 of 4 paid test ids have a touchfile entry; 4 of 4 have a tier.');
    expect(tableRows(doc, 7)).toEqual([
      ['paid test id', 'declared at', 'touchfile entry (E2E_TOUCHFILES)', 'tier (E2E_TIERS)'],
      ['review-basic', 'fixtures/demo/test/e2e-review.test.ts:6', '✅ covered', '✅ gate'],
      ['review-cost-budget', 'fixtures/demo/test/e2e-quality.test.ts:17', '❌ uncovered', '✅ periodic'],
      ['review-quality', 'fixtures/demo/test/e2e-quality.test.ts:9', '✅ covered', '✅ periodic'],
      ['review-security', 'fixtures/demo/test/e2e-review.test.ts:16', '✅ covered', '✅ gate'],
    ]);
  });
});

// File names and test ids are chosen by whoever writes the pull request.
const HOSTILE_TEST = 'test/unit/a|b`<img src=x onerror=alert(1)>\n# hi [x](y) @org _u_.test.ts';
const HOSTILE_HELPER = 'test/helpers/h|`<b>"#1;@team [l](u) $m$ *e* & ~s~.ts';
const HOSTILE_ID = 'id|`<i>x</i>"#@y';

describe('markdown, on a repository whose file names and test ids are hostile', () => {
  let dir = '';
  let report = '';
  let doc: Document;
  beforeAll(async () => {
    dir = makeGitRepo({
      'tripwire.config.json': JSON.stringify({
        tests: { include: ['test/**/*.test.ts'], paid: ['test/evals/**/*.test.ts'], ids: [{ call: 'runEval', arg: 0, property: 'name' }] },
        maps: { touchfiles: { file: 'test/helpers/touchfiles.ts', export: 'E2E_TOUCHFILES' }, tiers: { file: 'test/helpers/touchfiles.ts', export: 'E2E_TIERS' } },
        rules: { 'global-touchfiles-present': 'off', 'touchfiles-cover-paid-tests': 'off' },
      }),
      'test/helpers/touchfiles.ts': `export const E2E_TOUCHFILES = {\n  'review-basic': ['test/evals/review.test.ts', 'test/helpers/run.ts'],\n};\n\nexport const E2E_TIERS = {\n  'review-basic': 'gate',\n};\n`,
      'test/helpers/run.ts': 'export function runEval(options: { name: string }) {\n  return options.name;\n}\n',
      'test/evals/review.test.ts': `import { runEval } from '../helpers/run.js';\nrunEval({ name: 'review-basic' });\nrunEval({ name: 'id|\`<i>x</i>"#@y' });\n`,
      [HOSTILE_HELPER]: `import OpenAI from 'openai';\nexport function ask() {\n  return new OpenAI().chat.completions.create({ model: 'm', messages: [] });\n}\n`,
      [HOSTILE_TEST]: `import { test } from 'vitest';\nimport { ask } from '../helpers/h|\`<b>"#1;@team [l](u) $m$ *e* & ~s~.js';\ntest('asks', () => ask());\n`,
    });
    report = await checkAndReport(dir);
    doc = render(report);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('injects no HTML element, link, image or emphasis', () => {
    expect(doc.querySelectorAll('img, b, i, em, strong, del, h1').length).toBe(0);
    expect([...doc.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual([
      'https://github.com/tripwire-lint/tripwire/blob/main/rules/no-paid-calls-in-free-tests.md',
      'https://github.com/tripwire-lint/tripwire/blob/main/rules/tiers-cover-paid-tests.md',
    ]);
    // An @-mention in a pull request comment would notify whoever it names.
    expect(report).not.toContain('@org');
    expect(report).not.toContain('@team');
  });

  it('keeps each finding on one table row of four cells, the hostile path shown as it is', () => {
    const rows = tableRows(doc, 0);
    expect(rows).toHaveLength(2);
    expect(rows[1]?.slice(0, 3)).toEqual(['error', `${HOSTILE_TEST}:2`, 'transitivePaidCall']);
    expect(rows[1]?.[3]).toContain(`ask (${HOSTILE_HELPER}) → openai`);
    expect(tableRows(doc, 1).map((row) => row.slice(0, 3))).toEqual([
      ['severity', 'location', 'message id'],
      ['error', 'test/evals/review.test.ts:3', 'paidIdWithoutTier'],
    ]);
    expect(tableRows(doc, 1)[1]?.[3]).toContain(`'${HOSTILE_ID}'`);
  });

  it('shows the hostile test id in the coverage table, one row, uncovered by both maps', () => {
    expect(tableRows(doc, 2)).toEqual([
      ['paid test id', 'declared at', 'touchfile entry (E2E_TOUCHFILES)', 'tier (E2E_TIERS)'],
      [HOSTILE_ID, 'test/evals/review.test.ts:3', '❌ uncovered', '❌ uncovered'],
      ['review-basic', 'test/evals/review.test.ts:2', '✅ covered', '✅ gate'],
    ]);
  });

  it('draws the chain through the hostile names as a flowchart Mermaid parses, each label as the file is named', async () => {
    const blocks = mermaidBlocks(report);
    expect(blocks).toHaveLength(1);
    expect(await parseFlowchart(blocks[0] ?? '')).toEqual({
      labels: [`${HOSTILE_TEST.replace('\n', ' ')}:2`, `ask (${HOSTILE_HELPER}:2)`, 'openai'],
      edges: ['n0->n1', 'n1->n2'],
    });
  });
});

function chainFinding(index: number): Finding {
  const file = `test/unit/${'|`<x>'.repeat(50)}-${index}.test.ts`;
  return {
    ruleId: 'no-paid-calls-in-free-tests',
    messageId: 'transitivePaidCall',
    severity: 'error',
    file,
    line: 1,
    column: 1,
    message: `free test reaches a paid call: ${'→ step '.repeat(400)}`,
    chain: Array.from({ length: 30 }, (_, step) => ({ label: `step ${step} (${file})`, file, line: step + 1 })),
  };
}

describe('markdown, bounded for a step summary (GitHub caps one at 1 MiB)', () => {
  const result: CheckResult = { findings: Array.from({ length: 3000 }, (_, index) => chainFinding(index)), summary: { errors: 3000, warnings: 0, files: 3000, rules: 7, ms: 1 } };
  const report = markdown(result, { cwd: '/repo', rules: [] });

  it('stays far below 1 MiB and says how many findings it left out', () => {
    expect(Buffer.byteLength(report)).toBeLessThan(512 * 1024);
    expect(tableRows(render(report), 0)).toHaveLength(101);
    expect(report).toContain('\n… and 2900 more no-paid-calls-in-free-tests findings: run `tripwire check` for all of them.\n');
  });

  it('draws at most 10 charts, each long chain cut in its middle, and every one parses', async () => {
    const blocks = mermaidBlocks(report);
    expect(blocks).toHaveLength(10);
    for (const block of blocks.slice(1)) expect((await parseFlowchart(block)).labels).toHaveLength(11);
    const { labels, edges } = await parseFlowchart(blocks[0] ?? '');
    expect(labels).toHaveLength(11);
    expect(labels[5]).toBe('… 20 more steps');
    expect(labels[10]?.startsWith('step 29 (test/unit/|`<x>')).toBe(true);
    expect(edges).toHaveLength(10);
  });
});

describe('markdown, bounded when every character of every name and message must be escaped', () => {
  const hostile = (length: number): string => '&@#<|'.repeat(length / 5);
  const finding = (index: number): Finding => ({
    ruleId: 'tiers-cover-paid-tests',
    messageId: 'paidIdWithoutTier',
    severity: 'error',
    file: `${hostile(400)}${index}.ts`,
    line: 1,
    column: 1,
    message: hostile(4000),
    related: Array.from({ length: 10 }, () => ({ file: hostile(400), line: 1, message: hostile(400) })),
  });
  const ids = Array.from({ length: 5000 }, (_, index) => ({ id: `${hostile(400)}${index}`, file: hostile(400), line: 1, touchfile: false, hasTier: true, tier: hostile(400) }));
  const result: CheckResult = {
    findings: Array.from({ length: 3000 }, (_, index) => finding(index)),
    summary: { errors: 3000, warnings: 0, files: 1, rules: 7, ms: 1 },
    coverage: { touchfileMaps: ['E2E_TOUCHFILES'], tierMap: 'E2E_TIERS', ids },
  };
  const report = markdown(result, { cwd: '/repo', rules: [] });

  it('stays below 1 MiB, listing what fits and counting the rest', () => {
    expect(Buffer.byteLength(report)).toBeLessThan(1024 * 1024);
    const doc = render(report);
    const listed = tableRows(doc, 0).length - 1;
    const covered = tableRows(doc, 1).length - 1;
    expect(listed).toBeGreaterThan(0);
    expect(covered).toBeGreaterThan(0);
    expect(report).toContain(`\n… and ${3000 - listed} more tiers-cover-paid-tests findings: run \`tripwire check\` for all of them.\n`);
    expect(report).toContain(`\n… and ${5000 - covered} more paid test ids.\n`);
    // Each listed cell still renders as the text it stands for, cut with an ellipsis.
    expect(tableRows(doc, 0)[1]?.[1]).toBe(`${'&@#<|'.repeat(40).slice(0, 199)}…:1`);
  });
});

describe('markdown, when there is nothing to report', () => {
  it('says so in the heading, and that no map is configured when none is', () => {
    const report = markdown({ findings: [], summary: { errors: 0, warnings: 0, files: 3, rules: 7, ms: 2 }, coverage: { touchfileMaps: [], tierMap: null, ids: [] } }, { cwd: '/repo', rules: [] });
    expect(report).toBe(
      '## ✅ tripwire found nothing to fix: 0 errors, 0 warnings\n\n3 files · 7 rules · 2 ms\n\n### Paid tests in the selection maps\n\nNo touchfile or tier map is configured (`maps`): no diff selects a paid test, and each runs on every change or never.\n',
    );
  });
});

describe('markdown, on the shared reporter fixture', () => {
  it('renders it as this snapshot: related places under the message, a multi-line message on one row', () => {
    expect(markdown(checkResult, reportOptions)).toMatchInlineSnapshot(`
      "## ❌ tripwire found errors: 2 errors, 1 warning

      312 files · 7 rules · 184 ms

      ### [no-paid-calls-in-free-tests](https://example.test/rules/no-paid-calls-in-free-tests) · 1 warning

      | severity | location | message id | message |
      | --- | --- | --- | --- |
      | warning | test/unit/pricing.test.ts:41 | paidCall | Calls openai.chat: 100% of runs hit a paid API<br>Move the call behind the paid tag, or mock it |

      ### [tiers-cover-paid-tests](https://example.test/rules/tiers-cover-paid-tests) · 1 error

      | severity | location | message id | message |
      | --- | --- | --- | --- |
      | error | test/helpers/touchfiles.ts:12 | paidIdWithoutTier | Paid test "checkout flow" is in no tier; add it to gate or periodic<br>↳ test/e2e/checkout.paid.test.ts:4 paid test declared here<br>↳ tiers.json:2 |

      ### [touchfiles-cover-paid-tests](https://example.test/rules/touchfiles-cover-paid-tests) · 1 error

      | severity | location | message id | message |
      | --- | --- | --- | --- |
      | error | test/helpers/touchfiles.ts:3 | missingTouchfileEntry | Touchfile entry "src/llm/\\*\\*" matches no file |
      "
    `);
  });
});

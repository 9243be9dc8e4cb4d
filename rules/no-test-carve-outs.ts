import * as z from 'zod';
import type { FileFacts } from '../src/facts/types.js';
import type { RepoModel } from '../src/model/model.js';
import { SHELL_LANGUAGES } from '../src/vocab/languages.js';
import { envUses, harnessKnobs, hasLexicalEnv, shippedFiles, testVocabulary, vocabularyDigest, type EnvUse, type Vocabulary } from '../src/analysis/seams.js';
import { RUNNER_ENV } from '../src/vocab/env.js';
import { envMentions, isAllowed, pathTokens, subLoc, testPathOf, textRuns, tokenOffsets, type ScanRun } from '../src/analysis/text-scan.js';
import { isMarkdownFile } from '../src/util/file-kinds.js';
import { isScriptFile } from '../src/util/file-kinds.js';
import { createRule, type MessageKind, type RuleFinding } from '../src/rule.js';
import type { Loc, Related } from '../src/types.js';
import { firstPerFile, timesNamed } from './shared/mentions.js';

/** Env vars a test runner sets to 'test': `NODE_ENV` (Jest, Vitest), `MODE` (Vitest's `import.meta.env.MODE`), `BABEL_ENV`. */
const MODE_ENV = new Set(['NODE_ENV', 'MODE', 'BABEL_ENV']);
const FIX = 'put the seam in the test environment (a stub first on PATH, a fixture) instead';

const messages = {
  runnerDetection: { description: 'Shipped code branches on test-runner detection (`NODE_ENV === \'test\'`, `VITEST`, `JEST_WORKER_ID`, a runner global).' },
  testOnlyEnvVar: { description: 'Shipped code or a shipped script reads an env var that only the tests and fixtures use.' },
  // A string equal to the name is evidence by name only: the read it may feed (`getEnv('X')`, a list of names) is not seen.
  testOnlyEnvString: { description: 'A string in shipped code names an env var that only the tests and fixtures use (a name match: the read is not seen).', heuristic: 'off' },
  testOnlyEnvMention: { description: 'Shipped prose or Markdown names an env var that only the tests and fixtures use; one finding per file and variable.', heuristic: true },
  testOnlyPath: { description: 'Shipped code or a shipped script names a path inside the test roots or fixtures.' },
  testOnlyPathMention: { description: 'Shipped prose or Markdown names a path inside the test roots or fixtures; one finding per file and path.', heuristic: true },
  testOnlyTokenMention: { description: 'Shipped text names a word declared test-only in shipped.testTokens; one finding per file and word.', heuristic: true },
  testOnlyNameMention: { description: 'Shipped text names a stub executable or a fixture specimen of the tests by its name alone (a distinctive name nothing outside the tests bears); one finding per file and name.', heuristic: true },
  // A name is evidence of intent, not of a seam: a warning on the whole tree, an error where a diff adds the read.
  harnessKnob: { description: 'Shipped code or a shipped script reads an env var named like a harness knob (a TEST, EVAL, E2E, FIXTURE, HARNESS, MOCK, STUB or FAKE segment) that nothing sets or documents as a product setting, and no test sets yet.', heuristic: true },
  newHarnessKnob: { description: 'With --base: the diff adds a read of such a harness knob to a shipped file.' },
} satisfies Record<string, MessageKind>;

export type MessageIds = keyof typeof messages;

export default createRule({
  id: 'no-test-carve-outs',
  meta: {
    description: 'Shipped artifacts name no env var, path, stub or word that exists only for the tests, and shipped code never branches on test-runner detection.',
    languages: ['js/js', 'markdown/commonmark', 'markdown/gfm'],
    recommended: true,
    messages,
  },
  options: z.strictObject({}),
  check(model, _options, units) {
    const shipped = shippedFiles(model);
    if (shipped.length === 0) return [];
    const vocabulary = testVocabulary(model);
    // What every file's findings are given besides what they read: the vocabulary, derived from every test.
    const context = vocabularyDigest(vocabulary);
    const found = new Map<string, Found>();
    const keep = (item: Found): void => {
      const key = `${item.finding.file}:${item.finding.loc.line}:${item.finding.loc.column}`;
      if (!found.has(key)) found.set(key, item);
    };
    for (const file of shipped) {
      for (const item of units.of(file, () => fileFindings(model, file, vocabulary), context)) keep(item);
    }
    const report = reporter(model, keep);
    for (const [name, reads] of harnessKnobs(model)) {
      for (const read of reads) {
        const added = addedByDiff(model, read.file, name);
        report(read.file, name, read.loc, added ? 'newHarnessKnob' : 'harnessKnob', knobMessage(name, added));
      }
    }
    return onePerMention([...found.values()]);
  },
});

/** What `report` keeps: a finding with the token it names, unless the configuration allows the token in that file. */
function reporter(model: RepoModel, keep: (item: Found) => void): Report {
  return (file, token, loc, messageId, message, related) => {
    if (isAllowed(model, token, file)) return;
    keep({ token, finding: { messageId, file, loc, message, ...(related && related.length > 0 && { related }) } });
  };
}

/** One shipped file's findings, the first at each place. */
function fileFindings(model: RepoModel, file: string, vocabulary: Vocabulary): Found[] {
  const found = new Map<string, Found>();
  const report = reporter(model, (item) => {
    const key = `${item.finding.loc.line}:${item.finding.loc.column}`;
    if (!found.has(key)) found.set(key, item);
  });
  if (isScriptFile(file)) {
    const facts = model.facts(file);
    if (facts) scriptFindings(model, file, facts, vocabulary, report);
    return [...found.values()];
  }
  // A shell script or code block says which of its variables come from the environment; prose only names them.
  const lexical = !isMarkdownFile(file) && hasLexicalEnv(file);
  for (const run of textRuns(model, file) ?? []) runFindings(model, file, run, vocabulary, report, lexical);
  for (const use of envUses(model, file)) {
    if (use.op !== 'read') continue;
    if (!isMarkdownFile(file) && RUNNER_ENV.has(use.name)) report(file, use.name, use.loc, 'runnerDetection', runnerMessage(`$${use.name}`));
    const uses = vocabulary.env.get(use.name);
    if (uses) {
      const { message, related } = envMessage(use.name, uses, lexical ? 'reads' : 'names');
      report(file, use.name, use.loc, lexical ? 'testOnlyEnvVar' : 'testOnlyEnvMention', message, related);
    }
  }
  return [...found.values()];
}

/** With --base: whether the diff brought `name` into `file` (a new file, or one whose text at the base never named it). */
function addedByDiff(model: RepoModel, file: string, name: string): boolean {
  const change = model.diff?.changes.find((c) => c.path === file);
  if (!change || change.status === 'deleted') return false;
  if (change.status === 'added') return true;
  const old = model.oldText(change.oldPath ?? change.path);
  return old !== null && !new RegExp(`\\b${name}\\b`).test(old);
}

function knobMessage(name: string, added: boolean): string {
  return `${added ? 'this diff adds a read of' : 'reads'} ${name}, an env var named like a harness knob that nothing sets or documents as a setting of the product and no test sets yet: a branch for the harness is a branch any caller can take. Document it as a user setting, remove it and ${FIX}, or list it in shipped.allow with a reason.`;
}

interface Found {
  token: string;
  finding: RuleFinding<MessageIds>;
}

type Report = (file: string, token: string, loc: Loc, messageId: MessageIds, message: string, related?: Related[]) => void;

/** A mention repeated in one file is one finding at its first place; what code reads stays one finding per read. */
function onePerMention(found: readonly Found[]): RuleFinding<MessageIds>[] {
  const isMention = (item: Found): boolean => 'heuristic' in messages[item.finding.messageId];
  const mentions = firstPerFile(
    found.filter(isMention).map((item) => ({ ...item, file: item.finding.file, loc: item.finding.loc })),
    (item) => `${item.finding.messageId}\0${item.token}`,
  ).map(({ first, count }) => ({ ...first.finding, message: `${first.finding.message}${timesNamed(count)}` }));
  return [...found.filter((item) => !isMention(item)).map((item) => item.finding), ...mentions];
}

function definedAt(uses: readonly EnvUse[]): { where: string; related: Related[] } {
  const first = uses[0];
  const where = first ? `${first.op === 'set' ? 'set' : 'read'} at ${first.file}:${first.loc.line}` : 'the tests';
  return { where, related: uses.slice(0, 3).map((use) => ({ file: use.file, line: use.loc.line, column: use.loc.column, message: `${use.op === 'set' ? 'set' : 'read'} here` })) };
}

function envMessage(name: string, uses: readonly EnvUse[], verb: string): { message: string; related: Related[] } {
  const { where, related } = definedAt(uses);
  return {
    message: `${verb} ${name}, an env var that only the tests and fixtures use (${where}): anyone who sets it gets the path the harness gets. Do not honour it in what ships; ${FIX}, or list it in shipped.allow with a reason.`,
    related,
  };
}

function pathMessage(written: string, path: string): string {
  const same = written.replace(/^\.\//, '').replace(/\/+$/, '') === path;
  return `names ${written}${same ? '' : ` (${path})`}, a path inside the test roots or fixtures: what ships must not depend on the harness. Remove it and ${FIX}, or list it in shipped.allow with a reason.`;
}

function runnerMessage(what: string): string {
  return `branches on test-runner detection (${what}): shipped code must behave the same under test. Inject the dependency the test needs to replace; an import.meta.vitest block is fine, the bundler strips it.`;
}

function runFindings(model: RepoModel, file: string, run: ScanRun, vocabulary: Vocabulary, report: Report, lexical: boolean): void {
  const script = lexical || (run.fence !== undefined && SHELL_LANGUAGES.has(run.fence.lang));
  for (const { word, index } of script ? [] : envMentions(run.text)) {
    const uses = vocabulary.env.get(word);
    if (!uses) continue;
    const { message, related } = envMessage(word, uses, 'names');
    report(file, word, subLoc(run.loc, index, word.length), 'testOnlyEnvMention', message, related);
  }
  const targets = run.where === 'link' ? [{ token: run.text.replace(/[#?].*$/, ''), index: 0 }] : pathTokens(run.text);
  const guards = model.testFileSet();
  for (const { token, index } of targets) {
    if (token === '') continue;
    const path = testPathOf(model, token, file);
    // Text naming the test that guards it documents the contract; a seam is a fixture, stub or helper it would use.
    if (path !== null && !guards.has(path)) report(file, token, subLoc(run.loc, index, token.length), lexical ? 'testOnlyPath' : 'testOnlyPathMention', pathMessage(token, path));
  }
  // A link target is a path or an anchor: `#degraded-mode` names the heading, not a specimen that shares its name.
  for (const [name, where] of run.where === 'link' ? [] : vocabulary.names) {
    for (const index of tokenOffsets(run.text, name)) {
      // Inside a path, the path is the reference (reported as such when it is the tests').
      if (run.text[index - 1] === '/' || run.text[index + name.length] === '/') continue;
      report(file, name, subLoc(run.loc, index, name.length), 'testOnlyNameMention', `names '${name}', ${where.includes('/bin/') || where.startsWith('bin/') ? 'a stub executable' : 'a fixture specimen'} of the tests (${where}) and nothing outside them: what ships must not know the harness's cases. ${FIX[0]?.toUpperCase() ?? ''}${FIX.slice(1)}, or list it in shipped.allow with a reason.`);
    }
  }
  for (const token of vocabulary.tokens) {
    for (const index of tokenOffsets(run.text, token)) {
      report(file, token, subLoc(run.loc, index, token.length), 'testOnlyTokenMention', `names '${token}', declared test-only in shipped.testTokens: ${FIX}.`);
    }
  }
}

function scriptFindings(model: RepoModel, file: string, facts: FileFacts, vocabulary: Vocabulary, report: Report): void {
  for (const compare of facts.envCompares) {
    if (MODE_ENV.has(compare.name) && compare.value === 'test') report(file, compare.name, compare.loc, 'runnerDetection', runnerMessage(`${compare.name} === 'test'`));
  }
  for (const probe of facts.testProbes) {
    if (probe.via === 'typeof') report(file, probe.name, probe.loc, 'runnerDetection', runnerMessage(`typeof ${probe.name}`));
    else if (probe.via === 'global') report(file, probe.name, probe.loc, 'runnerDetection', runnerMessage(probe.name));
    else if (RUNNER_ENV.has(probe.name)) report(file, probe.name, probe.loc, 'runnerDetection', runnerMessage(`'${probe.name}' in env`));
    else {
      const uses = vocabulary.env.get(probe.name);
      if (uses) {
        const { message, related } = envMessage(probe.name, uses, 'reads');
        report(file, probe.name, probe.loc, 'testOnlyEnvVar', message, related);
      }
    }
  }
  const written = new Set(facts.envWrites.map((write) => `${write.loc.line}:${write.loc.column}`));
  for (const unit of facts.units) {
    for (const site of unit.sites) {
      if (site.kind !== 'env' || written.has(`${site.loc.line}:${site.loc.column}`)) continue;
      if (RUNNER_ENV.has(site.name)) {
        report(file, site.name, site.loc, 'runnerDetection', runnerMessage(site.name));
        continue;
      }
      const uses = vocabulary.env.get(site.name);
      if (uses) {
        const { message, related } = envMessage(site.name, uses, 'reads');
        report(file, site.name, site.loc, 'testOnlyEnvVar', message, related);
      }
    }
  }
  for (const literal of facts.strings) {
    const uses = vocabulary.env.get(literal.value);
    if (uses) {
      const { message, related } = envMessage(literal.value, uses, 'names');
      report(file, literal.value, literal.loc, 'testOnlyEnvString', message, related);
    } else if (literal.value.includes('/')) {
      const path = testPathOf(model, literal.value, file);
      if (path !== null) report(file, literal.value, literal.loc, 'testOnlyPath', pathMessage(literal.value, path));
    }
  }
}

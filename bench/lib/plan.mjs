// The shape of a synthetic harness: which areas, tests, ids, skills and
// seeded defects it has. Decided here from the seed; the text of each file is
// rendered elsewhere from its own per-file seed, so that editing one file for
// the second commit leaves every other file byte-identical.

import { createRandom } from './random.mjs';
import { AREA_HEADS, AREA_TAILS, SKILL_NAMES, SLUG_A, SLUG_B } from './words.mjs';

/** Bump when the generated repository changes for the same size and seed. */
export const GENERATOR_VERSION = 1;

export const TESTS_PER_AREA = 40;

const pascal = (name) => name.split('-').map((part) => part[0].toUpperCase() + part.slice(1)).join('');
const upper = (name) => name.replaceAll('-', '_').toUpperCase();

/** '1k' → 1000, '2.5k' → 2500, '300' → 300. */
export function parseSize(text) {
  const match = /^(\d+(?:\.\d+)?)(k)?$/i.exec(String(text).trim());
  if (!match) throw new Error(`size must look like 1000 or 1k, got '${text}'`);
  const value = Number(match[1]) * (match[2] ? 1000 : 1);
  if (!Number.isInteger(value) || value < 40) throw new Error(`size must be an integer of at least 40, got '${text}'`);
  return value;
}

export function sizeLabel(size) {
  return size % 1000 === 0 ? `${size / 1000}k` : String(size);
}

function slugs(random, count) {
  const all = [];
  for (const a of SLUG_A) for (const b of SLUG_B) all.push(`${a}-${b}`);
  const picked = random.shuffle(all);
  const out = [];
  for (let i = 0; i < count; i++) out.push(i < picked.length ? picked[i] : `${picked[i % picked.length]}-${Math.floor(i / picked.length) + 1}`);
  return out;
}

export function createPlan({ size, seed, frozen = true }) {
  const random = createRandom(seed);
  const areaCount = Math.min(AREA_HEADS.length * AREA_TAILS.length, Math.max(4, Math.round(size / TESTS_PER_AREA)));
  const names = [];
  for (const head of AREA_HEADS) for (const tail of AREA_TAILS) names.push(`${head}-${tail}`);
  const areaNames = random.sample(names, areaCount).sort();

  const skillCount = Math.max(4, Math.ceil(areaCount / 2));
  const skills = [];
  for (let i = 0; i < skillCount; i++) {
    const base = SKILL_NAMES[i % SKILL_NAMES.length];
    skills.push({ name: i < SKILL_NAMES.length ? base : `${base}-${Math.floor(i / SKILL_NAMES.length) + 1}`, large: false, bytes: 0, refs: [], areas: [] });
  }
  const largeCount = Math.max(3, Math.round(skillCount / 25));
  for (const skill of random.sample(skills, largeCount)) skill.large = true;
  for (const skill of skills) {
    skill.bytes = skill.large ? random.int(50, 150) * 1024 : random.int(3, 9) * 1024;
    const refNames = random.sample(['checklist', 'examples', 'rubric', 'glossary', 'edge-cases', 'format'], random.int(1, 3)).sort();
    skill.refs = refNames.map((ref) => ({ name: ref, bytes: random.int(2, 12) * 1024 }));
  }

  // Free and paid about 3:1, spread evenly over the areas.
  const paidTotal = Math.round(size / 4);
  const freeTotal = size - paidTotal;
  const areas = areaNames.map((name, index) => {
    const skill = skills[index % skills.length];
    const area = {
      name,
      index,
      P: pascal(name),
      U: upper(name),
      head: name.split('-')[0],
      skill: skill.name,
      grader: index % 3 === 2 ? 'openai' : 'anthropic',
      free: [],
      paid: [],
    };
    skill.areas.push(name);
    return area;
  });
  const share = (total, i) => Math.floor((total * (i + 1)) / areas.length) - Math.floor((total * i) / areas.length);

  for (const area of areas) {
    const freeCount = share(freeTotal, area.index);
    const paidCount = share(paidTotal, area.index);
    const names = slugs(random, freeCount + paidCount);
    for (let i = 0; i < freeCount; i++) {
      const slug = names[i];
      area.free.push({ slug, file: `test/${area.name}/${slug}.test.ts`, kind: 'plain', tests: random.int(3, 8) });
    }
    for (let i = 0; i < paidCount; i++) {
      const slug = names[freeCount + i];
      const shape = random.pick(['tier', 'tier', 'periodic', 'plain']);
      const tier = shape === 'periodic' ? 'periodic' : shape === 'tier' ? (random.chance(0.75) ? 'gate' : 'periodic') : random.pick(['gate', 'periodic']);
      const idCount = random.next() < 0.5 ? 1 : random.next() < 0.7 ? 2 : 3;
      const ids = [];
      for (let k = 1; k <= idCount; k++) ids.push({ id: `${area.name}-${slug}-${k}`, via: shape === 'periodic' && k === 1 ? 'describeIfSelected' : 'runEval' });
      area.paid.push({ slug, file: `test/evals/${area.name}/${slug}.test.ts`, fixture: `test/fixtures/${area.name}/${slug}.txt`, shape, tier, ids });
    }
  }

  // Seeded defects and their look-alikes: a free test that reaches a paid call
  // through a three-deep helper chain, and free tests that import the same
  // helper but mock it, or use only a symbol that makes no paid call.
  const violations = Math.min(10, 2 + Math.round(size / 5000));
  const lookAlikes = Math.max(4, Math.round(size / 200));
  const candidates = random.shuffle(areas.filter((area) => area.free.length > 0 && area.index >= 5));
  const expectedFindings = [];
  for (const area of candidates.slice(0, violations)) {
    const test = area.free[0];
    test.kind = 'violation';
    expectedFindings.push({ ruleId: 'no-paid-calls-in-free-tests', file: test.file });
  }
  const plainFree = areas.flatMap((area) => area.free.filter((test) => test.kind === 'plain').map((test) => ({ area, test })));
  for (const [i, { test }] of random.sample(plainFree, lookAlikes).entries()) test.kind = i % 2 === 0 ? 'mocked' : 'pure-scenario';

  // Candidates for the freeze manifest; the generator pins the first few
  // without a skipped test through `tripwire freeze add`, which hashes them.
  const frozenCandidates = frozen
    ? random.sample(areas.slice(5).flatMap((area) => area.free.filter((test) => test.kind === 'plain').map((test) => ({ area, test }))), 40)
    : [];

  // The second commit edits these (areas 0-4 are never defects or frozen).
  const edits = {
    removedExport: areas[0],
    addedFunction: areas[1],
    editedHelper: areas[2],
    renamedTest: areas[3],
    renamedFrom: areas[3].free[0],
    addedTest: areas[Math.min(4, areas.length - 1)],
    editedPaid: areas[1].paid[0] ?? null,
    editedSkill: skills[0],
    stagedHelper: `test/helpers/${areas[0].name}/fixtures.ts`,
  };

  const groups = [...new Set(areas.map((area) => area.head))].sort();
  return { size, seed, areas, skills, groups, frozenCandidates, expectedFindings, edits };
}

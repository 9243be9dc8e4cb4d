import * as z from 'zod';
import { mapLabel, selectionOf } from '../src/analysis/selection.js';
import type { Located, PaidTestId, Selection } from '../src/analysis/selection-types.js';
import { createRule, type MessageKind, type RuleFinding } from '../src/rule.js';
import { MAP_MESSAGES, mapProblems, missingMapFinding } from './shared/map-findings.js';
import type { MapRef } from '../src/config/schema.js';
import type { RepoModel } from '../src/model/model.js';
import type { Fix } from '../src/types.js';
import { insertProperty, propertyAt, removeProperty } from '../src/analysis/literal-edits.js';
import { mapLiteral, oneEditFix } from './shared/map-fixes.js';

const messages = {
  ...MAP_MESSAGES,
  unknownTier: { description: 'A tier is not one of maps.tiers.values.' },
  missingTier: { description: 'A touchfile key of a map the tier map covers has no tier.' },
  orphanTier: { description: 'A tier key has no entry in the touchfile maps it covers: the two maps must have the same keys.' },
  paidIdWithoutTier: { description: 'A paid test id with no touchfile entry at all has no tier either.' },
  conflictingSelfGates: { description: 'A test file gates itself on more than one tier.' },
  inertDemotion: { description: 'A test file gates itself on one tier while the tier map declares another for its ids: the declaration is dead metadata.' },
  malformedTierMap: { description: 'The tier map is not an object of test id → tier.' },
  nonStringTier: { description: 'A tier evaluates to something other than a string.' },
} satisfies Record<string, MessageKind>;

export type MessageIds = keyof typeof messages;

const fixes = {
  addTier: 'Add the missing id to the tier map with the tier its test file gates itself on (no fix when the file does not self-gate).',
  removeOrphanTier: 'Remove the tier entry whose key has no touchfile entry.',
};

export default createRule({
  id: 'tiers-cover-paid-tests',
  meta: {
    description: 'Every paid test id has an allowed tier, tier keys equal touchfile keys, and a file that gates itself on a tier agrees with the declared one.',
    languages: ['js/js', 'json/json'],
    recommended: true,
    messages,
    fixes,
  },
  options: z.strictObject({}),
  check(model) {
    const { selection, problems, selfGates } = selectionOf(model);
    const findings: RuleFinding<MessageIds>[] = mapProblems(problems, 'tiers', { unevaluable: 'unevaluableMap', missingFile: 'missingMapFile', notAnObject: 'malformedTierMap', notAString: 'nonStringTier' });
    const tiersRef = model.config.maps?.tiers;
    const tiers = selection.tiers;
    if (!tiersRef || !tiers) return [...findings, ...missingMapFinding(model, 'maps.tiers', 'tier map')];
    const label = mapLabel(tiersRef);
    const allowed = tiersRef.values;
    // An id a test still declares lacks its touchfile entry: removing its tier would be the wrong fix.
    const isDeclared = (id: string): boolean => selection.paidIds.some((paid) => paid.id === id);
    const addTier = (id: string): { fix?: Fix } => addTierFix(model, tiersRef, id, selfGateTier(selection, selfGates, id, allowed));

    for (const [id, tier] of tiers) {
      if (tier.value !== null && !allowed.includes(tier.value)) {
        findings.push({ messageId: 'unknownTier', file: tier.file, loc: tier.loc, message: `tier '${tier.value}' of '${id}' is not one of ${allowed.map((v) => `'${v}'`).join(', ')} (maps.tiers.values)` });
      }
    }

    // Tier keys and the keys of the touchfile maps the tier map covers must be the same set.
    const covered = tiersRef.covers ?? null;
    const coveredEntries = selection.touchfiles.filter((entry) => covered === null || covered.includes(entry.map));
    const touchfileKeys = new Set(coveredEntries.map((entry) => entry.key.value));
    // A map that could not be read (reported once) leaves the two key sets unknown: no missing or orphan tier on top of it.
    const complete = selection.touchfilesComplete !== false && selection.tiersComplete !== false;
    for (const entry of complete ? coveredEntries : []) {
      if (!tiers.has(entry.key.value)) {
        findings.push({
          messageId: 'missingTier',
          file: entry.key.file,
          loc: entry.key.loc,
          message: `'${entry.key.value}' has touchfiles in ${entry.map} but no tier in ${label}: add it with one of ${allowed.map((v) => `'${v}'`).join(', ')}`,
          ...addTier(entry.key.value),
        });
      }
    }
    for (const [id, tier] of complete ? tiers : new Map<string, never>()) {
      if (!touchfileKeys.has(id)) {
        findings.push({
          messageId: 'orphanTier',
          file: tier.file,
          loc: tier.loc,
          message: `'${id}' has a tier in ${label} but no entry in ${covered?.join(', ') ?? 'the touchfile maps'}: the tier map and the touchfile map must have the same keys`,
          ...(isDeclared(id) ? {} : removeTierFix(model, tiersRef, id, tier)),
        });
      }
    }

    // A paid id with no touchfile entry at all still needs a tier.
    const anyTouchfile = new Set(selection.touchfiles.map((entry) => entry.key.value));
    const reported = new Set<string>();
    for (const paid of complete ? selection.paidIds : []) {
      if (anyTouchfile.has(paid.id) || tiers.has(paid.id) || reported.has(paid.id)) continue;
      reported.add(paid.id);
      findings.push({ messageId: 'paidIdWithoutTier', file: paid.file, loc: paid.loc, message: `paid test id '${paid.id}' has no tier in ${label}`, ...addTier(paid.id) });
    }

    // Self-gates: a file that gates itself on a tier must agree with the tier declared for its ids: the ids
    // it declares in code, or, in a file that declares none, the keys whose own touchfile list names it (bound by registration).
    const idsByFile = new Map<string, PaidTestId[]>();
    for (const paid of selection.paidIds) {
      const list = idsByFile.get(paid.file);
      if (list) list.push(paid);
      else idsByFile.set(paid.file, [paid]);
    }
    for (const [file, gates] of selfGates) {
      const distinct = [...new Set(gates.map((gate) => gate.value))];
      const first = gates[0];
      if (!first) continue;
      if (distinct.length > 1) {
        findings.push({
          messageId: 'conflictingSelfGates',
          file,
          loc: first.loc,
          message: `${file} gates itself on ${distinct.length} different tiers (${distinct.map((v) => `'${v}'`).join(', ')}): a file runs in one tier`,
          related: gates.slice(1).map((gate) => ({ file: gate.file, line: gate.loc.line, column: gate.loc.column, message: `gates on '${gate.value}'` })),
        });
        continue;
      }
      const mismatched = new Map<string, { file: string; line: number; column: number; message: string }>();
      for (const paid of boundIds(idsByFile.get(file) ?? [])) {
        const declared = tiers.get(paid.id);
        if (!declared || declared.value === null || declared.value === first.value) continue;
        mismatched.set(paid.id, { file: declared.file, line: declared.loc.line, column: declared.loc.column, message: `'${paid.id}' declared '${declared.value}'` });
      }
      if (mismatched.size === 0) continue;
      const ids = [...mismatched.keys()].map((id) => `'${id}'`).join(', ');
      const bound = boundIds(idsByFile.get(file) ?? []).some((paid) => paid.via === 'registration') ? ` (bound to this file by ${mismatched.size === 1 ? 'its touchfile entry, which names' : 'their touchfile entries, which name'} it)` : '';
      findings.push({
        messageId: 'inertDemotion',
        file,
        loc: first.loc,
        message: `this file gates itself on tier '${first.value}', but ${label} declares another tier for ${ids}${bound}: the declaration is inert. Make the gate and the map agree.`,
        related: [...mismatched.values()],
      });
    }
    return findings;
  },
});

/**
 * The ids a file's self-gate must agree with: those it declares in code; in a
 * file that declares none, those its registrations bind to it. A key that
 * names a file which declares ids of its own lists it as an input, not as its test.
 */
function boundIds(ids: readonly PaidTestId[]): PaidTestId[] {
  const declared = ids.filter((paid) => paid.via === 'call');
  return declared.length > 0 ? declared : ids.filter((paid) => paid.via === 'registration');
}

/**
 * The tier every file declaring `id` gates itself on, when they all do and
 * agree on one allowed tier; otherwise null: a tier is never guessed.
 */
function selfGateTier(selection: Selection, selfGates: ReadonlyMap<string, Located<string>[]>, id: string, allowed: readonly string[]): string | null {
  const files = new Set(selection.paidIds.filter((paid) => paid.id === id).map((paid) => paid.file));
  const tiers = new Set<string>();
  for (const file of files) {
    const gates = selfGates.get(file) ?? [];
    if (gates.length === 0) return null;
    for (const gate of gates) tiers.add(gate.value);
  }
  const [tier] = tiers;
  return tiers.size === 1 && tier !== undefined && allowed.includes(tier) ? tier : null;
}

function addTierFix(model: RepoModel, ref: MapRef, id: string, tier: string | null): { fix?: Fix } {
  const found = tier === null ? null : mapLiteral(model, ref);
  if (tier === null || !found) return {};
  return oneEditFix('addTier', `add '${id}': '${tier}' to ${mapLabel(ref)} (the tier its test file gates itself on)`, ref.file, insertProperty(found, id, tier));
}

/** Only where the entry is written in the tier map's own literal. */
function removeTierFix(model: RepoModel, ref: MapRef, id: string, tier: Located<string | null>): { fix?: Fix } {
  const found = tier.file === ref.file ? mapLiteral(model, ref) : null;
  const property = found ? propertyAt(found, tier.loc) : null;
  if (!found || !property) return {};
  return oneEditFix('removeOrphanTier', `remove the entry '${id}' from ${mapLabel(ref)}`, ref.file, removeProperty(found, property));
}

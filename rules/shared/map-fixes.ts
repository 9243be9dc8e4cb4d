import type { MapRef } from '../../src/config/schema.js';
import type { RepoModel } from '../../src/model/model.js';
import { isScriptFile } from '../../src/util/file-kinds.js';
import type { Fix } from '../../src/types.js';
import { exportedLiteral, type ExportedLiteral, type Replacement } from '../../src/analysis/literal-edits.js';

/**
 * The literal a configured map is written as, when a fix may edit it: an
 * export of a TS/JS file declared there with an object or array literal.
 * A JSON or YAML map, a map built by a call, a re-export or an import gets
 * no fix: where a new entry belongs there is a judgement.
 */
export function mapLiteral(model: RepoModel, ref: MapRef): ExportedLiteral | null {
  if (ref.export === undefined || !isScriptFile(ref.file)) return null;
  const text = model.text(ref.file);
  return text === null ? null : exportedLiteral(model, ref.file, text, ref.export);
}

/** A one-edit fix, or nothing when the edit could not be made mechanically. */
export function oneEditFix(messageId: string, description: string, file: string, replacement: Replacement | null): { fix?: Fix } {
  if (replacement === null) return {};
  return { fix: { messageId, description, edits: [{ file, range: replacement.range, text: replacement.text }] } };
}

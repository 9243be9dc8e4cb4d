import type { Config, MapRef, PaidListRef } from './schema.js';

// Where the configuration points: the map files and the files of tests.paid's references, before any is read.

/** The configured touchfile maps, one or several. */
export function touchfileRefs(config: Config): MapRef[] {
  const refs = config.maps?.touchfiles;
  return refs === undefined ? [] : Array.isArray(refs) ? refs : [refs];
}

/** Every configured map reference: touchfiles, then tiers, then globals. */
export function mapRefs(config: Config): MapRef[] {
  const maps = config.maps;
  return [...touchfileRefs(config), ...(maps?.tiers ? [maps.tiers] : []), ...(maps?.globals ? [maps.globals] : [])];
}

export function mapLabel(ref: MapRef): string {
  return ref.export ?? `${ref.file}#${ref.path ?? ''}`;
}

/** A map's identity, for tables keyed by map: its file and label (two files may export maps under one name). */
export function mapKey(ref: MapRef): string {
  return `${ref.file}\0${mapLabel(ref)}`;
}

/** `tests.paid` as a list of entries, whichever of its forms the configuration uses. */
export function paidEntries(config: Config): (string | PaidListRef)[] {
  const paid = config.tests.paid;
  return Array.isArray(paid) ? paid : [paid];
}

/** The files `tests.paid` names as references, before any is read. */
export function paidListRefFiles(config: Config): string[] {
  return paidEntries(config).flatMap((entry) => (typeof entry === 'string' ? [] : [entry.file]));
}

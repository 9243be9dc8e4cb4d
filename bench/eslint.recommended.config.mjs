// Benchmark: the baseline (eslint.parser.config.mjs) plus tripwire's
// recommended preset, imported from the built package as a user would (the
// runner points TRIPWIRE_BENCH_PLUGIN at its snapshot of dist/).
import { pathToFileURL } from 'node:url';
import baseline from './eslint.parser.config.mjs';

const entry = process.env.TRIPWIRE_BENCH_PLUGIN;
const { default: tripwire } = await import(entry ? pathToFileURL(entry).href : '../dist/src/index.js');
const recommended = tripwire.configs.recommended;

export default [...baseline, ...(Array.isArray(recommended) ? recommended : [recommended])];

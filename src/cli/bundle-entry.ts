// The entry of the CLI's bundle (dist/cli/tripwire.cjs, scripts/bundle.mjs),
// which the launcher (launch.ts) runs: the command line, and how much of the
// bundle the run exercised (util/breadth.ts).
export { main } from './main.js';
export { breadth } from '../util/breadth.js';

// The entry of the CLI's bundle (dist/cli/tripwire.cjs, scripts/bundle.mjs),
// which the launcher (launch.ts) runs: the command line, how much of the
// bundle the run exercised (util/breadth.ts), and the hand-over of the worker
// and the git listing the launcher started before the bundle loaded.
export { main } from './main.js';
export { breadth } from '../util/breadth.js';
export { handEarlyWorker } from '../engine/early-worker.js';
export { handEarlyGit } from '../engine/early-git.js';

// Preloaded (`node --import`) into a spawned CLI: records the path of every file the process
// opens or reads through node:fs, and writes them, one per line, to the file named by
// TRIPWIRE_TEST_READ_LOG when the process exits. It observes only: every call goes through.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const paths = [];
const writeFileSync = fs.writeFileSync;
const record = (file) => {
  if (typeof file === 'string' || file instanceof URL) paths.push(String(file));
};
for (const name of ['open', 'openSync', 'readFile', 'readFileSync', 'createReadStream']) {
  const original = fs[name];
  fs[name] = function observed(file, ...rest) {
    record(file);
    return original.call(this, file, ...rest);
  };
}
for (const name of ['open', 'readFile']) {
  const original = fs.promises[name];
  fs.promises[name] = function observed(file, ...rest) {
    record(file);
    return original.call(this, file, ...rest);
  };
}
// `import { openSync } from 'node:fs'` binds the ES module's exports: bring them in line with the patched ones.
syncBuiltinESMExports();
process.on('exit', () => writeFileSync(process.env.TRIPWIRE_TEST_READ_LOG, paths.join('\n')));

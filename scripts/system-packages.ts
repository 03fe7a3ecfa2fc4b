/**
 * `npm test` runs this first (package.json's `pretest`), and `.ci/run` before its checks: the
 * Debian packages the tests need, installed when that needs no question, or the `apt-get` line
 * to run and a non-zero exit, so that no test starts without them (`lib/system-packages.ts`).
 */
import { prepareSystemPackages } from './lib/system-packages.ts';

process.exitCode = prepareSystemPackages();

/**
 * The stand-in console (support/stand-in-console.ts) as a process of its own, for the proxy's
 * benchmark: it serves the fixtures' directories on a free port of 127.0.0.1, conforming unless a
 * request asks it to drift, and prints its address on its first line.
 */
import { loadViews } from '../../src/sources/fixtures.ts';
import { readSettings } from '../../src/sources/settings.ts';
import { startStandInConsole } from '../../support/stand-in-console.ts';

const standIn = await startStandInConsole(await loadViews(readSettings().viewsDir));
console.log(standIn.url);
process.on('SIGTERM', () => void standIn.close().then(() => process.exit(0)));

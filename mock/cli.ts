/**
 * `npm run mock` (`--help` lists its flags): serves the contract composed with every view's directory, follows edits to
 * the fixtures and openapi.yaml, and logs each request, until Ctrl-C or SIGTERM, on which it
 * drains: it stops accepting, answers every request it received, and exits within 10 s.
 * MOCK_PORT moves it, MOCK_HOST binds another address (0.0.0.0 in a container), MOCK_LOG=off
 * silences the request log (json makes it JSON), MOCK_WORKERS serves from that many node:cluster
 * workers (auto: one per core), PORTAL_OPENAPI and PORTAL_VIEWS_DIR point elsewhere. Sources that
 * do not load at start are reported, and the mock waits for them, answering 503 (and /readyz 503)
 * until an edit mends them.
 *
 * It runs main.ts bundled into one file (bundle.ts: made at the first start after an edit to the
 * mock's code or its packages, and kept), which starts in about half the time its modules take
 * one by one; from the sources when no bundle can be made.
 */
import module from 'node:module';
import { pathToFileURL } from 'node:url';

// V8's compiled code, and Node's TypeScript stripping, kept on disk from one start to the next
// (NODE_COMPILE_CACHE names the folder, else a folder in the system's temporary folder): a start
// with it compiles less, about a fifth less CPU. Where nothing can be written, there is no cache.
module.enableCompileCache();
// --help, --version and the flags first: they answer, or refuse, before the mock's code loads.
const { takeCommandLine } = await import('../src/sources/command-line.ts');
takeCommandLine('mock');
const { mockBundle } = await import('./bundle.ts');
const bundle = await mockBundle();
await (bundle ? import(pathToFileURL(bundle).href) : import('./main.ts'));

/**
 * `npm start` (`--help` lists its flags): starts the live mock, then builds the portal and serves it (`lib/portal-server.ts`)
 * beside the mock on 127.0.0.1: the mock answers while the build runs.
 * `npm run dev` (`--dev`): Astro's dev server, with live reload and error overlay, and the live
 * mock. Either prints both addresses and stops both on one Ctrl-C (the build too, while it runs);
 * a port already in use gets a one-line message naming the variable that moves it.
 *
 * The mock runs in this process, loaded first, from its bundle (mock/bundle.ts, of
 * mock/embedded.ts, which holds the settings reader too): one file, where its sources are some
 * 1,500 modules to resolve and compile. What only the portal needs is loaded once the mock listens.
 */
import type { ChildProcess } from 'node:child_process';
import module from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Embedded from '../mock/embedded.ts';
import type { PortalSettings } from '../src/sources/settings.ts';

// V8's compiled code kept on disk from one start to the next, as `npm run mock` keeps it (mock/cli.ts).
module.enableCompileCache();

// --help, --version and the flags first (`--dev` is `npm run dev`): nothing starts before them,
// and each flag given is in its variable before the mock, or the build, reads the settings.
const { takeCommandLine } = await import('../src/sources/command-line.ts');
const { dev } = takeCommandLine(process.argv.includes('--dev') ? 'dev' : 'start');
const { spawn } = await import('node:child_process');
const { createServer } = await import('node:net');
const { mockBundle } = await import('../mock/bundle.ts');
const { prefixed, standardOutput } = await import('../mock/output.ts');
const { USERS_PATH } = await import('../src/shared/curl.ts');

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = path.join(ROOT, 'node_modules', '.bin');
const env = { ...process.env, PATH: `${BIN}${path.delimiter}${process.env['PATH'] ?? ''}` };
/** Standard output: the mock's request log can be busy, and must not hold up its answers. */
const out = standardOutput();

/** Ends the program with a message for a person, not a stack trace. */
function fail(message: string): never {
	console.error(`\n✖ ${message}`);
	process.exit(1);
}

/** Resolves when nothing listens on the port; fails with which flag or variable moves it otherwise. */
async function ensurePortFree(
	port: number,
	flag: string,
	variable: string,
	what: string,
): Promise<void> {
	const command = dev ? 'npm run dev' : 'npm start';
	await new Promise<void>((resolve) => {
		const probe = createServer();
		probe.once('error', (error: NodeJS.ErrnoException) => {
			if (error.code === 'EADDRINUSE') {
				fail(
					`Port ${port} on 127.0.0.1 is already in use, so the ${what} cannot start there. ` +
						`Stop whatever uses it, or choose another port: ${command} -- ${flag} <port> (or ${variable}=<port>)`,
				);
			}
			fail(`The ${what} cannot listen on 127.0.0.1:${port}: ${error.message}`);
		});
		probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
	});
}

/** The mock's code: from its bundle, or from its sources when no bundle can be made. */
async function loadMock(): Promise<typeof Embedded> {
	const bundle = await mockBundle(ROOT, 'mock/embedded.ts');
	return (await (bundle
		? import(pathToFileURL(bundle).href)
		: import('../mock/embedded.ts'))) as typeof Embedded;
}

const embedded = await loadMock().catch((error: unknown) =>
	fail(error instanceof Error ? error.message : String(error)),
);

let settings: PortalSettings;
try {
	settings = embedded.readSettings();
} catch (error) {
	fail(error instanceof Error ? error.message : String(error));
}

await ensurePortFree(settings.portalPort, '--port', 'PORTAL_PORT', 'portal');
await ensurePortFree(settings.mockPort, '--mock-port', 'MOCK_PORT', 'mock');

/** Stops a child process, SIGTERM then after five seconds SIGKILL; resolves once it is gone. */
async function stopChild(child: ChildProcess): Promise<void> {
	const exited = new Promise<boolean>((resolve) => {
		if (child.exitCode !== null || child.signalCode !== null) resolve(true);
		else child.once('exit', () => resolve(true));
	});
	if (child.exitCode === null) child.kill('SIGTERM');
	const gone = await Promise.race([
		exited,
		new Promise<boolean>((resolve) => setTimeout(resolve, 5000, false)),
	]);
	if (!gone) child.kill('SIGKILL');
}

/**
 * Passes on another program's standard output in whole lines, so that no line of the mock's lands
 * inside one of its own (Astro writes a page's line in two parts, before and after rendering it).
 */
function passOn(child: ChildProcess, onText: (text: string) => void = () => {}): void {
	let partial = '';
	child.stdout?.setEncoding('utf8');
	child.stdout?.on('data', (chunk: string) => {
		const text = partial + chunk;
		const end = text.lastIndexOf('\n') + 1;
		partial = text.slice(end);
		if (end === 0) return;
		out.write(text.slice(0, end));
		onText(text.slice(0, end));
	});
	child.stdout?.on('end', () => {
		if (partial !== '') out.write(partial);
	});
}

let stopping = false;
/** The mock, once it listens. */
let mock: Embedded.RunningMock | undefined;
/** Stops the portal's build while it runs, then its server: resolves once it is gone. */
let stopPortal: () => Promise<void> = () => Promise.resolve();

/** Stops the portal (or its build) and the mock, once. */
async function stop(code: number): Promise<void> {
	if (stopping) return;
	stopping = true;
	await Promise.all([
		mock?.close().catch((error: unknown) => {
			console.error(`✖ The mock did not close cleanly: ${String(error)}`);
		}),
		stopPortal().catch((error: unknown) => {
			console.error(`✖ The portal server did not close cleanly: ${String(error)}`);
		}),
	]);
	await out.close();
	process.exit(code);
}

/** Stops everything with a message for a person, not a stack trace, and exit code 1. */
function failRunning(message: string): void {
	if (stopping) return;
	console.error(`\n✖ ${message}`);
	void stop(1);
}

// From the first moment: a Ctrl-C while the portal builds stops the build and the mock.
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

/** Starts the mock; resolves once it listens, or to undefined once a failure has stopped everything. */
async function startTheMock(): Promise<Embedded.RunningMock | undefined> {
	try {
		const { startMock, upstreamFrom, chaosSummary } = embedded;
		mock = await startMock({
			port: settings.mockPort,
			viewsDir: settings.viewsDir,
			contractFile: settings.openApiFile,
			watch: true,
			allowedHosts: settings.mockAllowedHosts,
			allowedOrigins: settings.mockAllowedOrigins,
			upstream: upstreamFrom(settings),
			chaos: settings.mockChaos,
			// In dev, a fixture broken before the start shows as the pages' overlay; the mock waits for it.
			waitForSources: dev,
			log: settings.mockLog ? (line) => out.line(prefixed('[mock] ', line)) : undefined,
			report: (message, ok) =>
				ok ? out.say(`[mock] ${message}`) : console.error(`[mock] ${message}`),
		});
		if (settings.mockChaos) out.say(`[mock] ${chaosSummary(settings.mockChaos, false)}`);
		// The compile cache is written at exit too, but a process killed never exits: write it now.
		setImmediate(() => module.flushCompileCache());
		return mock;
	} catch (error) {
		failRunning(error instanceof Error ? error.message : String(error));
		return undefined;
	}
}

/** Builds the portal, its output passed on; resolves to whether it succeeded. */
function buildPortal(): Promise<boolean> {
	out.say('Building the portal…');
	// As `npm run build` builds: Astro, then the search index once Astro's process has exited.
	const build = spawn(path.join(BIN, 'node'), [path.join(ROOT, 'scripts', 'build.ts')], {
		cwd: ROOT,
		// Its output reaches the terminal through this process, in the colours it would have there.
		env:
			process.stdout.isTTY && process.env['FORCE_COLOR'] === undefined
				? { ...env, FORCE_COLOR: '1' }
				: env,
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	stopPortal = () => stopChild(build);
	passOn(build);
	return new Promise((resolve) => {
		// A build that cannot start says why on 'error'; 'close' follows, once its output is passed on.
		build.once('error', (error) => console.error(`✖ ${error.message}`));
		build.once('close', (code) => resolve(code === 0));
	});
}

const portalUrl = `http://127.0.0.1:${settings.portalPort}/`;

/** Prints both addresses, once the portal answers. */
function announce(mockUrl: string): void {
	out.say(
		[
			'',
			`  Console Portal is running${dev ? ' in dev mode (pages reload as you edit)' : ''}:`,
			`    Portal  ${portalUrl}`,
			settings.mockUpstream
				? `    Mock    ${mockUrl}  (a validating proxy to the console at ${new URL(settings.mockUpstream).origin}, MOCK_UPSTREAM)`
				: `    Mock    ${mockUrl}  (GET ${mockUrl}${USERS_PATH} with a directory key)`,
			'',
			'  The mock follows edits to content/views/ and openapi.yaml. Press Ctrl-C to stop both.',
			'',
		].join('\n'),
	);
}

/** Serves the built portal beside the mock, once both are ready. */
async function serveBuilt(mockStarting: Promise<Embedded.RunningMock | undefined>): Promise<void> {
	// The mock first, alone: the build, which would take the machine's cores from it, starts once
	// the mock listens, and the mock answers while the portal builds.
	const running = await mockStarting;
	if (!running || stopping) return;
	const built = await buildPortal();
	if (stopping) return;
	if (!built) {
		failRunning('The build failed; the messages above say which fixture or page.');
		return;
	}
	try {
		const { startPortalServer } = await import('./lib/portal-server.ts');
		const portal = await startPortalServer({
			root: path.join(ROOT, 'dist'),
			port: settings.portalPort,
			allowedHosts: settings.portalAllowedHosts,
		});
		stopPortal = portal.close;
	} catch (error) {
		failRunning(`The portal cannot listen on 127.0.0.1:${settings.portalPort}: ${String(error)}`);
		return;
	}
	if (stopping) return;
	announce(running.url);
}

/** Serves the portal with Astro's dev server beside the mock. */
async function serveDev(mockStarting: Promise<Embedded.RunningMock | undefined>): Promise<void> {
	const running = await mockStarting;
	if (!running || stopping) return;
	// Astro's dev server stays in the foreground (--ignore-lock), so one Ctrl-C here stops both.
	const portal = spawn(
		path.join(BIN, 'astro'),
		['dev', '--ignore-lock', '--host', '127.0.0.1', '--port', String(settings.portalPort)],
		{ cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] },
	);
	stopPortal = () => stopChild(portal);
	portal.once('exit', (code) => {
		if (!stopping) {
			console.error(`\n✖ The portal server stopped (exit code ${code ?? 'none'}).`);
			void stop(1);
		}
	});
	let announced = false;
	// The dev server's own output (page errors, reloads) is worth seeing.
	passOn(portal, (text) => {
		if (announced || !text.includes(`127.0.0.1:${settings.portalPort}`)) return;
		announced = true;
		announce(running.url);
	});
}

const mockStarting = startTheMock();
await (dev ? serveDev(mockStarting) : serveBuilt(mockStarting));

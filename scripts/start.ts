/**
 * `npm start`: builds the portal, then serves it (`lib/portal-server.ts`) and the live mock
 * together on 127.0.0.1.
 * `npm run dev` (`--dev`): Astro's dev server, with live reload and error overlay, and the live
 * mock. Either prints both addresses and stops both on one Ctrl-C; a port already in use gets
 * a one-line message naming the variable that moves it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { prefixed, standardOutput } from '../mock/output.ts';
import { upstreamFrom } from '../mock/forwarder/decide.ts';
import { chaosSummary } from '../mock/chaos.ts';
import { startMock } from '../mock/server.ts';
import { USERS_PATH } from '../src/shared/curl.ts';
import { readSettings, type PortalSettings } from '../src/sources/settings.ts';
import { startPortalServer } from './lib/portal-server.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = path.join(ROOT, 'node_modules', '.bin');
const env = { ...process.env, PATH: `${BIN}${path.delimiter}${process.env['PATH'] ?? ''}` };
const dev = process.argv.includes('--dev');
/** Standard output: the mock's request log can be busy, and must not hold up its answers. */
const out = standardOutput();

/** Ends the program with a message for a person, not a stack trace. */
function fail(message: string): never {
	console.error(`\n✖ ${message}`);
	process.exit(1);
}

/** Resolves when nothing listens on the port; fails with which variable moves it otherwise. */
async function ensurePortFree(port: number, variable: string, what: string): Promise<void> {
	const command = dev ? 'npm run dev' : 'npm start';
	await new Promise<void>((resolve) => {
		const probe = createServer();
		probe.once('error', (error: NodeJS.ErrnoException) => {
			if (error.code === 'EADDRINUSE') {
				fail(
					`Port ${port} on 127.0.0.1 is already in use, so the ${what} cannot start there. ` +
						`Stop whatever uses it, or choose another port: ${variable}=<port> ${command}`,
				);
			}
			fail(`The ${what} cannot listen on 127.0.0.1:${port}: ${error.message}`);
		});
		probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
	});
}

let settings: PortalSettings;
try {
	settings = readSettings();
} catch (error) {
	fail(error instanceof Error ? error.message : String(error));
}

await ensurePortFree(settings.portalPort, 'PORTAL_PORT', 'portal');
await ensurePortFree(settings.mockPort, 'MOCK_PORT', 'mock');

if (!dev) {
	// Written at once: the build blocks this process, and its output follows this line.
	console.log('Building the portal…');
	const build = spawnSync(path.join(BIN, 'astro'), ['build'], { cwd: ROOT, env, stdio: 'inherit' });
	if (build.status !== 0) fail('The build failed; the messages above say which fixture or page.');
}

const mock = await startMock({
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
	report: (message, ok) => (ok ? out.say(`[mock] ${message}`) : console.error(`[mock] ${message}`)),
}).catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
if (settings.mockChaos) out.say(`[mock] ${chaosSummary(settings.mockChaos, false)}`);

const portalUrl = `http://127.0.0.1:${settings.portalPort}/`;

/** Prints both addresses, once the portal answers. */
function announce(): void {
	out.say(
		[
			'',
			`  Console Portal is running${dev ? ' in dev mode (pages reload as you edit)' : ''}:`,
			`    Portal  ${portalUrl}`,
			settings.mockUpstream
				? `    Mock    ${mock.url}  (a validating proxy to the console at ${new URL(settings.mockUpstream).origin}, MOCK_UPSTREAM)`
				: `    Mock    ${mock.url}  (GET ${mock.url}${USERS_PATH} with a directory key)`,
			'',
			'  The mock follows edits to content/views/ and openapi.yaml. Press Ctrl-C to stop both.',
			'',
		].join('\n'),
	);
}

let stopping = false;
/** Stops the portal server: resolves once it is gone. */
let stopPortal: () => Promise<void>;

if (dev) {
	// Astro's dev server stays in the foreground (--ignore-lock), so one Ctrl-C here stops both.
	const portal = spawn(
		path.join(BIN, 'astro'),
		['dev', '--ignore-lock', '--host', '127.0.0.1', '--port', String(settings.portalPort)],
		{ cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] },
	);
	stopPortal = async () => {
		const exited = new Promise<boolean>((resolve) => {
			if (portal.exitCode !== null || portal.signalCode !== null) resolve(true);
			else portal.once('exit', () => resolve(true));
		});
		if (portal.exitCode === null) portal.kill('SIGTERM');
		// The dev server gets five seconds, then SIGKILL.
		const gone = await Promise.race([
			exited,
			new Promise<boolean>((resolve) => setTimeout(resolve, 5000, false)),
		]);
		if (!gone) portal.kill('SIGKILL');
	};
	portal.once('exit', (code) => {
		if (!stopping) {
			console.error(`\n✖ The portal server stopped (exit code ${code ?? 'none'}).`);
			void stop(1);
		}
	});
	let announced = false;
	portal.stdout?.on('data', (chunk: Buffer) => {
		const text = chunk.toString();
		// The dev server's own output (page errors, reloads) is worth seeing.
		out.write(text);
		if (announced || !text.includes(`127.0.0.1:${settings.portalPort}`)) return;
		announced = true;
		announce();
	});
} else {
	const portal = await startPortalServer({
		root: path.join(ROOT, 'dist'),
		port: settings.portalPort,
		allowedHosts: settings.portalAllowedHosts,
	}).catch((error: unknown) =>
		fail(`The portal cannot listen on 127.0.0.1:${settings.portalPort}: ${String(error)}`),
	);
	stopPortal = portal.close;
	announce();
}

/** Stops the portal server and the mock, once. */
async function stop(code: number): Promise<void> {
	if (stopping) return;
	stopping = true;
	await Promise.all([
		mock.close().catch((error: unknown) => {
			console.error(`✖ The mock did not close cleanly: ${String(error)}`);
		}),
		stopPortal().catch((error: unknown) => {
			console.error(`✖ The portal server did not close cleanly: ${String(error)}`);
		}),
	]);
	await out.close();
	process.exit(code);
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

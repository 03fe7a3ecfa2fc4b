/**
 * Each command a person runs speaks for itself: `--help` and `--version` answer without starting
 * anything, an unknown flag or a bad value is refused with exit code 2, the usage line and the flag
 * named, and a flag wins over its environment variable.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
	bin,
	childEnv,
	freePort,
	ROOT,
	start,
	waitForUrl,
	type Started,
} from '../../support/processes.ts';

const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
	version: string;
};

const started: Started[] = [];
const servers: Server[] = [];
afterAll(async () => {
	await Promise.all(started.map((process) => process.stop()));
	await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

/** What a command printed and how it ended. */
interface Ran {
	code: number | null;
	stdout: string;
	stderr: string;
	ms: number;
}

/** Runs an entry with the pinned Node until it exits (or 20 s, then it is killed). */
function run(
	args: readonly string[],
	env: NodeJS.ProcessEnv = {},
	command = bin('node'),
): Promise<Ran> {
	const began = performance.now();
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, {
			cwd: ROOT,
			env: childEnv(env),
			detached: true,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		const timer = setTimeout(() => {
			if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
		}, 20_000);
		child.once('error', reject);
		child.once('close', (code) => {
			clearTimeout(timer);
			resolve({ code, stdout, stderr, ms: performance.now() - began });
		});
	});
}

/** The commands, as `npm run <name>` runs them, and a bad value for each. */
const COMMANDS = [
	{
		name: 'start',
		run: 'npm start',
		entry: ['scripts/start.ts'],
		flag: '--port <port>',
		variable: 'PORTAL_PORT',
		shown: 'default: 4321',
		bad: ['--port', 'eighty'],
		badLine: '--port: expected a TCP port number from 1 to 65535',
	},
	{
		name: 'dev',
		run: 'npm run dev',
		entry: ['scripts/start.ts', '--dev'],
		flag: '--mock-port <port>',
		variable: 'MOCK_PORT',
		shown: 'default: 4010',
		bad: ['--log', 'loud'],
		badLine: '--log: expected on, off or json',
	},
	{
		name: 'mock',
		run: 'npm run mock',
		entry: ['mock/cli.ts'],
		flag: '--port <port>',
		variable: 'MOCK_PORT',
		shown: 'default: 4010',
		bad: ['--port', '70000'],
		badLine: '--port: expected a TCP port number from 1 to 65535',
	},
	{
		name: 'conform',
		run: 'npm run conform',
		entry: ['scripts/conform.ts'],
		flag: '--timeout-ms <ms>',
		variable: 'CONFORM_TIMEOUT_MS',
		shown: 'default: 10000',
		bad: ['--timeout-ms', 'soon'],
		badLine: '--timeout-ms: expected a whole number of milliseconds from 1 to 600000',
	},
	{
		name: 'mcp',
		run: 'npm run mcp',
		entry: ['mcp/cli.ts'],
		flag: '--views <folder>',
		variable: 'PORTAL_VIEWS_DIR',
		shown: 'default: content/views',
		bad: ['--mock-port', '0'],
		badLine: '--mock-port: expected a TCP port number from 1 to 65535',
	},
] as const;

describe.each(COMMANDS)('$run', (command) => {
	it('--help prints the usage, each flag with its variable and default, and an example, and exits 0', async () => {
		const result = await run([...command.entry, '--help']);
		expect(result.stderr).toBe('');
		expect(result.code).toBe(0);
		const lines = result.stdout.split('\n');
		expect(lines).toContain(`Usage: ${command.run} -- [flags]`);
		const flagLine = lines.findIndex((line) => line.trimStart().startsWith(command.flag));
		expect(flagLine, result.stdout).toBeGreaterThan(0);
		expect(lines[flagLine]).toContain(`${command.variable}, ${command.shown}`);
		expect(result.stdout).toContain('--help');
		expect(result.stdout).toContain('--version');
		expect(result.stdout).toMatch(new RegExp(`\nExample:\n  .*${command.run.replace(' ', ' ')}`));
	});

	it('--version prints the version in package.json and exits 0', async () => {
		const result = await run([...command.entry, '--version']);
		expect(result).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' });
	});

	it('an unknown flag exits 2, naming it, with the usage line, and starts nothing', async () => {
		const result = await run([...command.entry, '--bogus']);
		expect(result.code).toBe(2);
		expect(result.stdout).toBe('');
		expect(result.stderr.split('\n')).toEqual([
			`${command.run}: unknown flag --bogus`,
			`Usage: ${command.run} -- [flags]   (${command.run} -- --help lists them)`,
			'',
		]);
	});

	it('a bad value exits 2, naming the flag and what it expects, with the usage line', async () => {
		const result = await run([...command.entry, ...command.bad]);
		expect(result.code).toBe(2);
		expect(result.stderr.split('\n')).toEqual([
			`${command.run}: ${command.badLine}`,
			`Usage: ${command.run} -- [flags]   (${command.run} -- --help lists them)`,
			'',
		]);
	});
});

describe('a flag wins over its environment variable', () => {
	it("npm run mock -- --port listens on the flag's port, not MOCK_PORT's", async () => {
		const [flagPort, variablePort] = [await freePort(), await freePort()];
		const mock = start(bin('node'), ['mock/cli.ts', '--port', String(flagPort), '--log', 'off'], {
			env: { MOCK_PORT: String(variablePort), MOCK_LOG: 'on' },
		});
		started.push(mock);
		await waitForUrl(`http://127.0.0.1:${flagPort}/healthz`, mock);
		await expect(fetch(`http://127.0.0.1:${variablePort}/healthz`)).rejects.toThrow();
		await mock.stop();
	});

	it.each([
		['npm start', ['scripts/start.ts']],
		['npm run dev', ['scripts/start.ts', '--dev']],
	])("%s -- --port: the portal takes the flag's port, not PORTAL_PORT's", async (_, entry) => {
		// The flag's port is taken: the message names it, and how to choose another.
		const busy = createServer();
		servers.push(busy);
		const busyPort = await freePort();
		await new Promise<void>((resolve) => busy.listen(busyPort, '127.0.0.1', resolve));
		const result = await run([...entry, '--port', String(busyPort)], {
			PORTAL_PORT: String(await freePort()),
			MOCK_PORT: String(await freePort()),
		});
		expect(result.code).toBe(1);
		expect(result.stderr).toContain(`Port ${busyPort} on 127.0.0.1 is already in use`);
		expect(result.stderr).toContain('--port <port>');
	});

	it('npm run conform -- --timeout-ms: the flag replaces a bad CONFORM_TIMEOUT_MS', async () => {
		const bad = await run(['scripts/conform.ts', '--base-url', 'http://127.0.0.1:9'], {
			CONFORM_TIMEOUT_MS: 'soon',
			CONFORM_KEYS: '',
			CONFORM_KEYS_FILE: '',
		});
		expect(bad.code).toBe(2);
		expect(bad.stderr).toContain(
			'CONFORM_TIMEOUT_MS: expected a whole number of milliseconds from 1 to 600000',
		);
		const flagged = await run(
			['scripts/conform.ts', '--base-url', 'http://127.0.0.1:9', '--timeout-ms', '5000'],
			{ CONFORM_TIMEOUT_MS: 'soon', CONFORM_KEYS: '', CONFORM_KEYS_FILE: '' },
		);
		// Past the timeout, the run stops at the next thing it lacks: keys.
		expect(flagged.code).toBe(2);
		expect(flagged.stderr).not.toContain('CONFORM_TIMEOUT_MS');
		expect(flagged.stderr).toContain('no keys');
	});

	it("npm run mcp -- --views: the server reads the flag's folder, not PORTAL_VIEWS_DIR's", async () => {
		const mcp = start(bin('node'), ['mcp/cli.ts', '--views', 'content/views'], {
			env: { PORTAL_VIEWS_DIR: 'no/such/folder' },
		});
		started.push(mcp);
		const deadline = Date.now() + 30_000;
		while (!mcp.output().includes(' on stdio, reading ') && Date.now() < deadline) {
			await new Promise((resolve) => setTimeout(resolve, 50));
		}
		expect(mcp.output()).toContain(`reading ${path.join(ROOT, 'content/views')}\n`);
		await mcp.stop();
	});
});

describe('as a person types them', () => {
	it('npm run mock -- --help (as the settings guide shows it) answers through npm, quickly, without loading the mock', async () => {
		const result = await run(['run', 'mock', '--', '--help'], {}, 'npm');
		expect(result.code).toBe(0);
		expect(result.stdout).toContain('Usage: npm run mock -- [flags]');
		// Well under the seconds the mock's Prism takes to load, even on a busy machine.
		expect(result.ms).toBeLessThan(5000);
	});

	it('console-portal <command> runs each command, and names the commands when given another', async () => {
		const result = await run(['scripts/console-portal.ts', 'mock', '--version']);
		expect(result).toMatchObject({ code: 0, stdout: `${version}\n` });
		const help = await run(['scripts/console-portal.ts', 'conform', '--help']);
		expect(help.stdout).toContain('Usage: npm run conform -- [flags]');
		const unknown = await run(['scripts/console-portal.ts', 'serve']);
		expect(unknown.code).toBe(2);
		expect(unknown.stderr).toContain('console-portal: unknown command serve');
		expect(unknown.stderr).toContain('Usage: console-portal start|dev|mock|conform|mcp [flags]');
	});
});

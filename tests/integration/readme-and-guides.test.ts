/**
 * The README a newcomer reads on one screen, and every command the README and the guides show, run
 * as shown: each shell block's commands are run here with `sh` from the repository (the mock's port
 * a free one, the placeholders `<key>` and the console's address a fixture's keys and a console on
 * loopback; the deploying guide's Kubernetes renders in a copy of the checkout, with the tests'
 * kubectl), or the block is marked, just before it, as not run and why
 * (`<!-- commands: not run, … -->` in the README, `{/* commands: not run, … *\/}` in a guide). A
 * command of a form this file does not know how to run fails it, so none escapes.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadViews, type ViewEntry } from '../../src/sources/fixtures.ts';
import {
	bin,
	childEnv,
	freePort,
	ROOT,
	start,
	waitForUrl,
	type Started,
} from '../../support/processes.ts';
import { startStandInConsole, type StandInConsole } from '../../support/stand-in-console.ts';
import { schemaErrors, unknownFields } from '../support/kubernetes-objects.ts';
import type { KubernetesObject } from '../support/kustomize.ts';
import { kubectlBin } from '../tools.ts';

/** The languages a block of commands is written in. */
const SHELLS = new Set(['sh', 'shell', 'bash']);

/** Guides whose commands other tests hold: the settings reference, generated from src/sources/settings.ts. */
const HELD_ELSEWHERE = new Set(['settings.mdx']);

/** The console's address the guides write; the test puts a console on loopback in its place. */
const SHOWN_CONSOLE = 'https://console.intranet.example';

/** One shell block as a file shows it. */
interface Block {
	file: string;
	line: number;
	commands: string[];
	/** Why it is not run, when it is marked so. */
	notRun: string | undefined;
}

/** The shell blocks of a Markdown or MDX text, each with its commands and its mark. */
function shellBlocks(file: string, text: string): Block[] {
	const lines = text.split('\n');
	const blocks: Block[] = [];
	for (let index = 0; index < lines.length; index += 1) {
		const fence = /^```(\w*)/.exec(lines[index] ?? '');
		if (!fence) continue;
		const end = lines.findIndex((line, at) => at > index && line.startsWith('```'));
		const body = lines.slice(index + 1, end);
		if (SHELLS.has(fence[1] ?? '')) {
			let before = index - 1;
			while (before >= 0 && lines[before]?.trim() === '') before -= 1;
			const mark = /^(?:<!--|\{\/\*) commands: not run, (.+?) (?:-->|\*\/\})$/.exec(
				lines[before] ?? '',
			);
			blocks.push({ file, line: index + 1, commands: commandsOf(body), notRun: mark?.[1] });
		}
		index = end;
	}
	return blocks;
}

/** A block's commands: continued lines joined, comments and blank lines left out. */
function commandsOf(body: readonly string[]): string[] {
	return body
		.join('\n')
		.replace(/\\\n\s*/g, '')
		.split('\n')
		.map((line) => line.replace(/(^|\s+)#.*$/, '').trim())
		.filter(Boolean);
}

/** The README and every guide this file runs the commands of. */
async function shownFiles(): Promise<{ file: string; text: string }[]> {
	const guides = (await readdir(path.join(ROOT, 'content/docs')))
		.filter((name) => name.endsWith('.mdx') && !HELD_ELSEWHERE.has(name))
		.map((name) => `content/docs/${name}`);
	return Promise.all(
		['README.md', ...guides].map(async (file) => ({
			file,
			text: await readFile(path.join(ROOT, file), 'utf8'),
		})),
	);
}

/** npm's own commands the README names beside the project's scripts. */
const NPM_OWN = new Set(['ci', 'install']);

/** `npm run mock`, after variables set for it. */
const MOCK = /^((?:[A-Z_]+=(?:'[^']*'|\S+) )*)npm run mock$/;
/** `npm run conform` with its keys in CONFORM_KEYS. */
const CONFORM = /^CONFORM_KEYS=\S+ npm run conform -- .+$/;
/** The deploying guide's render of a kustomization into console-portal.yaml. */
const RENDER =
	/^kubectl kustomize --load-restrictor=LoadRestrictionsNone deploy\/(kubernetes|kubernetes-intranet) > console-portal\.yaml$/;
/** A look at what was rendered. */
const LOOK = /^grep -n '[^']+' console-portal\.yaml$/;
/** A new host written into team.yaml (the guide's move to another host). */
const TEAM_HOST =
	/^sed -i 's\/\^ {2}host: \.\*\/ {2}host: ([a-z0-9.-]+)\/' deploy\/kubernetes-intranet\/team\.yaml$/;
/** The deploying guide's commands this file runs, in a copy of the checkout. */
const DEPLOYING = [RENDER, LOOK, TEAM_HOST];

let views: ViewEntry[];
let standIn: StandInConsole;
let mock: Started;
let mockBase: string;
let blocks: Block[];
const started: Started[] = [];

beforeAll(async () => {
	views = await loadViews(path.join(ROOT, 'content/views'));
	standIn = await startStandInConsole(views);
	const port = await freePort();
	mockBase = `http://127.0.0.1:${port}`;
	mock = start(bin('node'), ['mock/cli.ts'], { env: { MOCK_PORT: String(port), MOCK_LOG: 'off' } });
	started.push(mock);
	await waitForUrl(`${mockBase}/readyz`, mock);
	blocks = (await shownFiles()).flatMap(({ file, text }) => shellBlocks(file, text));
}, 60_000);

afterAll(async () => {
	await Promise.all(started.map((process) => process.stop()));
	await standIn?.close();
});

/** Runs a command with sh from the repository, as a reader types it; its exit code and output. */
function runShown(
	command: string,
	env: NodeJS.ProcessEnv,
	cwd = ROOT,
): Promise<{ code: number | null; output: string }> {
	return new Promise((resolve) => {
		const child = spawn('sh', ['-c', command], { cwd, env: childEnv(env) });
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.on('close', (code) => resolve({ code, output }));
	});
}

/** A directory key of each of the first two views. */
function twoKeys(): string[] {
	return views.slice(0, 2).map(({ view }) => view.users[0]?.apiKey ?? '');
}

describe('the README', () => {
	it('fits on one screen: at most 150 lines, none over 200 characters', async () => {
		const lines = (await readFile(path.join(ROOT, 'README.md'), 'utf8')).trimEnd().split('\n');
		expect(lines.length).toBeLessThanOrEqual(150);
		expect(lines.filter((line) => line.length > 200)).toEqual([]);
	});

	it('names only commands package.json has', async () => {
		const readme = await readFile(path.join(ROOT, 'README.md'), 'utf8');
		const scripts = Object.keys(
			(
				JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as {
					scripts: Record<string, string>;
				}
			).scripts,
		);
		const named = [...readme.matchAll(/`npm (?:run )?([\w:<>-]+)`/g)].map(
			(match) => match[1] ?? '',
		);
		// The commands table's own short forms: `check`, `test:e2e`, `bench:<name>`.
		for (const row of readme.split('\n').filter((line) => line.startsWith('| `npm'))) {
			const cell = row.split(' | ')[0] ?? '';
			named.push(
				...[...cell.matchAll(/`(?:npm (?:run )?)?([\w:<>-]+)`/g)].map((match) => match[1] ?? ''),
			);
		}
		expect(named.length).toBeGreaterThan(10);
		const unknown = named.filter((name) =>
			name.endsWith('<name>')
				? !scripts.some((script) => script.startsWith(name.replace('<name>', '')))
				: !scripts.includes(name) && !NPM_OWN.has(name),
		);
		expect(unknown).toEqual([]);
	});

	it('says where every guide is, in the portal and in content/docs/', async () => {
		const readme = await readFile(path.join(ROOT, 'README.md'), 'utf8');
		const guides = (await readdir(path.join(ROOT, 'content/docs'))).filter((name) =>
			name.endsWith('.mdx'),
		);
		expect(guides.length).toBeGreaterThan(10);
		for (const guide of guides) {
			const id = guide.replace(/\.mdx$/, '');
			expect(readme, id).toContain(`\`/docs/${id}/\``);
			expect(readme, id).toContain(`(content/docs/${guide})`);
		}
		expect(readme).toContain('`/docs/settings/`');
	});
});

describe('the commands the README and the guides show', () => {
	it('are each of a form this file runs, or marked as not run with the reason', () => {
		expect(blocks.length).toBeGreaterThan(5);
		const unknown = blocks
			.filter(({ notRun }) => notRun === undefined)
			.flatMap(({ file, line, commands }) =>
				commands
					.filter(
						(command) =>
							!MOCK.test(command) &&
							!CONFORM.test(command) &&
							!(
								file === 'content/docs/deploying.mdx' &&
								DEPLOYING.some((form) => form.test(command))
							),
					)
					.map((command) => `${file}:${line}: ${command}`),
			);
		expect(unknown).toEqual([]);
		// What is not run, and why: a new one is a decision, made here.
		expect(
			blocks
				.filter(({ notRun }) => notRun !== undefined)
				.map(({ file, commands }) => `${file}: ${commands.join(' ; ')}`)
				.sort(),
		).toEqual([
			'README.md: npm ci && npm start',
			'README.md: npm test',
			'content/docs/deploying.mdx: IMAGE_REPOSITORY=registry.example/team npm run image ; buildah push registry.example/team/console-portal-web:0.1.0 ; buildah push registry.example/team/console-portal-mock:0.1.0',
			'content/docs/deploying.mdx: buildah push localhost/console-portal-web:0.1.0 oci-archive:console-portal-web.tar ; podman load -i console-portal-web.tar',
			'content/docs/deploying.mdx: kubectl apply -n console-portal -f console-portal.yaml ; kubectl rollout status -n console-portal deployment/console-portal-web',
			'content/docs/deploying.mdx: kubectl create namespace console-portal ; kubectl apply -n console-portal -f console-portal.yaml',
			'content/docs/deploying.mdx: kubectl create namespace console-portal ; kubectl create secret tls console-portal-tls -n console-portal --cert=portal.crt --key=portal.key ; kubectl apply -n console-portal -f console-portal.yaml',
			'content/docs/deploying.mdx: npm run image ; npm run image -- --local-base',
			'content/docs/deploying.mdx: podman network create console-portal ; podman run -d --read-only --network console-portal --name console-portal-mock -e MOCK_ALLOWED_HOSTS=portal.intranet.example localhost/console-portal-mock:0.1.0 ; podman run -d --read-only --network console-portal -p 8080:8080 -e PORTAL_URL=https://portal.intranet.example -e PORTAL_MOCK_URL=/ -e MOCK_UPSTREAM=http://console-portal-mock:4010 localhost/console-portal-web:0.1.0',
			'content/docs/deploying.mdx: podman run --rm --read-only -p 8080:8080 localhost/console-portal-web:0.1.0 ; podman run --rm --read-only -p 4010:4010 localhost/console-portal-mock:0.1.0',
			'content/docs/deploying.mdx: podman run -d --read-only -p 4010:4010 -e MOCK_ALLOWED_HOSTS=mock.intranet.example -e MOCK_ALLOWED_ORIGINS=https://portal.intranet.example localhost/console-portal-mock:0.1.0 ; podman run -d --read-only -p 8080:8080 -e PORTAL_URL=https://portal.intranet.example -e PORTAL_MOCK_URL=https://mock.intranet.example localhost/console-portal-web:0.1.0',
			'content/docs/developing.mdx: npm run verify',
			'content/docs/developing.mdx: npm test',
			'content/docs/getting-started.mdx: npm ci ; npm start',
		]);
	});

	it('that start the mock (npm run mock, with its variables) each start it and answer /readyz', async () => {
		const shown = new Set(
			blocks
				.filter(({ notRun }) => notRun === undefined)
				.flatMap(({ commands }) => commands)
				.filter((command) => MOCK.test(command)),
		);
		expect(shown).toContain('npm run mock');
		expect([...shown].some((command) => command.startsWith('MOCK_UPSTREAM='))).toBe(true);
		for (const command of shown) {
			const port = await freePort();
			const run = start('sh', ['-c', command.replaceAll(SHOWN_CONSOLE, standIn.url)], {
				env: { MOCK_PORT: String(port) },
			});
			started.push(run);
			const ready = `http://127.0.0.1:${port}/readyz`;
			await waitForUrl(ready, run, 60_000);
			await expect.poll(async () => (await fetch(ready)).status, { timeout: 20_000 }).toBe(200);
			await run.stop();
		}
	}, 300_000);

	it('that run npm run conform exit 0 against this mock, with a fixture’s keys, and write their reports', async () => {
		const shown = blocks
			.filter(({ notRun }) => notRun === undefined)
			.flatMap(({ commands }) => commands)
			.filter((command) => CONFORM.test(command));
		expect(shown.length).toBeGreaterThan(0);
		for (const command of shown) {
			const reports = [...command.matchAll(/--(?:junit|markdown) (\S+)/g)].map(
				(match) => match[1] ?? '',
			);
			try {
				const { code, output } = await runShown(
					command.replace('<key>,<key>', twoKeys().join(',')).replaceAll(SHOWN_CONSOLE, mockBase),
					{},
				);
				expect(code, `${command}\n${output}`).toBe(0);
				for (const report of reports)
					expect(existsSync(path.join(ROOT, report)), report).toBe(true);
			} finally {
				await Promise.all(reports.map((report) => rm(path.join(ROOT, report), { force: true })));
			}
		}
	}, 120_000);

	it('that render the Kubernetes manifests run in a copy of the checkout with the tests’ kubectl, each render valid and following team.yaml’s host', async () => {
		const shown = blocks.filter(
			({ file, notRun }) => file === 'content/docs/deploying.mdx' && notRun === undefined,
		);
		const commands = shown.flatMap((block) => block.commands);
		expect(commands.filter((command) => RENDER.test(command))).toHaveLength(3);
		expect(commands.some((command) => TEAM_HOST.test(command))).toBe(true);
		const checkout = await mkdtemp(path.join(os.tmpdir(), 'console-portal-guide-'));
		try {
			for (const folder of ['deploy/kubernetes', 'deploy/kubernetes-intranet', 'content/views']) {
				await cp(path.join(ROOT, folder), path.join(checkout, folder), { recursive: true });
			}
			const team = await readFile(path.join(ROOT, 'deploy/kubernetes-intranet/team.yaml'), 'utf8');
			let host = /^ {2}host: (\S+)$/m.exec(team)?.[1];
			const env = {
				PATH: `${path.dirname(kubectlBin())}${path.delimiter}${process.env['PATH'] ?? ''}`,
			};
			for (const command of commands) {
				const { code, output } = await runShown(command, env, checkout);
				expect(code, `${command}\n${output}`).toBe(0);
				host = TEAM_HOST.exec(command)?.[1] ?? host;
				const render = RENDER.exec(command);
				if (!render) continue;
				const objects = parseAllDocuments(
					await readFile(path.join(checkout, 'console-portal.yaml'), 'utf8'),
				).map((document) => document.toJS() as KubernetesObject);
				expect(schemaErrors(objects), command).toEqual([]);
				expect(unknownFields(objects), command).toEqual([]);
				const ingress = objects.find((object) => object.kind === 'Ingress') as
					{ spec: { rules: { host: string }[] } } | undefined;
				expect(
					ingress?.spec.rules.map((rule) => rule.host),
					command,
				).toEqual(render[1] === 'kubernetes-intranet' ? [host] : undefined);
			}
			expect(host).toBe('docs.intranet.example');
		} finally {
			await rm(checkout, { recursive: true, force: true });
		}
	}, 120_000);
});

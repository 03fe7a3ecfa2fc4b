/**
 * `npm run bench:web-start`: what the web image's start adds by reading the team's PORTAL_URL and
 * PORTAL_MOCK_URL (deploy/web-image/settings.sh), at 8 views (content/views) and at 10,000
 * generated ones. Each round starts the image's entry point (start.sh, Debian's nginx on loopback,
 * as tests/support/web-image.ts runs it) over a build with the image's stand-in addresses, until a
 * view page answers with the team's mock in it; then nginx alone on the same configuration without
 * the replacements, until the same page answers. The difference is the start time the team's
 * settings add. Since the replacements are made as nginx answers, the table also gives the time to
 * answer the largest file it rewrites (openapi.json) with and without them. Writes
 * bench/results/web-start.{md,json}.
 */
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildPortalAsync } from '../support/build.ts';
import { freePort, ROOT, start, type Started } from '../support/processes.ts';
import { writeViewSet } from '../support/view-sets.ts';
import { STAND_IN_ADDRESSES } from '../scripts/lib/images.ts';
import { folderBytes } from './lib/build-measure.ts';
import { nginxInstalled, startEntryPoint, webImageFolder } from '../support/web-image.ts';

const COUNTS = [8, 10_000] as const;
const ROUNDS = 5;
const TEAM = {
	PORTAL_URL: 'https://portal.team-a.example',
	PORTAL_MOCK_URL: 'https://mock.team-a.example',
};
const WORK = path.join(ROOT, 'node_modules', '.cache', 'bench-web-start');
const BUDGET_S = 5;

/** Milliseconds until `url` answers 200 with `text` in its body, asked every 2 ms. */
async function answered(
	url: string,
	text: string,
	since: number,
	server: Started,
): Promise<number> {
	for (;;) {
		if (server.child.exitCode !== null) throw new Error(`nginx exited:\n${server.output()}`);
		try {
			const response = await fetch(url, { headers: { host: 'portal.team-a.example' } });
			if (response.status === 200 && (await response.text()).includes(text)) {
				return performance.now() - since;
			}
		} catch {
			// Not listening yet: asked again in 2 ms.
		}
		await new Promise((resolve) => setTimeout(resolve, 2));
	}
}

/** Milliseconds to fetch one file whole, the median of five. */
async function fetchTime(url: string): Promise<number> {
	const times: number[] = [];
	for (let round = 0; round < 5; round += 1) {
		const started = performance.now();
		const response = await fetch(url, { headers: { host: 'portal.team-a.example' } });
		await response.arrayBuffer();
		times.push(performance.now() - started);
	}
	return median(times);
}

/** The middle value. */
function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

interface Row {
	views: number;
	distMB: number;
	withSettingsMs: number;
	plainMs: number;
	addedMs: number;
	contractMB: number;
	contractWithMs: number;
	contractPlainMs: number;
}

/** Measures one build: ROUNDS starts each way. */
async function measure(views: number, dist: string): Promise<Row> {
	const page = `/views/${views === 8 ? 'production' : 'production-ap-northeast'}/`;
	const withSettings: number[] = [];
	const plain: number[] = [];
	let contractWith = 0;
	let contractPlain = 0;
	for (let round = 0; round < ROUNDS; round += 1) {
		const { folder, script, run } = await webImageFolder(dist);
		try {
			const port = await freePort();
			let since = performance.now();
			const web = startEntryPoint(folder, script, { PORTAL_PORT: String(port), ...TEAM });
			withSettings.push(
				await answered(`http://127.0.0.1:${port}${page}`, TEAM.PORTAL_MOCK_URL, since, web),
			);
			if (round === 0) contractWith = await fetchTime(`http://127.0.0.1:${port}/openapi.json`);
			await web.stop();
			// nginx alone on what start.sh wrote, less the replacements.
			const site = path.join(run, 'console-portal.conf');
			const written = await readFile(site, 'utf8');
			await writeFile(
				site,
				// The wrapper moves `listen <port>` onto 127.0.0.1 again as it starts nginx.
				written
					.replace(/^\s*include \S*console-portal-settings\.conf;$/gm, '')
					.replaceAll('listen 127.0.0.1:', 'listen '),
			);
			since = performance.now();
			const nginx = start(path.join(folder, 'bin', 'nginx'), ['-e', 'stderr', '-g', 'daemon off;']);
			plain.push(
				await answered(
					`http://127.0.0.1:${port}${page}`,
					'mock.console-portal.invalid',
					since,
					nginx,
				),
			);
			if (round === 0) contractPlain = await fetchTime(`http://127.0.0.1:${port}/openapi.json`);
			await nginx.stop();
		} finally {
			await rm(folder, { recursive: true, force: true });
		}
	}
	const withSettingsMs = median(withSettings);
	const plainMs = median(plain);
	return {
		views,
		distMB: (await folderBytes(dist)) / 1e6,
		withSettingsMs,
		plainMs,
		addedMs: withSettingsMs - plainMs,
		contractMB: (await stat(path.join(dist, 'openapi.json'))).size / 1e6,
		contractWithMs: contractWith,
		contractPlainMs: contractPlain,
	};
}

await nginxInstalled();
await mkdir(WORK, { recursive: true });
const rows: Row[] = [];
for (const views of COUNTS) {
	const dist = path.join(WORK, `dist-${views}`);
	let viewsDir: string | undefined;
	if (views !== 8) {
		viewsDir = path.join(WORK, `views-${views}`);
		await writeViewSet(viewsDir, views, 'distinct');
	}
	console.error(`Building ${views} views with the image's stand-in addresses…`);
	const built = await buildPortalAsync(dist, viewsDir, { ...STAND_IN_ADDRESSES }, 1_800_000);
	if (built.status !== 0) throw new Error(built.output);
	rows.push(await measure(views, dist));
	console.error(JSON.stringify(rows.at(-1)));
}
await rm(WORK, { recursive: true, force: true });

const ms = (value: number): string => `${value.toFixed(1)} ms`;
const largest = rows.at(-1);
const lines = [
	'# Web image start with a team’s settings',
	'',
	`${new Date().toISOString()}, ${os.availableParallelism()} cores (${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.version}; nginx on loopback, ${ROUNDS} starts each way, medians. Taken on a shared machine under load: compare the columns of one row, not across runs.`,
	'',
	'| views | dist | start to first page, with the team’s settings | nginx alone on the same files | start time added | openapi.json | answered with the replacements | answered as built |',
	'|-------|------|------|------|------|------|------|------|',
	...rows.map(
		(row) =>
			`| ${row.views.toLocaleString('en')} | ${row.distMB.toFixed(1)} MB | ${ms(row.withSettingsMs)} | ${ms(row.plainMs)} | ${ms(row.addedMs)} | ${row.contractMB.toFixed(1)} MB | ${ms(row.contractWithMs)} | ${ms(row.contractPlainMs)} |`,
	),
	'',
	`Budget: under ${BUDGET_S} s added at 10,000 views: ${largest && largest.addedMs < BUDGET_S * 1000 ? 'met' : 'MISSED'}. The start reads no page: it checks the two addresses and writes nginx's replacements (deploy/web-image/settings.sh), so what it adds does not grow with the views; nginx makes the replacements as it answers, which the last two columns measure on the largest file it rewrites.`,
	'',
];
await writeFile(path.join(ROOT, 'bench/results/web-start.md'), lines.join('\n'));
await writeFile(
	path.join(ROOT, 'bench/results/web-start.json'),
	`${JSON.stringify({ date: new Date().toISOString(), rounds: ROUNDS, rows }, null, '\t')}\n`,
);
console.log(lines.join('\n'));

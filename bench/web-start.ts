/**
 * `npm run bench:web-start`: what the web image's start adds by reading the team's PORTAL_URL and
 * PORTAL_MOCK_URL (deploy/web-image/settings.sh), at 8 views (content/views) and at 10,000
 * generated ones. Each round starts the image's entry point (start.sh, Debian's nginx on loopback,
 * as support/web-image.ts runs it) over a build with the image's stand-in addresses, until a view
 * page answers with the team's mock in it; and nginx alone on the same configuration without the
 * replacements, until the same page answers. The two take turns going first (rotated rounds), so
 * that a change of the machine's load falls on both. The difference is the start time the team's
 * settings add. The start rewrites no file: nginx replaces the stand-ins as it answers, so the
 * table gives the files that hold one and their bytes, and the time to answer the largest of them
 * (openapi.json) with and without the replacements. The builds are kept in BENCH_WEB_START_CACHE
 * (a folder under the system's temporary one by default; delete it to build again, as after a
 * change of the pages). Writes bench/results/web-start.md.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildPortalAsync } from '../support/build.ts';
import { freePort, start, type Started } from '../support/processes.ts';
import { writeViewSet } from '../support/view-sets.ts';
import { STAND_IN_ADDRESSES } from '../scripts/lib/images.ts';
import { folderBytes } from './lib/build-measure.ts';
import { RESULTS_DIR, runLine, verdict } from './lib/report.ts';
import { nginxInstalled, startEntryPoint, webImageFolder } from '../support/web-image.ts';

const COUNTS = [8, 10_000] as const;
const ROUNDS = 5;
const TEAM = {
	PORTAL_URL: 'https://portal.team-a.example',
	PORTAL_MOCK_URL: 'https://mock.team-a.example',
};
const WORK =
	process.env['BENCH_WEB_START_CACHE'] ?? path.join(os.tmpdir(), 'console-portal-web-start');
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

/** The stand-ins the image's pages are built with, in any form start.sh's nginx replaces. */
const STAND_IN = /console-portal\.invalid|console-portal-mock-base/;

/** What nginx rewrites as it answers: sub_filter's types (deploy/web-image/settings.sh). */
const REWRITTEN = /\.(html|md|txt|json|yaml)$/;

/** The files of a build that hold a stand-in, and their bytes: what nginx rewrites as it answers. */
async function standInFiles(dist: string): Promise<{ files: number; bytes: number }> {
	let files = 0;
	let bytes = 0;
	for (const entry of await readdir(dist, { recursive: true, withFileTypes: true })) {
		if (!entry.isFile() || !REWRITTEN.test(entry.name)) continue;
		const content = await readFile(path.join(entry.parentPath, entry.name), 'latin1');
		if (!STAND_IN.test(content)) continue;
		files += 1;
		bytes += content.length;
	}
	return { files, bytes };
}

/** The load average over the last minute. */
const loadNow = (): number => os.loadavg()[0] ?? Number.NaN;

interface Row {
	views: number;
	distMB: number;
	standInFiles: number;
	standInMB: number;
	withSettingsMs: number;
	plainMs: number;
	addedMs: number;
	contractMB: number;
	contractWithMs: number;
	contractPlainMs: number;
	loadLow: number;
	loadHigh: number;
}

/** One start of the entry point with the team's settings: ms to the page, and the folder's run dir. */
async function startWithSettings(
	page: string,
	dist: string,
	contract: boolean,
): Promise<{ ms: number; contractMs: number; site: string; folder: string; port: number }> {
	const { folder, script, run } = await webImageFolder(dist);
	const port = await freePort();
	const since = performance.now();
	const web = startEntryPoint(folder, script, { PORTAL_PORT: String(port), ...TEAM });
	try {
		const ms = await answered(`http://127.0.0.1:${port}${page}`, TEAM.PORTAL_MOCK_URL, since, web);
		const contractMs = contract ? await fetchTime(`http://127.0.0.1:${port}/openapi.json`) : 0;
		return { ms, contractMs, site: path.join(run, 'console-portal.conf'), folder, port };
	} finally {
		await web.stop();
	}
}

/** nginx alone on what start.sh wrote, less the replacements: ms to the same page. */
async function startPlain(
	page: string,
	folder: string,
	site: string,
	port: number,
	contract: boolean,
): Promise<{ ms: number; contractMs: number }> {
	const written = await readFile(site, 'utf8');
	await writeFile(
		site,
		// The wrapper moves `listen <port>` onto 127.0.0.1 again as it starts nginx.
		written
			.replace(/^\s*include \S*console-portal-settings\.conf;$/gm, '')
			.replaceAll('listen 127.0.0.1:', 'listen '),
	);
	const since = performance.now();
	const nginx = start(path.join(folder, 'bin', 'nginx'), ['-e', 'stderr', '-g', 'daemon off;']);
	try {
		const ms = await answered(
			`http://127.0.0.1:${port}${page}`,
			'mock.console-portal.invalid',
			since,
			nginx,
		);
		const contractMs = contract ? await fetchTime(`http://127.0.0.1:${port}/openapi.json`) : 0;
		return { ms, contractMs };
	} finally {
		await nginx.stop();
	}
}

/**
 * Measures one build: ROUNDS starts each way, taking turns at going first. nginx alone needs the
 * configuration the entry point writes, so a round that starts with it has the entry point write
 * it first (untimed) in a folder of its own.
 */
async function measure(views: number, dist: string): Promise<Row> {
	const page = `/views/${views === 8 ? 'production' : 'production-ap-northeast'}/`;
	const withSettings: number[] = [];
	const plain: number[] = [];
	const loads: number[] = [loadNow()];
	let contractWith = 0;
	let contractPlain = 0;
	for (let round = 0; round < ROUNDS; round += 1) {
		const contract = round === 0;
		const folders: string[] = [];
		try {
			if (round % 2 === 0) {
				const first = await startWithSettings(page, dist, contract);
				folders.push(first.folder);
				withSettings.push(first.ms);
				if (contract) contractWith = first.contractMs;
				const second = await startPlain(page, first.folder, first.site, first.port, contract);
				plain.push(second.ms);
				if (contract) contractPlain = second.contractMs;
			} else {
				const written = await startWithSettings(page, dist, false);
				folders.push(written.folder);
				plain.push((await startPlain(page, written.folder, written.site, written.port, false)).ms);
				const second = await startWithSettings(page, dist, false);
				folders.push(second.folder);
				withSettings.push(second.ms);
			}
		} finally {
			await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
		}
		loads.push(loadNow());
	}
	const withSettingsMs = median(withSettings);
	const plainMs = median(plain);
	const standIns = await standInFiles(dist);
	return {
		views,
		distMB: (await folderBytes(dist)) / 1e6,
		standInFiles: standIns.files,
		standInMB: standIns.bytes / 1e6,
		withSettingsMs,
		plainMs,
		addedMs: withSettingsMs - plainMs,
		contractMB: (await stat(path.join(dist, 'openapi.json'))).size / 1e6,
		contractWithMs: contractWith,
		contractPlainMs: contractPlain,
		loadLow: Math.min(...loads),
		loadHigh: Math.max(...loads),
	};
}

await nginxInstalled();
await mkdir(WORK, { recursive: true });
const rows: Row[] = [];
for (const views of COUNTS) {
	const dist = path.join(WORK, `dist-${views}`);
	if (existsSync(path.join(dist, 'index.html'))) {
		console.error(`Using the ${views}-view build kept in ${dist}.`);
	} else {
		let viewsDir: string | undefined;
		if (views !== 8) {
			viewsDir = path.join(WORK, `views-${views}`);
			await writeViewSet(viewsDir, views);
		}
		console.error(`Building ${views} views with the image's stand-in addresses into ${dist}…`);
		const built = await buildPortalAsync(dist, viewsDir, { ...STAND_IN_ADDRESSES }, 3_600_000);
		if (built.status !== 0) throw new Error(built.output);
	}
	rows.push(await measure(views, dist));
	console.error(JSON.stringify(rows.at(-1)));
}

const ms = (value: number): string => `${value.toFixed(1)} ms`;
const largest = rows.at(-1);
const lines = [
	'# Web image start with a team’s settings',
	'',
	runLine(),
	'',
	`Nginx on loopback, ${ROUNDS} rotated rounds of a start each way, medians (\`npm run bench:web-start\`). Taken on a machine shared with other builds (the load column): compare the columns of one row, not across runs.`,
	'',
	'| views | dist | files holding a stand-in (nginx rewrites them as it answers) | their bytes | files rewritten at start | start to first page, with the team’s settings | nginx alone on the same files | start time added | load average (1 min) | openapi.json | answered with the replacements | answered as built |',
	'|-------|------|------|------|------|------|------|------|------|------|------|------|',
	...rows.map(
		(row) =>
			`| ${row.views.toLocaleString('en')} | ${row.distMB.toFixed(1)} MB | ${row.standInFiles.toLocaleString('en')} | ${row.standInMB.toFixed(1)} MB | 0 | ${ms(row.withSettingsMs)} | ${ms(row.plainMs)} | ${ms(row.addedMs)} | ${row.loadLow.toFixed(1)}–${row.loadHigh.toFixed(1)} | ${row.contractMB.toFixed(1)} MB | ${ms(row.contractWithMs)} | ${ms(row.contractPlainMs)} |`,
	),
	'',
	`Budget: under ${BUDGET_S} s added at 10,000 views: ${verdict(largest?.views === 10_000 ? largest.addedMs < BUDGET_S * 1000 : undefined)}. The start reads no page: start.sh checks the two addresses and writes nginx's replacements (deploy/web-image/settings.sh), so what it adds does not grow with the views; nginx makes the replacements as it answers each file that holds a stand-in, which the last two columns measure on the largest of them. The search index (pagefind/) holds no address and is served as built.`,
	'',
];
await writeFile(path.join(RESULTS_DIR, 'web-start.md'), lines.join('\n'));
console.log(lines.join('\n'));

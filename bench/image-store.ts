/**
 * `node bench/image-store.ts`: what `npm run image -- --local-base` leaves in buildah's image store,
 * build after build. Runs it BENCH_IMAGE_BUILDS times in a row (3 by default), and before the first
 * and after each lists `buildah images --all`: every image, the untagged ones among them, the sizes
 * buildah gives and the store's folder on disk. A build over BENCH_IMAGE_MINUTES (8 by default)
 * ends the series after the second. The images it named are removed at the end unless they were
 * there before (BENCH_KEEP_IMAGES=1 keeps them). Other builds on the same machine change the
 * store too: CONTAINERS_STORAGE_CONF gives buildah a store of its own for the measurement, into
 * which the local Debian base is copied first (`buildah push localhost/debian-base:bookworm
 * containers-storage:[overlay@<graphroot>+<runroot>]localhost/debian-base:bookworm`). Writes
 * bench/results/image-store.md. It exits 1, naming the build, if a build leaves an untagged image
 * or makes the base again after the first: the check of issue 46's two builds in a row, kept out
 * of `npm test` for its minutes per build.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { ROOT } from '../support/processes.ts';
import { RESULTS_DIR, runLine } from './lib/report.ts';

const BUILDS = Number(process.env['BENCH_IMAGE_BUILDS'] ?? 3);
const MINUTES = Number(process.env['BENCH_IMAGE_MINUTES'] ?? 8);
const NAMES = ['localhost/console-portal-web', 'localhost/console-portal-mock'] as const;

const listedImage = z.object({
	id: z.string(),
	names: z.array(z.string()).nullable(),
	size: z.string(),
});

/** One look at the store. */
interface StoreState {
	images: number;
	untagged: string[];
	/** The sum of the sizes `buildah images --all` gives (layers shared by images counted each time). */
	listedMB: number;
	/** The store's folder on disk (du), which counts a shared layer once. */
	diskMB: number;
	names: string[];
}

/** Megabytes from a size as buildah prints it (77.6 MB, 1.2 GB, 512 kB). */
function megabytes(size: string): number {
	const match = /^([\d.]+)\s*([kMG]?B)$/.exec(size.trim());
	const units: Record<string, number> = { B: 1e-6, kB: 1e-3, MB: 1, GB: 1e3 };
	return match ? Number(match[1]) * (units[match[2] ?? 'MB'] ?? 1) : Number.NaN;
}

/** What the store holds now. */
function storeState(): StoreState {
	const images = z
		.array(listedImage)
		.parse(
			JSON.parse(execFileSync('buildah', ['images', '--all', '--json'], { encoding: 'utf8' })),
		);
	const disk = Number(
		execFileSync('du', ['-sb', graphRoot()], { encoding: 'utf8' }).split('\t')[0],
	);
	return {
		images: images.length,
		untagged: images.filter((image) => !image.names?.length).map((image) => image.id),
		listedMB: images.reduce((sum, image) => sum + megabytes(image.size), 0),
		diskMB: disk / 1e6,
		names: images.flatMap((image) => image.names ?? []),
	};
}

/** The folder of buildah's image store. */
const graphRoot = (): string =>
	execFileSync('buildah', ['info', '--format', '{{.store.GraphRoot}}'], {
		encoding: 'utf8',
	}).trim();

/** The load average over the last minute, as uptime gives it. */
const load = (): string => os.loadavg()[0]?.toFixed(1) ?? '?';

const before = storeState();
const ours = (state: StoreState): string[] =>
	state.names.filter((name) => NAMES.some((prefix) => name.startsWith(`${prefix}:`)));
const heldBefore = ours(before);
const rows: string[] = [
	`| before | – | – | ${load()} | ${before.images} | ${before.untagged.length} | ${before.listedMB.toFixed(1)} MB | ${before.diskMB.toFixed(1)} MB |`,
];
const notes: string[] = [];
/** What a build did that it must not: leave an untagged stage, or make the base again. */
const failures: string[] = [];
for (let build = 1; build <= BUILDS; build += 1) {
	const loadBefore = load();
	const started = performance.now();
	const run = spawnSync('npm', ['run', 'image', '--', '--local-base'], {
		cwd: ROOT,
		encoding: 'utf8',
		env: {
			...process.env,
			PATH: `${path.join(ROOT, 'node_modules', '.bin')}:${process.env['PATH'] ?? ''}`,
		},
	});
	const seconds = (performance.now() - started) / 1000;
	if (run.status !== 0) throw new Error(`npm run image failed:\n${run.stdout}${run.stderr}`);
	const base = /Making localhost\/debian-base/.test(run.stderr) ? 'made' : 'reused';
	const after = storeState();
	const left = after.untagged.filter((id) => !before.untagged.includes(id));
	rows.push(
		`| build ${build} | ${seconds.toFixed(0)} s | ${base} | ${loadBefore} | ${after.images} | ${after.untagged.length}${left.length > 0 ? ` (new: ${left.join(', ')})` : ''} | ${after.listedMB.toFixed(1)} MB | ${after.diskMB.toFixed(1)} MB |`,
	);
	console.error(rows.at(-1));
	if (left.length > 0) failures.push(`build ${build} left untagged image(s): ${left.join(', ')}`);
	if (base === 'made' && build > 1) failures.push(`build ${build} made the Debian base again`);
	if (seconds > MINUTES * 60 && build >= 2 && build < BUILDS) {
		notes.push(
			`Build ${build} took over ${MINUTES} minutes under load: the series stopped after it.`,
		);
		break;
	}
}
const lines = [
	'# The image store after `npm run image` builds in a row',
	'',
	runLine(),
	'',
	`${os.availableParallelism()} cores, \`npm run image -- --local-base\` as root with buildah 1.28 (\`node bench/image-store.ts\`), in the store at ${graphRoot()}. Load average (1 min) at each build's start in its column: the machine was shared, so the times are slow; the sizes are not.`,
	'',
	'| step | took | Debian base | load | images (--all) | untagged | sizes listed (shared layers counted per image) | store on disk (du) |',
	'|------|------|-------------|------|----------------|----------|------|------|',
	...rows,
	'',
	...notes,
	`The store held ${before.untagged.length} untagged image(s) before the first build, none of them this script's: they are counted in every row.`,
	'',
];
await writeFile(path.join(RESULTS_DIR, 'image-store.md'), lines.join('\n'));
console.log(lines.join('\n'));
if (process.env['BENCH_KEEP_IMAGES'] !== '1') {
	for (const name of ours(storeState())) {
		if (!heldBefore.includes(name)) execFileSync('buildah', ['rmi', name], { stdio: 'ignore' });
	}
}
// A check as well as a table: a build that leaves a stage behind or remakes the base fails the run.
for (const failure of failures) console.error(`image-store: ${failure}`);
if (failures.length > 0) process.exitCode = 1;

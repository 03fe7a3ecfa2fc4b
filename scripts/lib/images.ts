/**
 * The two images of `npm run image` (deploy/web.Containerfile, deploy/mock.Containerfile), shared
 * by the script and the image test: the local Debian base made with mmdebstrap and imported with
 * buildah, the mock bundled into one file, the context folder both Containerfiles read, the builds
 * themselves, and what an image weighs.
 */
import { execFile, spawn } from 'node:child_process';
import { constants } from 'node:fs';
import {
	copyFile,
	cp,
	mkdir,
	mkdtemp,
	readdir,
	readFile,
	rm,
	stat,
	writeFile,
} from 'node:fs/promises';
import os from 'node:os';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { MOCK_BUNDLE_OPTIONS } from '../../mock/bundle.ts';

/** The repository root. */
export const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** The base a team with a registry pulls: Debian bookworm's slim image. */
export const PUBLIC_BASE = 'docker.io/library/debian:bookworm-slim';

/** The base made here from Debian's packages, for machines with no image registry (CI). */
export const LOCAL_BASE = 'localhost/debian-base:bookworm';

/** Where the script keeps what it makes between runs: the context folder and the base's record. */
export const CACHE_DIR = path.join(ROOT, 'node_modules', '.cache', 'console-portal-image');

/** The two images, by the Containerfile each is built from. */
export const IMAGES = {
	web: 'deploy/web.Containerfile',
	mock: 'deploy/mock.Containerfile',
} as const;

/** One of the two images. */
export type ImageKind = keyof typeof IMAGES;

/**
 * What Debian's slim images leave out (debuerreotype's list): documentation but the copyright
 * files, manual pages, info pages, translations. dpkg keeps the rule, so packages the
 * Containerfiles install leave them out too.
 */
const SLIM_EXCLUDES = [
	'path-exclude=/usr/share/doc/*',
	'path-include=/usr/share/doc/*/copyright',
	'path-exclude=/usr/share/man/*',
	'path-exclude=/usr/share/info/*',
	'path-exclude=/usr/share/groff/*',
	'path-exclude=/usr/share/linda/*',
	'path-exclude=/usr/share/lintian/*',
	'path-exclude=/usr/share/locale/*',
];

const run = promisify(execFile);

/** Runs a command and returns what it printed; fails with the command and its output. */
export async function command(file: string, args: readonly string[]): Promise<string> {
	try {
		const { stdout } = await run(file, args, { maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' });
		return stdout;
	} catch (error) {
		const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
		throw new Error(`${file} ${args.join(' ')} failed:\n${stdout}${stderr}`.trim(), {
			cause: error,
		});
	}
}

/** The id of the image a name (or id) stands for, as buildah prints it. */
export async function imageId(image: string): Promise<string> {
	return command('buildah', ['inspect', '--type', 'image', '--format', '{{.FromImageID}}', image]);
}

/** Runs a long command, handing each chunk of its output to `log`; fails with its last lines. */
export async function streamed(
	file: string,
	args: readonly string[],
	log: (text: string) => void,
	env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
	const child = spawn(file, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
	let tail = '';
	const take = (chunk: Buffer): void => {
		const text = chunk.toString();
		tail = (tail + text).slice(-4000);
		log(text);
	};
	child.stdout.on('data', take);
	child.stderr.on('data', take);
	const code = await new Promise<number | null>((resolve, reject) => {
		child.once('error', reject);
		child.once('close', resolve);
	});
	if (code !== 0) throw new Error(`${file} ${args.join(' ')} exited with ${code}:\n${tail}`);
}

/** The tools the images need, each with the Debian package that has it. */
const TOOLS = [
	['/usr/bin/buildah', 'buildah'],
	['/usr/bin/mmdebstrap', 'mmdebstrap'],
] as const;

/** Fails naming the Debian packages to install when buildah or mmdebstrap is missing. */
export async function checkTools(): Promise<void> {
	const missing: string[] = [];
	for (const [file, pack] of TOOLS) {
		try {
			await stat(file);
		} catch {
			// stat throws for a file that is not there: its package is named among those to
			// install.
			missing.push(pack);
		}
	}
	if (missing.length > 0) {
		throw new Error(
			`The images need ${missing.join(' and ')}: apt-get install buildah podman mmdebstrap`,
		);
	}
}

/** Whether local storage holds an image of this name or id. */
export async function imageExists(name: string): Promise<boolean> {
	try {
		await command('buildah', ['inspect', '--type', 'image', '--format', '{{.FromImageID}}', name]);
		return true;
	} catch {
		// buildah inspect fails for a name it does not hold: no such image.
		return false;
	}
}

/** The local base's annotation naming the Debian packages it was made from (debianPackagesKey). */
const PACKAGES_ANNOTATION = 'org.console-portal.debian-packages';

/**
 * Which Debian packages a base made now would hold: a digest of the mirrors' signed release files
 * (each lists every package index's digest) and of how the base is made. '' when a mirror cannot be
 * read, so that a base is then kept by the day it was made, as before.
 */
async function debianPackagesKey(): Promise<string> {
	const hash = createHash('sha256');
	hash.update(JSON.stringify(SLIM_EXCLUDES));
	for (const source of debianSources()) {
		const [, mirror, suite] = source.split(' ');
		try {
			const response = await fetch(`${mirror}/dists/${suite}/InRelease`, {
				signal: AbortSignal.timeout(15_000),
			});
			if (!response.ok) return '';
			hash.update(await response.text());
		} catch {
			// An unreachable mirror tells nothing of its packages: the day's record decides.
			return '';
		}
	}
	return `sha256:${hash.digest('hex')}`;
}

/** The Debian mirrors the local base is made from (IMAGE_DEBIAN_MIRROR moves the main one). */
function debianSources(): string[] {
	const mirror = process.env['IMAGE_DEBIAN_MIRROR'] ?? 'http://deb.debian.org/debian';
	const security =
		process.env['IMAGE_DEBIAN_SECURITY_MIRROR'] ?? 'http://deb.debian.org/debian-security';
	return [
		`deb ${mirror} bookworm main`,
		`deb ${mirror} bookworm-updates main`,
		`deb ${security} bookworm-security main`,
	];
}

/**
 * Makes LOCAL_BASE: Debian bookworm's minimal package set (minbase, merged /usr, no perl), slimmed
 * as the public slim image is, as a tarball from mmdebstrap, imported with buildah as one layer. The
 * packages are today's, and every file's time is the start of today (UTC), so two bases made the
 * same day from the same mirror are the same image. One made today already is used as it is,
 * unless `force`, and so is one made from the same packages on another day or by another checkout
 * (its annotation names them: debianPackagesKey).
 */
export async function ensureLocalBase(
	log: (text: string) => void,
	force = false,
): Promise<{ made: boolean; seconds: number }> {
	const started = performance.now();
	const today = new Date().toISOString().slice(0, 10);
	const record = path.join(CACHE_DIR, `debian-base-${today}.id`);
	if (!force) {
		const id = await readFile(record, 'utf8').catch(() => '');
		const current = await imageId(LOCAL_BASE).catch(() => '');
		if (id.trim() !== '' && id.trim() === current.trim()) return { made: false, seconds: 0 };
	}
	const packages = await debianPackagesKey();
	if (!force && packages !== '') {
		// A base made from the same packages, by any checkout on this machine: its annotation says which.
		const stored = await command('buildah', [
			'inspect',
			'--type',
			'image',
			'--format',
			`{{index .ImageAnnotations "${PACKAGES_ANNOTATION}"}}`,
			LOCAL_BASE,
		]).catch(() => '');
		if (stored.trim() === packages) {
			await mkdir(CACHE_DIR, { recursive: true });
			await writeFile(record, (await imageId(LOCAL_BASE)).trim());
			return { made: false, seconds: (performance.now() - started) / 1000 };
		}
	}
	const epoch = String(Math.floor(Date.parse(`${today}T00:00:00Z`) / 1000));
	const folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-base-'));
	try {
		const tarball = path.join(folder, 'base.tar');
		log(`Making ${LOCAL_BASE} from Debian's packages of ${today} with mmdebstrap…\n`);
		await streamed(
			'mmdebstrap',
			[
				'--variant=minbase',
				'--quiet',
				'--hook-dir=/usr/share/mmdebstrap/hooks/merged-usr',
				...SLIM_EXCLUDES.map((rule) => `--dpkgopt=${rule}`),
				'bookworm',
				tarball,
				...debianSources(),
			],
			log,
			{ ...process.env, SOURCE_DATE_EPOCH: epoch },
		);
		const container = (await command('buildah', ['from', 'scratch'])).trim();
		try {
			await command('buildah', ['add', '--quiet', container, tarball, '/']);
			await command('buildah', [
				'config',
				'--env',
				'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
				'--cmd',
				'bash',
				container,
			]);
			await command('buildah', [
				'config',
				'--annotation',
				`${PACKAGES_ANNOTATION}=${packages}`,
				container,
			]);
			await command('buildah', [
				'commit',
				'--quiet',
				'--timestamp',
				epoch,
				'--identity-label=false',
				container,
				LOCAL_BASE,
			]);
		} finally {
			await command('buildah', ['rm', container]).catch(() => '');
		}
		const id = await imageId(LOCAL_BASE);
		await mkdir(CACHE_DIR, { recursive: true });
		await writeFile(record, id.trim());
		return { made: true, seconds: (performance.now() - started) / 1000 };
	} finally {
		await rm(folder, { recursive: true, force: true });
	}
}

/**
 * Bundles the mock's code (mock/main.ts, which `npm run mock` runs bundled too) and its
 * dependencies into one ES module, so the mock image needs no node_modules; the options every
 * bundle of the mock shares are mock/bundle.ts's. Not mock/cli.ts: it makes and keeps that bundle
 * with esbuild, which the image has no use for, and in the image each start tried to bundle again,
 * failed and fell back to the main.ts bundled beside it.
 * Prism gets the English faker only, as mock/prism-imports.ts arranges when the mock runs from
 * source, but bundled in: nothing lies beside the image's one file for the stand-ins
 * `npm run mock`'s bundle takes from mock/ at run time.
 */
export async function bundleMock(outFile: string): Promise<void> {
	await build({
		...MOCK_BUNDLE_OPTIONS,
		entryPoints: [path.join(ROOT, 'mock', 'main.ts')],
		outfile: outFile,
		legalComments: 'eof',
		minifyWhitespace: true,
		minifySyntax: true,
		logLevel: 'error',
		plugins: [
			{
				name: 'english-faker',
				setup(bundler) {
					bundler.onResolve({ filter: /^@faker-js\/faker$/ }, async (args) => {
						const english = await bundler.resolve('@faker-js/faker/locale/en', {
							resolveDir: args.resolveDir,
							kind: args.kind,
						});
						return english.errors.length > 0 ? { errors: english.errors } : { path: english.path };
					});
				},
			},
		],
	});
}

/** Where a context folder holds the mock's bundle (deploy/mock.Containerfile copies it from there). */
export const MOCK_BUNDLE = path.join('mock', 'console-portal-mock.mjs');

/**
 * Fills `folder` with what the two Containerfiles copy, at the paths they name: the built portal
 * (`dist/`), deploy/'s nginx files, the pinned Node, the mock's bundle, the contract and the
 * fixtures (`viewsDir`, content/views by default). `mockBundle`, a bundle an earlier call made
 * from the same source, is copied in place of bundling the mock again.
 */
export async function prepareContext(
	folder: string,
	distDir: string,
	viewsDir = path.join(ROOT, 'content', 'views'),
	mockBundle?: string,
): Promise<void> {
	await rm(folder, { recursive: true, force: true });
	await mkdir(path.join(folder, 'deploy', 'web-image'), { recursive: true });
	await mkdir(path.join(folder, 'content'), { recursive: true });
	await cp(distDir, path.join(folder, 'dist'), { recursive: true });
	for (const file of [
		'deploy/web.Containerfile',
		'deploy/mock.Containerfile',
		'deploy/console-portal.conf',
		'deploy/console-portal-headers.conf',
		'deploy/web-image/nginx.conf',
		'deploy/web-image/start.sh',
		'deploy/web-image/settings.sh',
		'openapi.yaml',
	]) {
		await copyFile(path.join(ROOT, file), path.join(folder, file));
	}
	const views = (await readdir(viewsDir)).filter((name) => name.endsWith('.json'));
	await mkdir(path.join(folder, 'content', 'views'));
	for (const name of views) {
		await copyFile(path.join(viewsDir, name), path.join(folder, 'content', 'views', name));
	}
	// The real file behind node_modules/.bin/node, the project's pinned Node.
	await copyFile(
		path.join(ROOT, 'node_modules', 'node', 'bin', 'node'),
		path.join(folder, 'node'),
		constants.COPYFILE_FICLONE,
	);
	const bundle = path.join(folder, MOCK_BUNDLE);
	if (mockBundle === undefined) await bundleMock(bundle);
	else {
		await mkdir(path.dirname(bundle), { recursive: true });
		await copyFile(mockBundle, bundle);
	}
}

/**
 * The addresses the web image's pages are built with, in place of a team's PORTAL_URL and
 * PORTAL_MOCK_URL: its start.sh has nginx write the team's in their place in every answer
 * (deploy/web-image/settings.sh names the same two).
 */
export const STAND_IN_ADDRESSES = {
	PORTAL_URL: 'https://portal.console-portal.invalid',
	PORTAL_MOCK_URL: 'https://mock.console-portal.invalid/console-portal-mock-base',
} as const;

/** What the labels of both images say about the source they were built from. */
export interface SourceFacts {
	/** Where the source lives (package.json's repository, else git's origin; IMAGE_SOURCE wins). */
	source: string;
	/** The commit ('unknown' without git). */
	revision: string;
	/** package.json's version. */
	version: string;
	/** The images' creation time and every file's, in seconds: see sourceDate. */
	epoch: number;
	/** Whether the work tree has changes the commit does not. */
	dirty: boolean;
	/** One line saying where the time came from, when it is not the commit's or SOURCE_DATE_EPOCH. */
	dateNote?: string;
}

/**
 * What goes into the images, beside node_modules: the portal's sources and settings, the mock's,
 * the contract, the fixtures and deploy/'s files. A copy without git is dated by its newest file.
 */
export const IMAGE_SOURCES = [
	'astro.config.mjs',
	'content',
	'deploy',
	'mock',
	'openapi.yaml',
	'package-lock.json',
	'package.json',
	'public',
	'src',
] as const;

/** The newest file under `paths` (files or folders, relative to `root`), by its modification time. */
export async function newestFile(
	root: string,
	paths: readonly string[] = IMAGE_SOURCES,
): Promise<{ file: string; mtime: number } | undefined> {
	let newest: { file: string; mtime: number } | undefined;
	const visit = async (relative: string): Promise<void> => {
		const info = await stat(path.join(root, relative)).catch(() => undefined);
		if (!info) return;
		if (info.isDirectory()) {
			for (const entry of await readdir(path.join(root, relative))) {
				await visit(path.join(relative, entry));
			}
		} else if (info.isFile() && (!newest || info.mtimeMs > newest.mtime)) {
			newest = { file: relative, mtime: info.mtimeMs };
		}
	};
	for (const relative of paths) await visit(relative);
	return newest;
}

/** Where sourceDate reads the time from: the commit's, and the newest source file's. */
export interface DateReaders {
	/** The commit's time in seconds; rejects without git or a commit. */
	commitTime: () => Promise<number>;
	newestSource: () => Promise<{ file: string; mtime: number } | undefined>;
}

/**
 * The images' time: SOURCE_DATE_EPOCH when set, else the commit's time (the same for every clone of
 * a commit), else, in a copy without git, the time of the newest file that goes into the images,
 * with one line saying so.
 */
export async function sourceDate(
	fromEnv: string | undefined,
	readers: DateReaders,
): Promise<{ epoch: number; note?: string }> {
	if (fromEnv !== undefined && fromEnv !== '') {
		const epoch = Number(fromEnv);
		if (!/^\d+$/.test(fromEnv) || !Number.isSafeInteger(epoch)) {
			throw new Error(
				`SOURCE_DATE_EPOCH: expected whole seconds since 1970-01-01, not "${fromEnv}"`,
			);
		}
		return { epoch };
	}
	const commit = await readers.commitTime().catch(() => undefined);
	if (commit !== undefined && Number.isSafeInteger(commit) && commit >= 0) return { epoch: commit };
	const newest = await readers.newestSource();
	if (!newest) {
		throw new Error(
			`No git commit and no source file to date the images by: set SOURCE_DATE_EPOCH (seconds since 1970-01-01)`,
		);
	}
	const epoch = Math.floor(newest.mtime / 1000);
	const when = new Date(epoch * 1000).toISOString().replace('.000Z', 'Z');
	return {
		epoch,
		note: `No git commit here: the images are dated ${when}, the time of their newest source file (${newest.file}), and labelled revision unknown; set SOURCE_DATE_EPOCH to choose the time.`,
	};
}

/** Reads the facts the labels carry from git and package.json; a copy without git has some. */
export async function sourceFacts(): Promise<SourceFacts> {
	const git = (...args: string[]): Promise<string> =>
		command('git', ['-C', ROOT, ...args]).then((text) => text.trim());
	const pack = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as {
		version?: string;
		repository?: string | { url?: string };
	};
	const repository =
		typeof pack.repository === 'string' ? pack.repository : (pack.repository?.url ?? '');
	const origin = await git('remote', 'get-url', 'origin').catch(() => '');
	const date = await sourceDate(process.env['SOURCE_DATE_EPOCH'], {
		commitTime: async () => Number(await git('log', '-1', '--format=%ct')),
		newestSource: () => newestFile(ROOT),
	});
	return {
		source: process.env['IMAGE_SOURCE'] || repository || origin || 'unknown',
		revision: await git('rev-parse', 'HEAD').catch(() => 'unknown'),
		version: pack.version ?? 'unknown',
		epoch: date.epoch,
		dirty: (await git('status', '--porcelain').catch(() => '')) !== '',
		...(date.note ? { dateNote: date.note } : {}),
	};
}

/**
 * Why a pull failed when no registry answered (the name not found, the connection refused or timed
 * out), in a few words from buildah's error; undefined for any other failure.
 */
export function unreachableRegistry(output: string): string | undefined {
	const patterns = [
		/lookup (\S+?)(?: on \S+)?: (no such host|server misbehaving|Temporary failure in name resolution)/i,
		/dial tcp (\S+): (?:connect: )?(connection refused|network is unreachable|no route to host|i\/o timeout|connection timed out)/i,
		/(TLS handshake timeout|Client\.Timeout exceeded[^\n]*)/i,
	];
	for (const pattern of patterns) {
		const found = pattern.exec(output);
		if (found) return found.slice(1).join(': ');
	}
	return undefined;
}

/** How readyBase looks for the base and pulls it: buildah's, or a test's stand-ins. */
export interface BaseTools {
	exists: (image: string) => Promise<boolean>;
	pull: (image: string) => Promise<unknown>;
}

/**
 * Makes sure local storage holds the base, pulling it when it does not; fails in one line, saying
 * that `--local-base` builds without a registry when none answered.
 */
export async function readyBase(
	base: string,
	tools: BaseTools = {
		exists: imageExists,
		pull: (image) => command('buildah', ['pull', '--quiet', image]),
	},
): Promise<void> {
	if (await tools.exists(base)) return;
	try {
		await tools.pull(base);
	} catch (error) {
		const output = error instanceof Error ? error.message : String(error);
		const reason = unreachableRegistry(output);
		if (reason !== undefined) {
			throw new Error(
				`No registry answered for the base ${base} (${reason}): \`npm run image -- --local-base\` builds on a Debian base made here from Debian's packages, without one.`,
				{ cause: error },
			);
		}
		const last = output.trim().split('\n').at(-1) ?? '';
		throw new Error(`Could not pull the base ${base}: ${last}`, { cause: error });
	}
}

/** One image to build. */
export interface BuildRequest {
	kind: ImageKind;
	/** The context folder prepareContext filled. */
	context: string;
	/** The base image (PUBLIC_BASE or LOCAL_BASE, or another Debian bookworm image). */
	base: string;
	/** The names to give the image. */
	tags: readonly string[];
	facts: SourceFacts;
	/** The web image's defaults for PORTAL_URL and PORTAL_MOCK_URL ('' for none), used when a start gives none. */
	defaults?: { portalUrl: string; mockUrl: string };
}

/**
 * Builds one image with buildah (chroot isolation: no namespaces needed); returns its id. Every
 * step runs: buildah (1.28, Debian bookworm's) keys a cached step on the instruction as written,
 * before build arguments are put in (LABEL …source="${SOURCE}"), and on neither --timestamp nor
 * the labels, so a step from its layer cache kept an earlier build's source, revision, version,
 * time and digest. --layers still keeps one layer per step, as the README's table lists them.
 */
export async function buildImage(
	request: BuildRequest,
	log: (text: string) => void,
): Promise<string> {
	const { kind, context, base, tags, facts } = request;
	const created = new Date(facts.epoch * 1000).toISOString().replace('.000Z', 'Z');
	const args = [
		'build',
		'--isolation',
		'chroot',
		'--layers',
		'--no-cache',
		// Pulls the base only when local storage lacks it (readyBase pulls it first).
		'--pull=false',
		'--identity-label=false',
		'--timestamp',
		String(facts.epoch),
		'--format',
		'oci',
		'--file',
		path.join(context, IMAGES[kind]),
		'--build-arg',
		`BASE_IMAGE=${base}`,
		'--build-arg',
		`SOURCE=${facts.source}`,
		'--build-arg',
		`REVISION=${facts.revision}`,
		'--build-arg',
		`VERSION=${facts.version}`,
		'--build-arg',
		`CREATED=${created}`,
		'--build-arg',
		`PORTAL_URL=${request.defaults?.portalUrl ?? ''}`,
		'--build-arg',
		`PORTAL_MOCK_URL=${request.defaults?.mockUrl ?? ''}`,
		...tags.flatMap((tag) => ['--tag', tag]),
		context,
	];
	const held = await heldBefore(tags);
	let output = '';
	await streamed('buildah', args, (text) => {
		output += text;
		log(text);
	});
	const id = await imageIdOf(tags[0] ?? '');
	const steps = [...output.matchAll(/^--> (?:Using cache )?([0-9a-f]{11,64})\b/gm)].map(
		([, step]) => step ?? '',
	);
	await removeUnnamed([...steps, ...held].filter((step) => !id.startsWith(step)));
	return id;
}

/** The id of the image a name holds. */
async function imageIdOf(name: string): Promise<string> {
	return (
		await command('buildah', ['inspect', '--type', 'image', '--format', '{{.FromImageID}}', name])
	).trim();
}

/** The images these names held before a build moves them, which the build leaves unnamed. */
async function heldBefore(tags: readonly string[]): Promise<string[]> {
	const held: string[] = [];
	for (const tag of tags) {
		// A name no image holds yet holds nothing a build could leave behind.
		const id = await imageIdOf(tag).catch(() => '');
		if (id) held.push(id);
	}
	return held;
}

/**
 * `buildah images --all` with these options. buildah lists the images and then reads each one, and
 * fails ("image not known") when another build removed one in between, as a build beside this one
 * does with its steps: the list is then asked for again, up to five times.
 */
export async function listImages(options: readonly string[]): Promise<string> {
	for (let attempt = 1; ; attempt += 1) {
		try {
			return await command('buildah', ['images', '--all', ...options]);
		} catch (error) {
			if (attempt >= 5 || !(error instanceof Error) || !error.message.includes('image not known')) {
				throw error;
			}
		}
	}
}

/**
 * Removes the images among `candidates` (ids or their first characters) that no name holds: the
 * steps of a build's first stage (the mock's Node with binutils) and the images its names held
 * before. A step the new image is built on has a child and stays, as do other builds' images.
 */
async function removeUnnamed(candidates: readonly string[]): Promise<void> {
	for (let pass = 0; pass < 8; pass += 1) {
		const listed = await listImages(['--no-trunc', '--noheading', '--format', '{{.ID}} {{.Name}}']);
		const unnamed = listed
			.split('\n')
			.map((line) => line.trim().split(/\s+/))
			.filter(([id, name]) => id && name === '<none>')
			.map(([id]) => (id ?? '').replace('sha256:', ''))
			.filter((id) => candidates.some((step) => id.startsWith(step.replace('sha256:', ''))));
		let removed = 0;
		for (const id of unnamed) {
			// An image with a child (a step a kept image is built on) is refused: it stays, as it should.
			const gone = await command('buildah', ['rmi', id]).then(
				() => true,
				() => false,
			);
			if (gone) removed += 1;
		}
		if (removed === 0) return;
	}
}

/** One layer of an image: its digest and sizes in bytes, and the step that made it. */
export interface LayerFacts {
	digest: string;
	uncompressed: number;
	compressed: number;
	createdBy: string;
}

/** What an image weighs, as a registry would hold it (gzip layers), and its digests. */
export interface ImageFacts {
	/** The digest of its manifest in local storage (uncompressed layers). */
	localDigest: string;
	/** The digest of its manifest written with gzip layers, as pushed to a registry. */
	pushedDigest: string;
	uncompressed: number;
	compressed: number;
	layers: LayerFacts[];
}

/** The OCI layout files read back: a manifest and an image config. */
interface OciManifest {
	layers: { digest: string; size: number }[];
	config: { digest: string };
}
interface OciConfig {
	history?: { created_by?: string; empty_layer?: boolean }[];
	rootfs: { diff_ids: string[] };
}

/**
 * Writes the image as an OCI layout with gzip layers, as `buildah push` would send it to a
 * registry, and reads back its sizes and digests.
 */
export async function measureImage(name: string): Promise<ImageFacts> {
	const folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-oci-'));
	try {
		const localManifest = JSON.parse(
			await command('buildah', ['inspect', '--type', 'image', '--format', '{{.Manifest}}', name]),
		) as OciManifest;
		const localDigest = (
			await command('buildah', [
				'inspect',
				'--type',
				'image',
				'--format',
				'{{.FromImageDigest}}',
				name,
			])
		).trim();
		const digestFile = path.join(folder, 'digest');
		await command('buildah', [
			'push',
			'--quiet',
			'--compression-format',
			'gzip',
			'--digestfile',
			digestFile,
			name,
			`oci:${path.join(folder, 'layout')}:image`,
		]);
		const pushedDigest = (await readFile(digestFile, 'utf8')).trim();
		const blob = (digest: string): string =>
			path.join(folder, 'layout', 'blobs', ...digest.split(':'));
		const manifest = JSON.parse(await readFile(blob(pushedDigest), 'utf8')) as OciManifest;
		const config = JSON.parse(await readFile(blob(manifest.config.digest), 'utf8')) as OciConfig;
		const steps = (config.history ?? []).filter((step) => !step.empty_layer);
		const layers = manifest.layers.map((layer, index) => ({
			digest: layer.digest,
			compressed: layer.size,
			uncompressed: localManifest.layers[index]?.size ?? 0,
			createdBy: steps[index]?.created_by ?? '',
		}));
		return {
			localDigest,
			pushedDigest,
			uncompressed: layers.reduce((sum, layer) => sum + layer.uncompressed, 0),
			compressed: layers.reduce((sum, layer) => sum + layer.compressed, 0),
			layers,
		};
	} finally {
		await rm(folder, { recursive: true, force: true });
	}
}

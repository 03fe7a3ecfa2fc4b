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
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';

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
		return false;
	}
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
 * unless `force`.
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
 * Bundles `npm run mock`'s code (mock/cli.ts) and its dependencies into one ES module, so the mock
 * image needs no node_modules. Two things Node's resolution did are done here: jsonc-parser's
 * UMD build loads its parts with a require() no bundler follows, so its ES build is taken; and
 * Prism gets the English faker only, as mock/prism-faker.ts arranges when the mock runs from source.
 */
export async function bundleMock(outFile: string): Promise<void> {
	await build({
		entryPoints: [path.join(ROOT, 'mock', 'cli.ts')],
		outfile: outFile,
		bundle: true,
		platform: 'node',
		format: 'esm',
		target: 'node24',
		mainFields: ['module', 'main'],
		legalComments: 'eof',
		minifyWhitespace: true,
		minifySyntax: true,
		logLevel: 'error',
		// CommonJS dependencies call require() for Node's built-ins; an ES module has none of its own.
		banner: {
			js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
		},
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

/**
 * Fills `folder` with what the two Containerfiles copy, at the paths they name: the built portal
 * (`dist/`), deploy/'s nginx files, the pinned Node, the mock's bundle, the contract and the
 * fixtures (`viewsDir`, content/views by default).
 */
export async function prepareContext(
	folder: string,
	distDir: string,
	viewsDir = path.join(ROOT, 'content', 'views'),
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
	await bundleMock(path.join(folder, 'mock', 'console-portal-mock.mjs'));
}

/** What the labels of both images say about the source they were built from. */
export interface SourceFacts {
	/** Where the source lives (package.json's repository, else git's origin; IMAGE_SOURCE wins). */
	source: string;
	/** The commit. */
	revision: string;
	/** package.json's version. */
	version: string;
	/** SOURCE_DATE_EPOCH if set, else the commit's time: the images' creation time, in seconds. */
	epoch: number;
	/** Whether the work tree has changes the commit does not. */
	dirty: boolean;
}

/** Reads the facts the labels carry from git and package.json. */
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
	const fromEnv = process.env['SOURCE_DATE_EPOCH'];
	const epoch = Number(fromEnv ?? (await git('log', '-1', '--format=%ct')));
	if (!Number.isSafeInteger(epoch) || epoch < 0) {
		throw new Error(
			`SOURCE_DATE_EPOCH: expected whole seconds since 1970-01-01, not "${fromEnv ?? ''}"`,
		);
	}
	return {
		source: process.env['IMAGE_SOURCE'] || repository || origin || 'unknown',
		revision: await git('rev-parse', 'HEAD'),
		version: pack.version ?? 'unknown',
		epoch,
		dirty: (await git('status', '--porcelain')) !== '',
	};
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
	/** Build every step again instead of taking unchanged ones from buildah's layer cache. */
	noCache?: boolean;
}

/** Builds one image with buildah (chroot isolation: no namespaces needed); returns its id. */
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
		...(request.noCache ? ['--no-cache'] : []),
		// Pulls the base only when local storage lacks it.
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
		...tags.flatMap((tag) => ['--tag', tag]),
		context,
	];
	await streamed('buildah', args, log);
	return (
		await command('buildah', [
			'inspect',
			'--type',
			'image',
			'--format',
			'{{.FromImageID}}',
			tags[0] ?? '',
		])
	).trim();
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

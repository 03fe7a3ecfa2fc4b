/**
 * The decisions `npm run image` makes before it builds anything, with stand-ins for buildah, the
 * registry and git: where the base comes from and what a user reads when no registry answers, and
 * which time the images carry when SOURCE_DATE_EPOCH is set, in a git clone, and in a copy
 * without git.
 */
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	bundleMock,
	newestFile,
	PUBLIC_BASE,
	readyBase,
	sourceDate,
	unreachableRegistry,
	type DateReaders,
} from '../../../scripts/lib/images.ts';

/** What `command` throws when `buildah pull` fails: the command line, then buildah's output. */
const pullFailure = (output: string): Error =>
	new Error(`buildah pull --quiet ${PUBLIC_BASE} failed:\n${output}`);

/** buildah 1.28's error on a machine whose DNS knows no registry, as seen on this one. */
const NO_DNS =
	'Error: initializing source docker://debian:bookworm-slim: pinging container registry registry-1.docker.io: Get "https://registry-1.docker.io/v2/": dial tcp: lookup registry-1.docker.io on 10.255.255.53:53: no such host';

describe('no registry answers', () => {
	it.each([
		[NO_DNS, 'registry-1.docker.io: no such host'],
		[
			'Error: initializing source docker://debian:bookworm-slim: pinging container registry registry-1.docker.io: Get "https://registry-1.docker.io/v2/": dial tcp 10.0.0.7:443: connect: connection refused',
			'10.0.0.7:443: connection refused',
		],
		[
			'pinging container registry registry-1.docker.io: Get "https://registry-1.docker.io/v2/": dial tcp 10.0.0.7:443: i/o timeout',
			'10.0.0.7:443: i/o timeout',
		],
		[
			'Get "https://registry-1.docker.io/v2/": net/http: TLS handshake timeout',
			'TLS handshake timeout',
		],
		[
			'dial tcp: lookup registry-1.docker.io: Temporary failure in name resolution',
			'registry-1.docker.io: Temporary failure in name resolution',
		],
	])('a user reads why no registry answered in a few words: %s', (output, reason) => {
		expect(unreachableRegistry(output)).toBe(reason);
	});

	it.each([
		'Error: initializing source docker://debian:bookworm-slim: reading manifest bookworm-slim in docker.io/library/debian: manifest unknown',
		'Error: initializing source docker://registry.example/team/debian:12: unauthorized: authentication required',
	])('a registry that answered with a refusal is not taken for no registry: %s', (output) => {
		expect(unreachableRegistry(output)).toBeUndefined();
	});

	it('a user without a registry reads one line that says so and names --local-base, and nothing is pulled twice', async () => {
		const pulled: string[] = [];
		const attempt = readyBase(PUBLIC_BASE, {
			exists: () => Promise.resolve(false),
			pull: (image) => {
				pulled.push(image);
				return Promise.reject(pullFailure(NO_DNS));
			},
		});
		await expect(attempt).rejects.toThrow(
			`No registry answered for the base ${PUBLIC_BASE} (registry-1.docker.io: no such host): \`npm run image -- --local-base\` builds on a Debian base made here from Debian's packages, without one.`,
		);
		const message = await attempt.catch((error: unknown) => (error as Error).message);
		expect(message).not.toContain('\n');
		expect(message).not.toContain('buildah pull');
		expect(pulled).toEqual([PUBLIC_BASE]);
	});

	it('a base already in local storage is used without asking any registry', async () => {
		let pulls = 0;
		await readyBase(PUBLIC_BASE, {
			exists: (image) => Promise.resolve(image === PUBLIC_BASE),
			pull: () => {
				pulls += 1;
				return Promise.reject(pullFailure(NO_DNS));
			},
		});
		expect(pulls).toBe(0);
	});

	it('a base the registry refuses is named with the registry’s last line, not taken for no registry', async () => {
		const attempt = readyBase('registry.example/team/debian:12', {
			exists: () => Promise.resolve(false),
			pull: () =>
				Promise.reject(
					pullFailure(
						'Error: initializing source docker://registry.example/team/debian:12: unauthorized: authentication required',
					),
				),
		});
		const message = await attempt.catch((error: unknown) => (error as Error).message);
		expect(message).toBe(
			'Could not pull the base registry.example/team/debian:12: Error: initializing source docker://registry.example/team/debian:12: unauthorized: authentication required',
		);
	});
});

/** Readers that say which of them were asked. */
function readers(commit: number | undefined, newest?: { file: string; mtime: number }) {
	const asked: string[] = [];
	const stand: DateReaders = {
		commitTime: () => {
			asked.push('git');
			return commit === undefined
				? Promise.reject(new Error('git log -1 --format=%ct failed: not a git repository'))
				: Promise.resolve(commit);
		},
		newestSource: () => {
			asked.push('files');
			return Promise.resolve(newest);
		},
	};
	return { asked, stand };
}

describe('the images’ time', () => {
	it('SOURCE_DATE_EPOCH wins over git and the files, and nothing is printed', async () => {
		const { asked, stand } = readers(1_700_000_000, { file: 'src/a.ts', mtime: 1_800_000_000_000 });
		await expect(sourceDate('1795478400', stand)).resolves.toEqual({ epoch: 1795478400 });
		expect(asked).toEqual([]);
	});

	it.each(['yesterday', '-5', '1.5', '1e9', ' 12'])(
		'a SOURCE_DATE_EPOCH that is no whole number of seconds is refused, naming it: %s',
		async (value) => {
			await expect(sourceDate(value, readers(1).stand)).rejects.toThrow(
				`SOURCE_DATE_EPOCH: expected whole seconds since 1970-01-01, not "${value}"`,
			);
		},
	);

	it('a git clone is dated by its commit, the same for every clone, and nothing is printed', async () => {
		const { asked, stand } = readers(1_700_000_000, { file: 'src/a.ts', mtime: 1_800_000_000_000 });
		await expect(sourceDate(undefined, stand)).resolves.toEqual({ epoch: 1_700_000_000 });
		await expect(sourceDate('', stand)).resolves.toEqual({ epoch: 1_700_000_000 });
		expect(asked).toEqual(['git', 'git']);
	});

	it('a copy without git is dated by its newest source file, in one line that says so', async () => {
		const { stand } = readers(undefined, {
			file: 'content/views/production.json',
			mtime: 1_795_478_400_900,
		});
		const date = await sourceDate(undefined, stand);
		expect(date.epoch).toBe(1_795_478_400);
		expect(date.note).toBe(
			'No git commit here: the images are dated 2026-11-24T00:00:00Z, the time of their newest source file (content/views/production.json), and labelled revision unknown; set SOURCE_DATE_EPOCH to choose the time.',
		);
	});

	it('a copy without git or sources asks for SOURCE_DATE_EPOCH', async () => {
		await expect(sourceDate(undefined, readers(undefined).stand)).rejects.toThrow(
			'No git commit and no source file to date the images by: set SOURCE_DATE_EPOCH',
		);
	});
});

describe('the newest file of the sources', () => {
	let root: string;

	beforeAll(async () => {
		root = await mkdtemp(path.join(os.tmpdir(), 'console-portal-newest-'));
		const files: [string, number][] = [
			['package.json', 1_700_000_000],
			['src/pages/index.astro', 1_700_000_100],
			['content/views/production.json', 1_700_000_300],
			// Not a source of the images: never the newest.
			['notes.txt', 1_900_000_000],
		];
		for (const [name, seconds] of files) {
			await mkdir(path.dirname(path.join(root, name)), { recursive: true });
			await writeFile(path.join(root, name), name);
			await utimes(path.join(root, name), seconds, seconds);
		}
	});

	afterAll(async () => {
		await rm(root, { recursive: true, force: true });
	});

	it('is found in the folders and files that go into the images, whatever else the copy holds', async () => {
		await expect(newestFile(root)).resolves.toEqual({
			file: path.join('content', 'views', 'production.json'),
			mtime: 1_700_000_300_000,
		});
	});

	it('is none in a folder without any of them', async () => {
		await expect(newestFile(path.join(root, 'src'))).resolves.toBeUndefined();
	});
});

describe("the mock image's bundle", () => {
	it('holds the mock itself, not the bundler npm run mock uses to make its bundle: no esbuild to try at each start in the image', async () => {
		const folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-image-bundle-'));
		try {
			const file = path.join(folder, 'console-portal-mock.mjs');
			await bundleMock(file);
			const text = await readFile(file, 'utf8');
			// The mock's own settings and its server are in it...
			expect(text).toContain('MOCK_WORKERS');
			expect(text).toContain('Mock listening on');
			// ...and none of esbuild's API, which mock/cli.ts would bring to make a bundle at start.
			expect(text).not.toContain('ESBUILD_BINARY_PATH');
		} finally {
			await rm(folder, { recursive: true, force: true });
		}
	}, 60_000);
});

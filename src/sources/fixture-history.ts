/**
 * The fixtures' history, read from the repository the views folder lies in with the `git`
 * command: every commit that touched a `<slug>.json` of the folder (oldest first, renames found
 * with `-M`), each version of each fixture it changed, and the fixtures at every tag. A version is
 * read through the view schema as it stands today; one that fails is kept as unreadable, with the
 * fields at fault and never a value, and the history goes on. Without git, outside a repository,
 * or in a shallow clone, the reading says so instead of failing the build.
 *
 * Merge commits add no changes of their own: `git log` lists the commits on each side with their
 * own changes, as `git log -p` shows them.
 */
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { View } from '../schemas/view.ts';
import { decodeFixture, FIXTURE_MAX_BYTES } from './fixture-file.ts';
import { fixtureFiles, parseFixtureSource } from './fixtures.ts';

const run = promisify(execFile);

/** One version of a fixture file: its view, or the fields that the view schema refuses today. */
export type FixtureVersion =
	{ readable: true; view: View } | { readable: false; fields: readonly string[] };

/** How a commit changed one fixture file. */
export interface FixtureFileChange {
	/** `added`, `modified`, `removed`, or `renamed` (the file moved, perhaps changed too). */
	status: 'added' | 'modified' | 'removed' | 'renamed';
	/** The slug before the commit; undefined for an added file. */
	fromSlug: string | undefined;
	/** The slug after the commit; undefined for a removed file. */
	toSlug: string | undefined;
	/** The version before the commit, as the parent holds it; undefined for an added file. */
	before: FixtureVersion | undefined;
	/** The version after; undefined for a removed file. */
	after: FixtureVersion | undefined;
}

/** A commit as a change is told by: full and short hash, date, author and subject. */
export interface CommitInfo {
	hash: string;
	short: string;
	/** The committer date in UTC, ISO 8601: when the commit entered the history. */
	date: string;
	author: string;
	subject: string;
}

/** One commit that touched the fixtures. */
export interface FixtureCommit extends CommitInfo {
	/**
	 * Whether the commit is where a shallow clone's history stops: its parents are missing, so its
	 * files are the state history starts from, not files it added.
	 */
	boundary: boolean;
	files: FixtureFileChange[];
}

/** A git tag and the fixtures at the commit it names. */
export interface FixtureTag {
	name: string;
	commit: CommitInfo;
	/** Each `<slug>.json` of the views folder at the tag, in slug order. */
	fixtures: { slug: string; version: FixtureVersion }[];
}

/** The fixtures' history as read, or why there is none. */
export type FixtureHistory =
	| { available: false; reason: string }
	| {
			available: true;
			/** Whether the clone is shallow: history starts at `start`, not at the first commit. */
			shallow: boolean;
			/** The date of the oldest commit history reaches: the first commit, or a shallow clone's boundary. */
			start: string | undefined;
			/** The commit checked out. */
			head: CommitInfo;
			/** Whether the fixtures on disk differ from the commit checked out (edited, added, removed). */
			dirty: boolean;
			/** Every commit that touched a fixture, oldest first. */
			commits: FixtureCommit[];
			/** Every tag, newest commit first. */
			tags: FixtureTag[];
	  };

/** The git variables that would point git at another repository than the views folder's. */
const REPOSITORY_VARIABLES = [
	'GIT_DIR',
	'GIT_WORK_TREE',
	'GIT_INDEX_FILE',
	'GIT_OBJECT_DIRECTORY',
	'GIT_ALTERNATE_OBJECT_DIRECTORIES',
	'GIT_COMMON_DIR',
	'GIT_NAMESPACE',
	'GIT_PREFIX',
	'GIT_GRAFT_FILE',
	'GIT_REPLACE_REF_BASE',
	'GIT_SHALLOW_FILE',
	'GIT_QUARANTINE_PATH',
];

/**
 * The environment git runs in: the repository is the one holding the views folder, even when the
 * build runs inside a git hook that set GIT_DIR for another; no pager, prompt or colour.
 */
function gitEnv(): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat' };
	for (const name of REPOSITORY_VARIABLES) delete env[name];
	return env;
}

/** Runs git in a folder and gives its output as bytes; throws git's own message on failure. */
async function git(cwd: string, args: readonly string[]): Promise<Buffer> {
	const { stdout } = await run('git', ['-c', 'core.quotepath=off', '--no-pager', ...args], {
		cwd,
		env: gitEnv(),
		encoding: 'buffer',
		maxBuffer: 1024 * 1024 * 1024,
	});
	return stdout;
}

/** The first line git wrote to its error output, or the error's own message. */
function gitMessage(error: unknown): string {
	const failure = error as NodeJS.ErrnoException & { stderr?: Buffer | string };
	if (failure.code === 'ENOENT') return 'the git command is not installed';
	const text = failure.stderr ? failure.stderr.toString().trim() : '';
	const line = text.split('\n').find((each) => each.trim() !== '');
	return line ? line.replace(/^fatal: /, '') : failure.message;
}

/** The fields of a version's problems, e.g. `users[3].apiKey`; the whole file as `(file)`. */
function problemFields(problems: readonly { field: string }[]): string[] {
	return [...new Set(problems.map(({ field }) => field || '(file)'))];
}

/** Reads one version of a fixture from its bytes, as the folder reader reads a file. */
export function readVersion(file: string, bytes: Uint8Array): FixtureVersion {
	if (bytes.length > FIXTURE_MAX_BYTES) return { readable: false, fields: ['(file)'] };
	const decoded = decodeFixture(bytes);
	if (decoded.problem !== undefined) return { readable: false, fields: ['(file)'] };
	const parsed = parseFixtureSource({ file, text: decoded.text });
	if (parsed.view) return { readable: true, view: parsed.view.view };
	return { readable: false, fields: problemFields(parsed.problems) };
}

/** The all-zero object name git gives the missing side of an added or removed file. */
const NO_OBJECT = /^0+$/;

/** One file of a commit as `git log --raw` gives it, before its versions are read. */
interface RawFileChange {
	status: FixtureFileChange['status'];
	fromPath: string | undefined;
	toPath: string | undefined;
	fromBlob: string | undefined;
	toBlob: string | undefined;
}

/** One commit as `git log --raw` gives it. */
interface RawCommit extends CommitInfo {
	parents: string[];
	files: RawFileChange[];
}

/** The fields of the format each commit's header is written in, NUL-separated by `-z`. */
const HEADER_FORMAT = ['%H', '%h', '%cI', '%an', '%P', '%s'].join('%x00');

/** How many NUL-separated fields a commit's header has. */
const HEADER_FIELDS = 6;

/**
 * Parses `git log -z --raw --format=<HEADER_FORMAT>`: each commit's header fields, then one
 * `:<modes> <blobs> <status>` entry per file followed by its path, or by two for a rename.
 */
export function parseRawLog(output: string): RawCommit[] {
	const tokens = output.split('\0');
	const commits: RawCommit[] = [];
	let at = 0;
	while (at < tokens.length) {
		const first = (tokens[at] ?? '').replace(/^\n+/, '');
		if (first === '') {
			at += 1;
			continue;
		}
		if (first.startsWith(':')) {
			const commit = commits.at(-1);
			if (!commit) throw new Error(`git log gave a file change before any commit: ${first}`);
			const [, , fromBlob = '', toBlob = '', code = ''] = first.slice(1).split(' ');
			const letter = code.charAt(0);
			const paths = letter === 'R' || letter === 'C' ? 2 : 1;
			const names = tokens.slice(at + 1, at + 1 + paths);
			at += 1 + paths;
			const from = NO_OBJECT.test(fromBlob) ? undefined : fromBlob;
			const to = NO_OBJECT.test(toBlob) ? undefined : toBlob;
			if (letter === 'R') {
				commit.files.push({
					status: 'renamed',
					fromPath: names[0],
					toPath: names[1],
					fromBlob: from,
					toBlob: to,
				});
			} else if (letter === 'A' || letter === 'C') {
				commit.files.push({
					status: 'added',
					fromPath: undefined,
					toPath: names.at(-1),
					fromBlob: undefined,
					toBlob: to,
				});
			} else if (letter === 'D') {
				commit.files.push({
					status: 'removed',
					fromPath: names[0],
					toPath: undefined,
					fromBlob: from,
					toBlob: undefined,
				});
			} else {
				commit.files.push({
					status: 'modified',
					fromPath: names[0],
					toPath: names[0],
					fromBlob: from,
					toBlob: to,
				});
			}
			continue;
		}
		const [hash = '', short = '', date = '', author = '', parents = '', subject = ''] = [
			first,
			...tokens.slice(at + 1, at + HEADER_FIELDS),
		];
		at += HEADER_FIELDS;
		commits.push({
			hash,
			short,
			date: Number.isNaN(Date.parse(date)) ? date : new Date(date).toISOString(),
			author,
			subject,
			parents: parents.split(' ').filter((each) => each !== ''),
			files: [],
		});
	}
	return commits;
}

/**
 * Reads many objects with one `git cat-file --batch`: their bytes by name. An object that is
 * missing (beyond a shallow clone's boundary) is left out.
 */
async function readObjects(cwd: string, names: readonly string[]): Promise<Map<string, Buffer>> {
	const objects = new Map<string, Buffer>();
	if (names.length === 0) return objects;
	const chunks: Buffer[] = [];
	await new Promise<void>((resolve, reject) => {
		const child = spawn('git', ['cat-file', '--batch'], {
			cwd,
			env: gitEnv(),
			stdio: ['pipe', 'pipe', 'pipe'],
		});
		let errors = '';
		child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
		child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
		child.on('error', reject);
		child.on('close', (code) => {
			if (code === 0) resolve();
			else reject(new Error(`git cat-file --batch failed (${code}): ${errors.trim()}`));
		});
		child.stdin.on('error', reject);
		child.stdin.end(`${names.join('\n')}\n`);
	});
	const output = Buffer.concat(chunks);
	let at = 0;
	while (at < output.length) {
		const end = output.indexOf(0x0a, at);
		if (end < 0) break;
		const [name = '', type = '', size = ''] = output.subarray(at, end).toString().split(' ');
		at = end + 1;
		if (type === 'missing' || size === '') continue;
		const length = Number(size);
		objects.set(name, output.subarray(at, at + length));
		at += length + 1;
	}
	return objects;
}

/** A fixture's slug from its path in the repository: the file name without `.json`. */
function slugOf(file: string): string {
	return path.posix.basename(file, '.json');
}

/** The facts of one commit, by name, as `git log -1` gives them. */
async function commitInfo(cwd: string, name: string): Promise<CommitInfo> {
	const output = (await git(cwd, ['log', '-1', '-z', `--format=${HEADER_FORMAT}`, name, '--']))
		.toString('utf8')
		.replace(/\0+$/, '');
	const [commit] = parseRawLog(`${output}\0`);
	if (!commit) throw new Error(`git log gave nothing for ${name}`);
	const { hash, short, date, author, subject } = commit;
	return { hash, short, date, author, subject };
}

/** The repository around a folder: its top, and the folder's path in it with `/`. */
async function repositoryOf(
	folder: string,
): Promise<{ top: string; inside: string } | { reason: string }> {
	let real: string;
	try {
		real = await realpath(folder);
	} catch (error) {
		return { reason: `the views folder cannot be read (${(error as Error).message})` };
	}
	let top: string;
	try {
		const output = await git(real, ['rev-parse', '--show-toplevel']);
		top = await realpath(output.toString('utf8').trim());
	} catch (error) {
		const message = gitMessage(error);
		if (/not a git repository/i.test(message)) {
			return {
				reason:
					'the views folder is not in a git repository (a copy without .git, or an unpacked archive)',
			};
		}
		return { reason: message };
	}
	const inside = path.relative(top, real).split(path.sep).join('/');
	return { top, inside };
}

/** The commits where a shallow clone's history stops, from git's list of them. */
async function boundaryCommits(top: string): Promise<Set<string>> {
	const file = (await git(top, ['rev-parse', '--git-path', 'shallow'])).toString('utf8').trim();
	try {
		const text = await readFile(path.resolve(top, file), 'utf8');
		return new Set(text.split('\n').filter((line) => line.trim() !== ''));
	} catch {
		return new Set();
	}
}

/** The tags, each with the commit it names (an annotated tag's target). */
async function readTags(top: string): Promise<{ name: string; commit: string }[]> {
	const output = (
		await git(top, [
			'for-each-ref',
			'--format=%(refname:strip=2)%00%(objecttype)%00%(objectname)%00%(*objecttype)%00%(*objectname)',
			'refs/tags',
		])
	).toString('utf8');
	const tags: { name: string; commit: string }[] = [];
	for (const line of output.split('\n')) {
		if (line === '') continue;
		const [name = '', type, object = '', targetType, target = ''] = line.split('\0');
		if (type === 'commit') tags.push({ name, commit: object });
		else if (type === 'tag' && targetType === 'commit') tags.push({ name, commit: target });
	}
	return tags;
}

/** The `<slug>.json` files of the views folder at a commit, with their object names. */
async function fixturesAt(
	top: string,
	inside: string,
	commit: string,
): Promise<{ file: string; blob: string }[]> {
	const prefix = inside === '' ? '' : `${inside}/`;
	const output = (await git(top, ['ls-tree', '-z', commit, '--', prefix || '.'])).toString('utf8');
	const files: { file: string; blob: string }[] = [];
	for (const entry of output.split('\0')) {
		const tab = entry.indexOf('\t');
		if (tab < 0) continue;
		const [, type, blob = ''] = entry.slice(0, tab).split(' ');
		const file = entry.slice(tab + 1);
		const name = file.slice(prefix.length);
		if (type === 'blob' && name.endsWith('.json') && !name.includes('/')) {
			files.push({ file, blob });
		}
	}
	return files.sort((a, b) => (a.file < b.file ? -1 : 1));
}

/** Reads the fixtures' history from the repository the views folder lies in. */
export async function readFixtureHistory(folder: string): Promise<FixtureHistory> {
	const repository = await repositoryOf(folder);
	if ('reason' in repository) return { available: false, reason: repository.reason };
	const { top, inside } = repository;
	try {
		const spec = `:(glob)${inside === '' ? '' : `${inside}/`}*.json`;
		// A folder inside a repository that does not track it (ignored, or never added) has no
		// history, and the repository's commit says nothing about its fixtures.
		const checkedOut = await git(top, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']).catch(
			() => undefined,
		);
		if (!checkedOut) return { available: false, reason: 'the repository has no commit yet' };
		const tracked = await git(top, ['ls-files', '-z', '--', spec]);
		if (tracked.length === 0) {
			return {
				available: false,
				reason: "the repository the views folder lies in does not track the folder's fixtures",
			};
		}
		const [shallowText, log, shortNames, head, status] = await Promise.all([
			git(top, ['rev-parse', '--is-shallow-repository']),
			git(top, [
				'log',
				'-z',
				'--reverse',
				'--raw',
				'--no-abbrev',
				'-M',
				'--no-color',
				'--no-show-signature',
				`--format=${HEADER_FORMAT}`,
				'HEAD',
				'--',
				spec,
			]),
			// --no-abbrev, which gives the whole names of the files' versions, gives whole commit
			// names for %h too: the short names come from a second listing of the same commits.
			git(top, ['log', '--format=%H %h', 'HEAD', '--', spec]),
			commitInfo(top, 'HEAD'),
			git(top, ['status', '--porcelain', '-z', '--untracked-files=all', '--', spec]),
		]);
		const shallow = shallowText.toString('utf8').trim() === 'true';
		const boundaries = shallow ? await boundaryCommits(top) : new Set<string>();
		const short = new Map(
			shortNames
				.toString('utf8')
				.split('\n')
				.map((line) => line.split(' ') as [string, string]),
		);
		const raw = parseRawLog(log.toString('utf8')).map((commit) => ({
			...commit,
			short: short.get(commit.hash) ?? commit.short,
		}));
		const tagList = await readTags(top);
		const tagFiles = await Promise.all(
			tagList.map(async (tag) => ({
				...tag,
				info: await commitInfo(top, tag.commit),
				files: await fixturesAt(top, inside, tag.commit),
			})),
		);
		const blobs = new Set<string>();
		for (const commit of raw) {
			for (const file of commit.files) {
				if (file.fromBlob) blobs.add(file.fromBlob);
				if (file.toBlob) blobs.add(file.toBlob);
			}
		}
		for (const tag of tagFiles) for (const { blob } of tag.files) blobs.add(blob);
		const objects = await readObjects(top, [...blobs]);
		const versions = new Map<string, FixtureVersion>();
		const version = (
			file: string | undefined,
			blob: string | undefined,
		): FixtureVersion | undefined => {
			if (!file || !blob) return undefined;
			const known = versions.get(`${blob} ${slugOf(file)}`);
			if (known) return known;
			const bytes = objects.get(blob);
			const read: FixtureVersion = bytes
				? readVersion(file, bytes)
				: { readable: false, fields: ['(file)'] };
			versions.set(`${blob} ${slugOf(file)}`, read);
			return read;
		};
		const commits = raw.map(({ files, parents, ...info }): FixtureCommit => {
			const boundary = boundaries.has(info.hash) && parents.length === 0;
			return {
				...info,
				boundary,
				files: files.map((file) => ({
					status: file.status,
					fromSlug: file.fromPath === undefined ? undefined : slugOf(file.fromPath),
					toSlug: file.toPath === undefined ? undefined : slugOf(file.toPath),
					before: version(file.fromPath, file.fromBlob),
					after: version(file.toPath, file.toBlob),
				})),
			};
		});
		let start = commits[0]?.date;
		if (shallow && boundaries.size > 0) {
			const dates = await Promise.all(
				[...boundaries].map(async (hash) => (await commitInfo(top, hash)).date),
			);
			start = dates.sort((a, b) => Date.parse(a) - Date.parse(b))[0] ?? start;
		}
		// Newest commit first, whenever each tag was made; tags of one commit by name.
		tagFiles.sort(
			(a, b) => Date.parse(b.info.date) - Date.parse(a.info.date) || (a.name < b.name ? -1 : 1),
		);
		const tags = tagFiles.map((tag): FixtureTag => ({
			name: tag.name,
			commit: tag.info,
			fixtures: tag.files.map(({ file, blob }) => ({
				slug: slugOf(file),
				version: version(file, blob) ?? { readable: false, fields: ['(file)'] },
			})),
		}));
		return {
			available: true,
			shallow,
			start,
			head,
			dirty: status.length > 0,
			commits,
			tags,
		};
	} catch (error) {
		const message = gitMessage(error);
		// A repository without any commit yet has no HEAD to read history from.
		if (/ambiguous argument 'HEAD'|bad revision 'HEAD'|does not have any commits/i.test(message)) {
			return { available: false, reason: 'the repository has no commit yet' };
		}
		return { available: false, reason: message };
	}
}

/** The history of each views folder read in this process: read once per build. */
const readings = new Map<string, Promise<FixtureHistory>>();

/** The fixtures' history of a views folder, read once per process (once per build). */
export function fixtureHistory(folder: string): Promise<FixtureHistory> {
	let reading = readings.get(folder);
	if (!reading) {
		reading = readFixtureHistory(folder);
		readings.set(folder, reading);
	}
	return reading;
}

/** The digest of a fixture set, and how many files it covers. */
export interface FixtureDigest {
	files: number;
	/** SHA-256, hex: what `sha256sum *.json | sha256sum` gives in the folder (with LC_ALL=C). */
	sha256: string;
}

/**
 * The digest of the `*.json` fixtures of a folder as they are on disk: the SHA-256 of the lines
 * `sha256sum` writes for them in file-name order, so an auditor can compute it again with
 * `cd content/views && LC_ALL=C sha256sum *.json | sha256sum`.
 */
export async function readFixtureDigest(folder: string): Promise<FixtureDigest> {
	const files = await fixtureFiles(folder);
	let lines = '';
	for (const file of files) {
		const digest = createHash('sha256')
			.update(await readFile(file))
			.digest('hex');
		lines += `${digest}  ${path.basename(file)}\n`;
	}
	return { files: files.length, sha256: createHash('sha256').update(lines).digest('hex') };
}

/**
 * Reading a repository's history with the `git` command, shared by the readers of the fixtures'
 * history and of the contract's: git run in the repository around a file or folder (never one a
 * hook's GIT_DIR names), its log parsed, many objects read at once, and the commits where a
 * shallow clone's history stops.
 */
import { execFile, spawn } from 'node:child_process';
import { readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A commit as a change is told by: full and short hash, date, author and subject. */
export interface CommitInfo {
	hash: string;
	short: string;
	/** The committer date in UTC, ISO 8601: when the commit entered the history. */
	date: string;
	author: string;
	subject: string;
}

/**
 * A file's or a folder's history as read, or why there is none: the commits that changed it, of
 * the reader's own kind `C`, and what else that reader finds beside them (`More`).
 */
export type GitHistory<C extends CommitInfo, More extends object = object> =
	| { available: false; reason: string }
	| ({
			available: true;
			/** Whether the clone is shallow: history starts at `start`, not at the first commit. */
			shallow: boolean;
			/** The date of the oldest commit history reaches: the first commit, or a shallow clone's boundary. */
			start: string | undefined;
			/** The commit checked out. */
			head: CommitInfo;
			/** Whether what is read differs on disk from the commit checked out (edited, added, removed). */
			dirty: boolean;
			/** Every commit that changed what is read, oldest first. */
			commits: C[];
	  } & More);

/** Whether there is history, and where it stops, as the pages tell it. */
export interface HistoryStatus {
	available: boolean;
	/** Why there is none, when there is none. */
	reason: string;
	/** Whether the clone is shallow, so that history starts at `start`. */
	shallow: boolean;
	/** The date of the oldest commit history reaches; empty without history. */
	start: string;
	/** The commit the build was made from. */
	head: CommitInfo | undefined;
	/** Whether what is read differs from that commit. */
	dirty: boolean;
}

/** A history's status: where it stops and whether it is dirty, or why there is none. */
export function historyStatusOf(history: GitHistory<CommitInfo>): HistoryStatus {
	if (!history.available) {
		return {
			available: false,
			reason: history.reason,
			shallow: false,
			start: '',
			head: undefined,
			dirty: false,
		};
	}
	return {
		available: true,
		reason: '',
		shallow: history.shallow,
		start: history.start ?? '',
		head: history.head,
		dirty: history.dirty,
	};
}

/** How a commit changed one file: `renamed` is moved, perhaps changed too. */
export type FileStatus = 'added' | 'modified' | 'removed' | 'renamed';

/** The git variables that would point git at another repository than the one read. */
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
 * The environment git runs in: the repository is the one holding the folder read, even when the
 * build runs inside a git hook that set GIT_DIR for another; no pager, prompt or colour.
 */
function gitEnv(): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat' };
	for (const name of REPOSITORY_VARIABLES) delete env[name];
	return env;
}

/** Runs git in a folder and gives its output as bytes; throws git's own message on failure. */
export async function git(cwd: string, args: readonly string[]): Promise<Buffer> {
	const { stdout } = await run('git', ['-c', 'core.quotepath=off', '--no-pager', ...args], {
		cwd,
		env: gitEnv(),
		encoding: 'buffer',
		maxBuffer: 1024 * 1024 * 1024,
	});
	return stdout;
}

/** The first line git wrote to its error output, or the error's own message. */
export function gitMessage(error: unknown): string {
	const failure = error as NodeJS.ErrnoException & { stderr?: Buffer | string };
	if (failure.code === 'ENOENT') return 'the git command is not installed';
	const text = failure.stderr ? failure.stderr.toString().trim() : '';
	const line = text.split('\n').find((each) => each.trim() !== '');
	return line ? line.replace(/^fatal: /, '') : failure.message;
}

/** The all-zero object name git gives the missing side of an added or removed file. */
const NO_OBJECT = /^0+$/;

/** One file of a commit as `git log --raw` gives it, before its versions are read. */
export interface RawFileChange {
	status: FileStatus;
	fromPath: string | undefined;
	toPath: string | undefined;
	fromBlob: string | undefined;
	toBlob: string | undefined;
}

/** One commit as `git log --raw` gives it. */
export interface RawCommit extends CommitInfo {
	parents: string[];
	files: RawFileChange[];
}

/** The fields of the format each commit's header is written in, NUL-separated by `-z`. */
export const HEADER_FORMAT = ['%H', '%h', '%cI', '%an', '%P', '%s'].join('%x00');

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
export async function readObjects(
	cwd: string,
	names: readonly string[],
): Promise<Map<string, Buffer>> {
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

/** The facts of one commit, by name, as `git log -1` gives them. */
export async function commitInfo(cwd: string, name: string): Promise<CommitInfo> {
	const output = (await git(cwd, ['log', '-1', '-z', `--format=${HEADER_FORMAT}`, name, '--']))
		.toString('utf8')
		.replace(/\0+$/, '');
	const [commit] = parseRawLog(`${output}\0`);
	if (!commit) throw new Error(`git log gave nothing for ${name}`);
	const { hash, short, date, author, subject } = commit;
	return { hash, short, date, author, subject };
}

/**
 * The repository around a folder: its top, and the folder's path in it with `/`; or why there is
 * none, naming the folder as `what` (e.g. "the views folder").
 */
export async function repositoryOf(
	folder: string,
	what: string,
): Promise<{ top: string; inside: string } | { reason: string }> {
	let real: string;
	try {
		real = await realpath(folder);
	} catch (error) {
		return { reason: `${what} cannot be read (${(error as Error).message})` };
	}
	let top: string;
	try {
		const output = await git(real, ['rev-parse', '--show-toplevel']);
		top = await realpath(output.toString('utf8').trim());
	} catch (error) {
		const message = gitMessage(error);
		if (/not a git repository/i.test(message)) {
			return {
				reason: `${what} is not in a git repository (a copy without .git, or an unpacked archive)`,
			};
		}
		return { reason: message };
	}
	const inside = path.relative(top, real).split(path.sep).join('/');
	return { top, inside };
}

/** The commits where a shallow clone's history stops, from git's list of them. */
export async function boundaryCommits(top: string): Promise<Set<string>> {
	const file = (await git(top, ['rev-parse', '--git-path', 'shallow'])).toString('utf8').trim();
	try {
		const text = await readFile(path.resolve(top, file), 'utf8');
		return new Set(text.split('\n').filter((line) => line.trim() !== ''));
	} catch (error) {
		// No list: git keeps none where no commit's parents are cut off.
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Set();
		throw error;
	}
}

/** A commit of a file log: as `git log --raw` gives it, with where a shallow clone stops. */
export interface LoggedCommit extends RawCommit {
	/** Whether history stops at it in a shallow clone: its parents are missing. */
	boundary: boolean;
}

/** The log of the files a pathspec names, as the readers of a history share it. */
export interface FileLog {
	/** Whether the clone is shallow. */
	shallow: boolean;
	/** The date of the oldest commit a shallow clone reaches; undefined when it is not shallow. */
	boundaryStart: string | undefined;
	/** The commit checked out. */
	head: CommitInfo;
	/** Whether the files differ on disk from the commit checked out. */
	dirty: boolean;
	/** Every commit that changed the files, oldest first, with its short name. */
	commits: LoggedCommit[];
}

/** How a history reads its files' log. */
export interface FileLogOptions {
	/** Whether moves are followed as renames (`git log -M`). */
	renames?: boolean;
	/** Whether a file not yet added makes the files dirty. */
	untracked?: boolean;
	/** Why there is no history when the repository tracks none of the files, in a reader's words. */
	untrackedReason: string;
}

/** Why there is no history when HEAD names no commit. */
const NO_COMMIT_YET = 'the repository has no commit yet';

/**
 * Reads the log of the files `spec` names (a git pathspec) in the repository at `top`: each
 * commit that changed them, oldest first, with their blobs before and after, and where a shallow
 * clone stops; or why there is none. Throws git's failure, which `historyFailure` words.
 */
export async function readFileLog(
	top: string,
	spec: string,
	options: FileLogOptions,
): Promise<FileLog | { reason: string }> {
	const checkedOut = await git(top, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']).catch(
		// --verify --quiet fails without a word for a HEAD that names no commit: that is the answer.
		() => undefined,
	);
	if (!checkedOut) return { reason: NO_COMMIT_YET };
	const tracked = await git(top, ['ls-files', '-z', '--', spec]);
	if (tracked.length === 0) return { reason: options.untrackedReason };
	const [shallowText, log, shortNames, head, status] = await Promise.all([
		git(top, ['rev-parse', '--is-shallow-repository']),
		git(top, [
			'log',
			'-z',
			'--reverse',
			'--raw',
			'--no-abbrev',
			...(options.renames ? ['-M'] : []),
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
		git(top, [
			'status',
			'--porcelain',
			'-z',
			...(options.untracked ? ['--untracked-files=all'] : []),
			'--',
			spec,
		]),
	]);
	const shallow = shallowText.toString('utf8').trim() === 'true';
	const boundaries = shallow ? await boundaryCommits(top) : new Set<string>();
	const short = new Map(
		shortNames
			.toString('utf8')
			.split('\n')
			.map((line) => line.split(' ') as [string, string]),
	);
	const commits = parseRawLog(log.toString('utf8')).map((commit) => ({
		...commit,
		short: short.get(commit.hash) ?? commit.short,
		boundary: boundaries.has(commit.hash) && commit.parents.length === 0,
	}));
	let boundaryStart: string | undefined;
	if (boundaries.size > 0) {
		const dates = await Promise.all(
			[...boundaries].map(async (hash) => (await commitInfo(top, hash)).date),
		);
		boundaryStart = dates.sort((a, b) => Date.parse(a) - Date.parse(b))[0];
	}
	return { shallow, boundaryStart, head, dirty: status.length > 0, commits };
}

/** The blobs a log's commits name, before and after each change. */
export function changedBlobs(commits: readonly RawCommit[]): Set<string> {
	const blobs = new Set<string>();
	for (const commit of commits) {
		for (const change of commit.files) {
			if (change.fromBlob) blobs.add(change.fromBlob);
			if (change.toBlob) blobs.add(change.toBlob);
		}
	}
	return blobs;
}

/** Why a history could not be read, from git's failure while reading it. */
export function historyFailure(error: unknown): { available: false; reason: string } {
	const message = gitMessage(error);
	// A repository without any commit yet has no HEAD to read history from.
	if (/ambiguous argument 'HEAD'|bad revision 'HEAD'|does not have any commits/i.test(message)) {
		return { available: false, reason: NO_COMMIT_YET };
	}
	return { available: false, reason: message };
}

/** A reading made once per process for each key (once per build), the same promise each time. */
export function readOnce<T>(read: (key: string) => Promise<T>): (key: string) => Promise<T> {
	const readings = new Map<string, Promise<T>>();
	return (key) => {
		let reading = readings.get(key);
		if (!reading) {
			reading = read(key);
			readings.set(key, reading);
		}
		return reading;
	};
}

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
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { View } from '../schemas/view.ts';
import { decodeFixture, FIXTURE_MAX_BYTES } from './fixture-file.ts';
import { fixtureFiles, parseFixtureSource } from './fixtures.ts';
import {
	changedBlobs,
	commitInfo,
	git,
	historyFailure,
	parseRawLog,
	readFileLog,
	readObjects,
	readOnce,
	repositoryOf,
	type CommitInfo,
	type FileStatus,
	type GitHistory,
} from './git.ts';

// The commit type and the log's parser moved to git.ts with the rest of the git reading; the
// pages and the tests still import them from here.
export { parseRawLog, type CommitInfo };

/** One version of a fixture file: its view, or the fields that the view schema refuses today. */
export type FixtureVersion =
	{ readable: true; view: View } | { readable: false; fields: readonly string[] };

/** How a commit changed one fixture file. */
export interface FixtureFileChange {
	/** `added`, `modified`, `removed`, or `renamed` (the file moved, perhaps changed too). */
	status: FileStatus;
	/** The slug before the commit; undefined for an added file. */
	fromSlug: string | undefined;
	/** The slug after the commit; undefined for a removed file. */
	toSlug: string | undefined;
	/** The version before the commit, as the parent holds it; undefined for an added file. */
	before: FixtureVersion | undefined;
	/** The version after; undefined for a removed file. */
	after: FixtureVersion | undefined;
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
	/**
	 * The full names of the fixture commits the tag reaches (its commit and its ancestors): what
	 * came after the tag is every other commit, whatever the commits' dates say.
	 */
	reaches: string[];
}

/** The fixtures' history as read, or why there is none. */
export type FixtureHistory = GitHistory<
	FixtureCommit,
	{
		/** Every tag, newest commit first. */
		tags: FixtureTag[];
	}
>;

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

/** A fixture's slug from its path in the repository: the file name without `.json`. */
function slugOf(file: string): string {
	return path.posix.basename(file, '.json');
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
	const repository = await repositoryOf(folder, 'the views folder');
	if ('reason' in repository) return { available: false, reason: repository.reason };
	const { top, inside } = repository;
	const spec = `:(glob)${inside === '' ? '' : `${inside}/`}*.json`;
	try {
		// A folder inside a repository that does not track it (ignored, or never added) has no
		// history, and the repository's commit says nothing about its fixtures.
		const log = await readFileLog(top, spec, {
			renames: true,
			untracked: true,
			untrackedReason:
				"the repository the views folder lies in does not track the folder's fixtures",
		});
		if ('reason' in log) return { available: false, reason: log.reason };
		const raw = log.commits;
		const tagList = await readTags(top);
		const tagFiles = await Promise.all(
			tagList.map(async (tag) => ({
				...tag,
				info: await commitInfo(top, tag.commit),
				files: await fixturesAt(top, inside, tag.commit),
				reaches: (await git(top, ['rev-list', tag.commit, '--', spec]))
					.toString('utf8')
					.split('\n')
					.filter(Boolean),
			})),
		);
		const blobs = changedBlobs(raw);
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
		const commits = raw.map(({ files, parents: _, ...info }): FixtureCommit => {
			return {
				...info,
				files: files.map((file) => ({
					status: file.status,
					fromSlug: file.fromPath === undefined ? undefined : slugOf(file.fromPath),
					toSlug: file.toPath === undefined ? undefined : slugOf(file.toPath),
					before: version(file.fromPath, file.fromBlob),
					after: version(file.toPath, file.toBlob),
				})),
			};
		});
		const start = log.boundaryStart ?? commits[0]?.date;
		// Newest commit first, whenever each tag was made; tags of one commit by name.
		tagFiles.sort(
			(a, b) => Date.parse(b.info.date) - Date.parse(a.info.date) || (a.name < b.name ? -1 : 1),
		);
		const tags = tagFiles.map((tag): FixtureTag => ({
			name: tag.name,
			commit: tag.info,
			reaches: tag.reaches,
			fixtures: tag.files.map(({ file, blob }) => ({
				slug: slugOf(file),
				version: version(file, blob) ?? { readable: false, fields: ['(file)'] },
			})),
		}));
		const { shallow, head, dirty } = log;
		return { available: true, shallow, start, head, dirty, commits, tags };
	} catch (error) {
		return historyFailure(error);
	}
}

/** The fixtures' history of a views folder, read once per process (once per build). */
export const fixtureHistory: (folder: string) => Promise<FixtureHistory> =
	readOnce(readFixtureHistory);

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

/**
 * The contract's history, read from the repository openapi.yaml lies in with the `git` command
 * (src/sources/git.ts, as the fixtures' history is read): every commit that changed the file,
 * oldest first, with its text before and after. Comparing the versions is the site's job
 * (src/site/contract-changes.ts). Without git, outside a repository, or in a shallow clone, the
 * reading says so instead of failing the build.
 */
import path from 'node:path';
import {
	boundaryCommits,
	commitInfo,
	git,
	gitMessage,
	HEADER_FORMAT,
	parseRawLog,
	readObjects,
	repositoryOf,
	type CommitInfo,
	type FileStatus,
	type GitHistory,
} from './git.ts';

/** One commit that changed the contract file. */
export interface ContractCommit extends CommitInfo {
	/** How the commit changed the file: `renamed` only where git followed it. */
	status: FileStatus;
	/**
	 * Whether the commit is where a shallow clone's history stops: its parent is missing, so its
	 * text is the state history starts from, not a text it added.
	 */
	boundary: boolean;
	/** The file's text before the commit; undefined where the commit added it. */
	before: string | undefined;
	/** The file's text after; undefined where the commit removed it. */
	after: string | undefined;
}

/** The contract's history as read, or why there is none. */
export type ContractHistory = GitHistory<ContractCommit>;

/** Reads the history of a contract file from the repository it lies in. */
export async function readContractHistory(file: string): Promise<ContractHistory> {
	const repository = await repositoryOf(path.dirname(file), "the contract's folder");
	if ('reason' in repository) return { available: false, reason: repository.reason };
	const { top, inside } = repository;
	const name = `${inside === '' ? '' : `${inside}/`}${path.basename(file)}`;
	const spec = `:(literal)${name}`;
	try {
		const checkedOut = await git(top, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']).catch(
			() => undefined,
		);
		if (!checkedOut) return { available: false, reason: 'the repository has no commit yet' };
		const tracked = await git(top, ['ls-files', '-z', '--', spec]);
		if (tracked.length === 0) {
			return {
				available: false,
				reason: `the repository the contract lies in does not track ${name}`,
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
				'--no-color',
				'--no-show-signature',
				`--format=${HEADER_FORMAT}`,
				'HEAD',
				'--',
				spec,
			]),
			// --no-abbrev gives whole commit names for %h too, as in fixture-history.ts.
			git(top, ['log', '--format=%H %h', 'HEAD', '--', spec]),
			commitInfo(top, 'HEAD'),
			git(top, ['status', '--porcelain', '-z', '--', spec]),
		]);
		const shallow = shallowText.toString('utf8').trim() === 'true';
		const boundaries = shallow ? await boundaryCommits(top) : new Set<string>();
		const short = new Map(
			shortNames
				.toString('utf8')
				.split('\n')
				.map((line) => line.split(' ') as [string, string]),
		);
		const raw = parseRawLog(log.toString('utf8'));
		const blobs = new Set<string>();
		for (const commit of raw) {
			for (const change of commit.files) {
				if (change.fromBlob) blobs.add(change.fromBlob);
				if (change.toBlob) blobs.add(change.toBlob);
			}
		}
		const objects = await readObjects(top, [...blobs]);
		const text = (blob: string | undefined): string | undefined =>
			blob === undefined ? undefined : objects.get(blob)?.toString('utf8');
		const commits = raw.flatMap(({ files, parents, ...info }): ContractCommit[] => {
			const [change] = files;
			if (!change) return [];
			return [
				{
					...info,
					short: short.get(info.hash) ?? info.short,
					status: change.status,
					boundary: boundaries.has(info.hash) && parents.length === 0,
					before: text(change.fromBlob),
					after: text(change.toBlob),
				},
			];
		});
		let start = commits[0]?.date;
		if (shallow && boundaries.size > 0) {
			const dates = await Promise.all(
				[...boundaries].map(async (hash) => (await commitInfo(top, hash)).date),
			);
			start = dates.sort((a, b) => Date.parse(a) - Date.parse(b))[0] ?? start;
		}
		return { available: true, shallow, start, head, dirty: status.length > 0, commits };
	} catch (error) {
		return { available: false, reason: gitMessage(error) };
	}
}

/** The history of each contract file read in this process: read once per build. */
const readings = new Map<string, Promise<ContractHistory>>();

/** The history of a contract file, read once per process (once per build). */
export function contractHistory(file: string): Promise<ContractHistory> {
	let reading = readings.get(file);
	if (!reading) {
		reading = readContractHistory(file);
		readings.set(file, reading);
	}
	return reading;
}

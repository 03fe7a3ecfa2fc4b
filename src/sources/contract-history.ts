/**
 * The contract's history, read from the repository openapi.yaml lies in with the `git` command
 * (src/sources/git.ts, as the fixtures' history is read): every commit that changed the file,
 * oldest first, with its text before and after. Comparing the versions is the site's job
 * (src/site/contract-changes.ts). Without git, outside a repository, or in a shallow clone, the
 * reading says so instead of failing the build.
 */
import path from 'node:path';
import {
	changedBlobs,
	historyFailure,
	readFileLog,
	readObjects,
	readOnce,
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
	try {
		const log = await readFileLog(top, `:(literal)${name}`, {
			untrackedReason: `the repository the contract lies in does not track ${name}`,
		});
		if ('reason' in log) return { available: false, reason: log.reason };
		const objects = await readObjects(top, [...changedBlobs(log.commits)]);
		const text = (blob: string | undefined): string | undefined =>
			blob === undefined ? undefined : objects.get(blob)?.toString('utf8');
		const commits = log.commits.flatMap(({ files, parents: _, ...info }): ContractCommit[] => {
			const [change] = files;
			if (!change) return [];
			return [
				{
					...info,
					status: change.status,
					before: text(change.fromBlob),
					after: text(change.toBlob),
				},
			];
		});
		const { shallow, head, dirty } = log;
		const start = log.boundaryStart ?? commits[0]?.date;
		return { available: true, shallow, start, head, dirty, commits };
	} catch (error) {
		return historyFailure(error);
	}
}

/** The history of a contract file, read once per process (once per build). */
export const contractHistory: (file: string) => Promise<ContractHistory> =
	readOnce(readContractHistory);

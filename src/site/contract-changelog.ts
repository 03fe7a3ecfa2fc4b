/**
 * The contract's changelog as the pages read it: the contract file's history read once per build
 * (`sources/contract-history.ts`) and told in words once (`contract-changes.ts`), with where
 * history comes from and where it stops, as the fixtures' history pages say it.
 */
import { readSettings } from '../sources/settings.ts';
import { contractHistory } from '../sources/contract-history.ts';
import { contractChangelog, type ContractEntry } from './contract-changes.ts';
import { historyStatusOf, type HistoryStatus } from '../sources/git.ts';

/** The changelog and its history's status. */
export interface ContractChangelog {
	status: HistoryStatus;
	/** Each commit to the contract, newest first. */
	entries: ContractEntry[];
}

let changelog: Promise<ContractChangelog> | undefined;

/** Reads the contract's history and tells it in words. */
async function readChangelog(): Promise<ContractChangelog> {
	const reading = await contractHistory(readSettings().openApiFile);
	return {
		status: historyStatusOf(reading),
		entries: reading.available ? contractChangelog(reading.commits) : [],
	};
}

/** The contract's changelog, computed once per build. */
export function contractChanges(): Promise<ContractChangelog> {
	changelog ??= readChangelog();
	return changelog;
}

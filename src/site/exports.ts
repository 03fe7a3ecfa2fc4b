/**
 * `exports.json`: which data each export was built from. Every export of one build comes from the
 * same fixtures: the commit checked out (and whether the fixtures differed from it) and the
 * digest of the fixture files, which `sha256sum` computes again. Each export's own SHA-256 lets
 * an auditor match a downloaded file to the build.
 */
import { createHash } from 'node:crypto';
import type { FixtureDigest } from '../sources/fixture-history.ts';
import type { HistoryStatus } from './history-collection.ts';

/** One export as the manifest names it. */
export interface ExportRecord {
	/** Its address on the portal, e.g. `/access.csv`. */
	file: string;
	/** The SHA-256 of its bytes, hex. */
	sha256: string;
	/** The commit the fixtures were read at; null without history. */
	commit: string | null;
	/** Whether the fixtures differed from that commit (edits not yet committed). */
	uncommitted: boolean;
	/** The digest of the fixture files it was built from (see `fixtures.sha256`). */
	fixtures: string;
}

/** The manifest. */
export interface ExportsManifest {
	/** The commit the build was made from, its short name and date; null without history. */
	commit: { hash: string; short: string; date: string } | null;
	/** Why there is no commit, when there is none. */
	reason: string;
	fixtures: FixtureDigest & { computedAs: string };
	exports: ExportRecord[];
}

/** The manifest of a build's exports, from their texts. */
export function exportsManifest({
	status,
	fixtures,
	exports,
}: {
	status: Pick<HistoryStatus, 'available' | 'reason' | 'head' | 'dirty'>;
	fixtures: FixtureDigest;
	exports: readonly { file: string; text: string }[];
}): ExportsManifest {
	const commit = status.head
		? { hash: status.head.hash, short: status.head.short, date: status.head.date }
		: null;
	return {
		commit,
		reason: status.available ? '' : status.reason,
		fixtures: {
			...fixtures,
			computedAs: 'cd <views folder> && LC_ALL=C sha256sum *.json | sha256sum',
		},
		exports: exports.map(({ file, text }) => ({
			file,
			sha256: createHash('sha256').update(text, 'utf8').digest('hex'),
			commit: commit?.hash ?? null,
			uncommitted: status.dirty,
			fixtures: fixtures.sha256,
		})),
	};
}

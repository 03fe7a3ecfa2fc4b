/**
 * `npm run bench:changes`: how the contract's changelog classifies this repository's own history of
 * openapi.yaml, with api-smart-diff's rules as the library ships them and with the portal's
 * (`src/site/contract-diff-rules.ts`), side by side: the changes of each class and the share left
 * unclassified, counted as the page lists them (where an operation uses them).
 */
import { apiDiff } from 'api-smart-diff';
import { readContractHistory } from '../src/sources/contract-history.ts';
import { parseContract } from '../src/sources/contract.ts';
import { CHANGE_CLASSES, CLASS_LABELS, contractChangelog } from '../src/site/contract-changes.ts';
import { readSettings } from '../src/sources/settings.ts';
import { table, writeResult } from './lib/report.ts';

const history = await readContractHistory(readSettings().openApiFile);
if (!history.available) throw new Error(`No history of openapi.yaml: ${history.reason}`);

/** Counts per class, as the library ships its rules: each compared commit's changes. */
const shipped = Object.fromEntries(CHANGE_CLASSES.map((each) => [each, 0]));
let last: unknown;
for (const commit of history.commits) {
	if (commit.after === undefined) {
		last = undefined;
		continue;
	}
	const after = parseContract(commit.after, `openapi.yaml at ${commit.short}`);
	if (last !== undefined && !commit.boundary) {
		for (const diff of apiDiff(last, after)) {
			if (diff.path[0] === 'components' && !diff.description) continue;
			shipped[diff.type] = (shipped[diff.type] ?? 0) + 1;
		}
	}
	last = after;
}

/** Counts per class, with the portal's rules, as the page shows them. */
const entries = contractChangelog(history.commits);
const portal = Object.fromEntries(CHANGE_CLASSES.map((each) => [each, 0]));
for (const entry of entries) {
	for (const each of CHANGE_CLASSES) portal[each] = (portal[each] ?? 0) + entry.counts[each];
}

const total = (counts: Record<string, number>): number =>
	Object.values(counts).reduce((sum, value) => sum + value, 0);
const share = (counts: Record<string, number>): string =>
	`${(((counts['unclassified'] ?? 0) / Math.max(total(counts), 1)) * 100).toFixed(1)} %`;
const compared = entries.filter((entry) => entry.kind === 'changed').length;
const folded = entries.filter(
	(entry) => entry.kind === 'changed' && entry.changes.every((c) => c.class === 'annotation'),
).length;

await writeResult({
	name: 'contract-changes',
	title: 'Contract changelog classes',
	markdown: [
		`${history.commits.length} commits changed openapi.yaml; ${compared} compared with the version before.`,
		'',
		table(
			['class', 'api-smart-diff as shipped', 'the portal’s rules'],
			[
				...CHANGE_CLASSES.map((each) => [
					CLASS_LABELS[each],
					String(shipped[each] ?? 0),
					String(portal[each] ?? 0),
				]),
				['all', String(total(shipped)), String(total(portal))],
				['share unclassified', share(shipped), share(portal)],
			],
		),
		'',
		`Commits of documentation only, folded into one line on the page: ${folded} of ${compared}.`,
	].join('\n'),
	data: { commits: history.commits.length, compared, folded, shipped, portal },
});

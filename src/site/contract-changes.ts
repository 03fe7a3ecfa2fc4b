/**
 * The contract's changelog: each commit that changed openapi.yaml, newest first, with its changes
 * classified by api-smart-diff (breaking, non-breaking, deprecated, documentation only,
 * unclassified), with examples, summaries and x- extensions counted as documentation
 * (`contract-diff-rules.ts`), and described in its words. Pure: the commits come from
 * `sources/contract-history.ts`.
 *
 * api-smart-diff follows every `$ref` and reports a change to a shared component where an
 * operation uses it, described and classified there (a value added to an enum a response uses is
 * breaking); under `components` it reports the same change again without a description, and with
 * a classification that knows nothing of where it is used. The changelog lists the changes where
 * they are used and counts the others.
 */
import { apiDiff, type Diff } from 'api-smart-diff';
import { parseContract } from '../sources/contract.ts';
import { contractAnnotateHook, contractDiffRules } from './contract-diff-rules.ts';
import type { ContractCommit } from '../sources/contract-history.ts';
import type { CommitInfo } from '../sources/git.ts';

/** How a change affects the contract's clients, as api-smart-diff classifies it. */
export const CHANGE_CLASSES = [
	'breaking',
	'non-breaking',
	'deprecated',
	'annotation',
	'unclassified',
] as const;

/** One class of change. */
export type ChangeClass = (typeof CHANGE_CLASSES)[number];

/** What a reader calls each class. */
export const CLASS_LABELS: Record<ChangeClass, string> = {
	breaking: 'Breaking',
	'non-breaking': 'Non-breaking',
	deprecated: 'Deprecated',
	annotation: 'Documentation',
	unclassified: 'Unclassified',
};

/**
 * What each class means to a reader of the changelog, as the page and its twin explain it. The
 * classes are api-smart-diff's own; documentation is its "annotation".
 */
export const CLASS_MEANINGS: Record<ChangeClass, string> = {
	breaking:
		'Can stop a client that works today: an operation, a response or a field removed, a field no longer promised, a request made stricter.',
	'non-breaking':
		'Adds to the API or relaxes it without stopping a client that works today: an operation, a response, a header or an optional field added.',
	deprecated:
		'Marks an operation, a parameter, a header or a field for removal: it still works; move off it before it goes.',
	annotation:
		'Changes only what readers see, not what the API does: descriptions, summaries, titles, examples, tags and x- extensions.',
	unclassified:
		'Found by api-smart-diff, which has no rule for it: read it to judge what it does to a client.',
};

/** One change to the contract. */
export interface ContractChange {
	class: ChangeClass;
	/** `add`, `remove`, `replace` or `rename`. */
	action: string;
	/** Where in the document, steps joined by ` › `, e.g. `paths › /api/v2/users › head`. */
	where: string;
	/** The change in api-smart-diff's words, e.g. `[Removed] operation HEAD /api/v2/users`. */
	description: string;
}

/** What a commit did to the contract. */
export type ContractEntryKind = 'added' | 'changed' | 'removed' | 'unreadable' | 'start';

/** One commit of the changelog. */
export interface ContractEntry {
	commit: CommitInfo;
	kind: ContractEntryKind;
	/** The changes where clients meet them, in the library's order. */
	changes: ContractChange[];
	/** How many changes of each class. */
	counts: Record<ChangeClass, number>;
	/** Changes reported only inside `components` (each also reported where it is used, if it is). */
	components: number;
	/** Why the version could not be read or compared, for `unreadable`. */
	problem?: string | undefined;
}

/** No change of any class. */
function noCounts(): Record<ChangeClass, number> {
	return { breaking: 0, 'non-breaking': 0, deprecated: 0, annotation: 0, unclassified: 0 };
}

/** What was done, in the words the library writes its own descriptions with. */
const DONE: Record<string, string> = {
	add: 'Added',
	remove: 'Removed',
	replace: 'Replaced',
	rename: 'Renamed',
};

/** The class of a change, as the library names it. */
function classOf(diff: Diff): ChangeClass {
	return CHANGE_CLASSES.find((each) => each === diff.type) ?? 'unclassified';
}

/** Whether a version string is OpenAPI 3.1's or 3.2's. */
function isVersion(value: unknown, minor: 1 | 2): boolean {
	return typeof value === 'string' && value.startsWith(`3.${minor}.`);
}

/** What OpenAPI 3.2 adds, by the field's name and the object it is written in, in our words. */
const ADDED_IN_3_2: Record<string, { in: string; words: string }> = {
	summary: { in: 'tags', words: "a tag's summary, shown for it in the navigation" },
	parent: { in: 'tags', words: "a tag's parent, which nests it under another in the navigation" },
	kind: { in: 'tags', words: "a tag's kind, such as nav for the navigation" },
	dataValue: { in: 'examples', words: "an example's data, before it is serialised" },
	serializedValue: { in: 'examples', words: 'an example as it is sent, serialised' },
};

/**
 * A change OpenAPI 3.2 brings, in our words and class, where api-smart-diff has none: the move
 * from 3.1 to 3.2 is non-breaking (whatever it does to the operations is listed beside it), and
 * what 3.2 adds for readers (`$self`, a tag's summary, parent and kind, an example's `dataValue`
 * and `serializedValue`) is documentation. Undefined for any other change.
 */
function in32Words(diff: Diff): Pick<ContractChange, 'class' | 'description'> | undefined {
	const [first] = diff.path;
	const last = String(diff.path.at(-1));
	const done = DONE[diff.action] ?? diff.action;
	if (diff.path.length === 1 && first === 'openapi') {
		if (!isVersion(diff.before, 1) || !isVersion(diff.after, 2)) return undefined;
		return {
			class: 'non-breaking',
			description: `[Upgraded] OpenAPI ${String(diff.before)} → ${String(diff.after)}: the same operations, read as before; 3.2 adds nested tags, a response's summary, dataValue and serializedValue examples and the contract's own address ($self)`,
		};
	}
	if (diff.path.length === 1 && first === '$self') {
		return {
			class: 'annotation',
			description: `[${done}] the contract's own address ($self, OpenAPI 3.2)`,
		};
	}
	if (last === 'summary' && diff.path.at(-3) === 'responses') {
		return {
			class: 'annotation',
			description: `[${done}] a response's summary, the line its disclosure shows closed (summary, OpenAPI 3.2)`,
		};
	}
	const added = ADDED_IN_3_2[last];
	if (added && diff.path.at(added.in === 'tags' ? 0 : -3) === added.in) {
		return { class: 'annotation', description: `[${done}] ${added.words} (${last}, OpenAPI 3.2)` };
	}
	return undefined;
}

/** The name of the tag at a place in a version's tag list, if it has one. */
function tagName(document: unknown, index: unknown): string | undefined {
	if (typeof document !== 'object' || document === null || !('tags' in document)) return undefined;
	const { tags } = document;
	if (!Array.isArray(tags) || typeof index !== 'number') return undefined;
	const tag: unknown = tags[index];
	if (typeof tag !== 'object' || tag === null || !('name' in tag)) return undefined;
	return typeof tag.name === 'string' ? tag.name : undefined;
}

/**
 * A tag's change named by the tag, where the library names it by its place in the list (`[Added]
 * 1`): a tag added or removed, renamed, or one of its fields changed. Undefined for any other
 * change, and for a tag with no name to give.
 */
function tagWords(diff: Diff, before: unknown, after: unknown): string | undefined {
	const [first, index, field] = diff.path;
	if (first !== 'tags' || diff.path.length > 3) return undefined;
	const done = DONE[diff.action] ?? diff.action;
	const name = tagName(diff.action === 'remove' ? before : after, index);
	if (name === undefined) return undefined;
	if (field === undefined) return `[${done}] tag ${name}`;
	if (field === 'name' && diff.action === 'replace' && typeof diff.before === 'string') {
		return `[Renamed] tag ${diff.before} to ${name}`;
	}
	if (ADDED_IN_3_2[String(field)]) return undefined;
	return `[${done}] the ${String(field)} of tag ${name}`;
}

/** What an example's value moved to in 3.2, in our words. */
const EXAMPLE_VALUE_MOVES: Record<string, string> = {
	dataValue: "the example's data before it is serialised",
	serializedValue: 'the example as it is sent, serialised',
};

/** Where a change is, as the changelog writes it. */
function whereOf(path: readonly unknown[]): string {
	return path.map(String).join(' › ');
}

/** The field of an object a version holds at a path, if it is one. */
function fieldAt(document: unknown, path: readonly unknown[]): unknown {
	let value = document;
	for (const step of path) {
		if (typeof value !== 'object' || value === null || typeof step !== 'string') return undefined;
		value = (value as Record<string, unknown>)[step];
	}
	return value;
}

/**
 * Where a change is in the document: the rules read an operation of a path item's
 * `additionalOperations` (OpenAPI 3.2) beside its GET, under its method (`paths › /x › COPY`);
 * the changelog says where it is written (`paths › /x › additionalOperations › COPY`).
 */
function placeOf(path: readonly unknown[], before: unknown, after: unknown): readonly unknown[] {
	const [first, item, method] = path;
	if (first !== 'paths' || method === undefined) return path;
	const additional = ['paths', item, 'additionalOperations', method];
	const isAdditional = [before, after].some(
		(document) =>
			fieldAt(document, ['paths', item, method]) === undefined &&
			fieldAt(document, additional) !== undefined,
	);
	return isAdditional ? [...additional, ...path.slice(3)] : path;
}

/**
 * Folds an example's `value` removed and its `dataValue` or `serializedValue` added in the same
 * version into one change, the move 3.2 allows: told once, where the example now keeps it.
 */
function foldExampleMoves(changes: ContractChange[]): ContractChange[] {
	const moved = new Set<string>();
	const folded = changes.map((change) => {
		const steps = change.where.split(' › ');
		const field = steps.at(-1) ?? '';
		const meaning = EXAMPLE_VALUE_MOVES[field];
		if (change.action !== 'add' || meaning === undefined || steps.at(-3) !== 'examples') {
			return change;
		}
		const value = whereOf([...steps.slice(0, -1), 'value']);
		const removed = changes.find((each) => each.where === value && each.action === 'remove');
		if (removed === undefined) return change;
		moved.add(value);
		return {
			...change,
			action: 'rename',
			description: `[Moved] example ${String(steps.at(-2))}'s value to ${field}, ${meaning} (OpenAPI 3.2)`,
		};
	});
	return folded.filter((change) => !(change.action === 'remove' && moved.has(change.where)));
}

/** The changes between two versions of the contract, classified, and those left in components. */
export function compareContracts(
	before: unknown,
	after: unknown,
): { changes: ContractChange[]; components: number } {
	const changes: ContractChange[] = [];
	let components = 0;
	// The library writes what its rules transform (a path item's operations) into the versions it
	// is given: it compares copies, so that each change is placed in the versions as written.
	const diffs = apiDiff(structuredClone(before), structuredClone(after), {
		rules: contractDiffRules(),
		annotateHook: contractAnnotateHook,
	});
	for (const diff of diffs) {
		if (diff.path[0] === 'components' && !diff.description) {
			components += 1;
			continue;
		}
		const tag = tagWords(diff, before, after);
		changes.push({
			class: classOf(diff),
			action: diff.action,
			where: whereOf(placeOf(diff.path, before, after)),
			// The library gives no words for some changes (an example's value): what was done, to what.
			description:
				tag ??
				(diff.description || `[${DONE[diff.action] ?? diff.action}] ${String(diff.path.at(-1))}`),
			...in32Words(diff),
		});
	}
	return { changes: foldExampleMoves(changes), components };
}

/** How many changes of each class a list holds. */
function countClasses(changes: readonly ContractChange[]): Record<ChangeClass, number> {
	const counts = noCounts();
	for (const change of changes) counts[change.class] += 1;
	return counts;
}

/** A version's document, or why it cannot be read. */
function readVersion(
	text: string,
	commit: CommitInfo,
): { document: Record<string, unknown> } | { problem: string } {
	try {
		return { document: parseContract(text, `openapi.yaml at ${commit.short}`) };
	} catch (error) {
		return { problem: error instanceof Error ? error.message : String(error) };
	}
}

/**
 * Walks the commits oldest first and tells what each did to the contract, newest first. A version
 * that cannot be read is an `unreadable` entry; the next readable version is compared with the
 * last readable one. A shallow clone's boundary commit is where history starts.
 */
export function contractChangelog(commits: readonly ContractCommit[]): ContractEntry[] {
	const entries: ContractEntry[] = [];
	let last: Record<string, unknown> | undefined;
	for (const { status, boundary, before, after, ...commit } of commits) {
		const entry = (kind: ContractEntryKind, extra: Partial<ContractEntry> = {}): void => {
			const changes = extra.changes ?? [];
			entries.push({
				commit,
				kind,
				changes,
				counts: countClasses(changes),
				components: 0,
				...extra,
			});
		};
		if (last === undefined && before !== undefined && !boundary) {
			const read = readVersion(before, commit);
			if ('document' in read) last = read.document;
		}
		if (after === undefined) {
			entry('removed');
			last = undefined;
			continue;
		}
		const read = readVersion(after, commit);
		if ('problem' in read) {
			entry('unreadable', { problem: read.problem });
			continue;
		}
		if (boundary) entry('start');
		else if (last === undefined) entry('added');
		else {
			try {
				entry('changed', compareContracts(last, read.document));
			} catch (error) {
				const reason = error instanceof Error ? error.message : String(error);
				entry('unreadable', { problem: `the versions could not be compared (${reason})` });
			}
		}
		last = read.document;
	}
	return entries.reverse();
}

/** Whether a commit changed the contract's documentation and nothing else. */
export function isDocumentationOnly(entry: ContractEntry): boolean {
	return (
		entry.kind === 'changed' &&
		entry.changes.length > 0 &&
		entry.changes.every((change) => change.class === 'annotation')
	);
}

/** A commit's changes counted in words, e.g. "1 breaking, 2 non-breaking"; "no change" for none. */
export function countsInWords(counts: Record<ChangeClass, number>): string {
	const parts = CHANGE_CLASSES.filter((each) => counts[each] > 0).map(
		(each) => `${counts[each]} ${CLASS_LABELS[each].toLowerCase()}`,
	);
	return parts.length > 0 ? parts.join(', ') : 'no change clients see';
}

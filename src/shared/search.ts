/**
 * What a search of the portal decides, in the browser's dialog and in the MCP server alike: the
 * filters and which pages carry them, the filters given to Pagefind, the line refusing filters no
 * page carries together, and the text of an excerpt.
 */

/** The search filters, by the name Pagefind indexes them under, with their label in the dialog. */
export const SEARCH_FILTERS = [
	{ name: 'kind', label: 'Page kind' },
	{ name: 'environment', label: 'Environment' },
	{ name: 'configuration', label: 'Configuration label' },
	{ name: 'api', label: 'API label' },
	{ name: 'role', label: 'Role' },
] as const;

/** A filter's name as Pagefind indexes it. */
export type SearchFilterName = (typeof SEARCH_FILTERS)[number]['name'];

/** The page kinds search can tell apart. */
export const PAGE_KINDS = ['view', 'person', 'access', 'guide', 'reference'] as const;

/** A page kind. */
export type PageKind = (typeof PAGE_KINDS)[number];

/** A filter other than the page kind: one a page carries by what it shows. */
type PageFilterName = Exclude<SearchFilterName, 'kind'>;

/**
 * Which kinds of page carry each filter: a view its environment and labels; a person the
 * environments they are in and the roles they hold; an access page the environment, the role, or
 * both, that it lists people for. Guides and the reference carry none.
 */
export const FILTER_CARRIERS: Readonly<Record<PageFilterName, readonly PageKind[]>> = {
	environment: ['view', 'person', 'access'],
	configuration: ['view'],
	api: ['view'],
	role: ['person', 'access'],
};

/**
 * The filter a page carries for each environment and role it pairs (a person's page for each role
 * they hold in each environment, an access page for the pair it lists). An environment and a role
 * chosen together are searched as this one filter, so that "production" and "admin" find who is
 * admin in production, not whoever is admin somewhere and in production with another role.
 */
export const ACCESS_FILTER = 'access';

/** The value of the access filter for a role held in an environment: `production admin`. */
export function accessFilterValue(environment: string, role: string): string {
	// An environment is a slug and a role one word, so a space cannot be part of either.
	return `${environment} ${role}`;
}

/** A run of excerpt text, marked when it matched the query. */
export interface ExcerptPart {
	text: string;
	mark: boolean;
}

const ENTITIES: Record<string, string> = {
	amp: '&',
	lt: '<',
	gt: '>',
	quot: '"',
	apos: "'",
	nbsp: '\u00a0',
};

/** Decodes the character references Pagefind writes into excerpts; unknown ones stay as text. */
export function decodeEntities(text: string): string {
	return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
		if (name.startsWith('#x') || name.startsWith('#X')) {
			return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
		}
		if (name.startsWith('#')) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
		return ENTITIES[name.toLowerCase()] ?? whole;
	});
}

/** How many words before the first match an excerpt keeps, so the match leads its line. */
const WORDS_BEFORE_MATCH = 3;

/**
 * Splits a Pagefind excerpt (escaped text with `<mark>` around matches) into plain text runs, so
 * the dialog shows it with text nodes and never parses page text as HTML. The excerpt starts at
 * its first match: Pagefind centres it on the match, so a page's host names could fill the lines
 * before it; only the few words just before the match are kept, after an ellipsis.
 */
export function excerptParts(excerpt: string): ExcerptPart[] {
	const parts: ExcerptPart[] = [];
	let mark = false;
	for (const piece of excerpt.split(/(<\/?mark>)/)) {
		if (piece === '<mark>') mark = true;
		else if (piece === '</mark>') mark = false;
		else if (piece) parts.push({ text: decodeEntities(piece), mark });
	}
	const [first] = parts;
	if (first && !first.mark && parts.length > 1) {
		const words = first.text.split(/(?<=\s)/);
		if (words.length > WORDS_BEFORE_MATCH)
			first.text = `… ${words.slice(-WORDS_BEFORE_MATCH).join('')}`;
	}
	return parts;
}

/** The filters chosen in the dialog, without the ones left on "any". */
export function chosenFilters(
	choices: Readonly<Record<string, string>>,
): Record<string, string> | undefined {
	const chosen = Object.fromEntries(Object.entries(choices).filter(([, value]) => value !== ''));
	return Object.keys(chosen).length > 0 ? chosen : undefined;
}

/**
 * The filters to give Pagefind for the dialog's choices: those left on "any" left out, and an
 * environment and a role chosen together searched as the pair (see `ACCESS_FILTER`).
 */
export function pagefindFilters(
	choices: Readonly<Record<string, string>>,
): Record<string, string> | undefined {
	const chosen = chosenFilters(choices);
	const environment = chosen?.['environment'];
	const role = chosen?.['role'];
	if (!chosen || environment === undefined || role === undefined) return chosen;
	const { environment: _environment, role: _role, ...others } = chosen;
	return { ...others, [ACCESS_FILTER]: accessFilterValue(environment, role) };
}

/** "a", "a and b", "a, b and c". */
function listed(items: readonly string[]): string {
	return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** Whether a name is one of the filters a page carries. */
function isPageFilter(name: string): name is PageFilterName {
	return Object.hasOwn(FILTER_CARRIERS, name);
}

/** A chosen filter as the dialog names it: its label, and the kinds of page that carry it. */
interface NamedFilter {
	label: string;
	carriers: readonly PageKind[];
}

/** "Role is on person and access pages", then "API label on view pages", …: where each filter is. */
function whereEach(filters: readonly NamedFilter[]): string {
	return filters
		.map(({ label, carriers }, index) =>
			index === 0
				? `${label} is on ${listed(carriers)} pages`
				: `${label} on ${listed(carriers)} pages`,
		)
		.join(', ');
}

/**
 * What the dialog says instead of searching when the chosen filters cannot all apply to one page:
 * a filter the chosen kind of page does not carry, or filters no kind of page carries together
 * (a configuration label is a view's, a role a person's). Each filter named says which pages carry
 * it. `undefined` when some page can match them all.
 */
export function inapplicableFilters(choices: Readonly<Record<string, string>>): string | undefined {
	const chosen = chosenFilters(choices) ?? {};
	const filters: NamedFilter[] = SEARCH_FILTERS.flatMap(({ name, label }) =>
		isPageFilter(name) && chosen[name] ? [{ label, carriers: FILTER_CARRIERS[name] }] : [],
	);
	const kind = PAGE_KINDS.find((candidate) => candidate === chosen['kind']);
	if (kind) {
		const missing = filters.filter(({ carriers }) => !carriers.includes(kind));
		const [only] = missing;
		if (!only) return undefined;
		const labels = listed(missing.map(({ label }) => label));
		if (missing.length === 1) {
			return `${labels} does not apply to ${kind} pages; it is on ${listed(only.carriers)} pages.`;
		}
		return `${labels} do not apply to ${kind} pages; ${whereEach(missing)}.`;
	}
	const together = PAGE_KINDS.some((candidate) =>
		filters.every(({ carriers }) => carriers.includes(candidate)),
	);
	if (together) return undefined;
	return `No page carries ${listed(filters.map(({ label }) => label))} together; ${whereEach(filters)}.`;
}

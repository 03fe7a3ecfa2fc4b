/**
 * A search of the portal's index as the dialog runs it, with the dialog's own functions
 * (`src/shared/search.ts`): its filters (`pagefindFilters`), its refusal of filters no page carries
 * together (`inapplicableFilters`), its first results and its excerpts (`excerptParts`).
 */
import { excerptParts, inapplicableFilters, pagefindFilters } from '../src/shared/search.ts';
import type { PagefindIndex } from './pagefind.ts';
import { SEARCH_KINDS, ToolInputError, type SearchKind } from './tool-names.ts';

/** The filters of the search dialog; each given one must hold. */
export interface SearchFilters {
	kind?: SearchKind | undefined;
	environment?: string | undefined;
	configuration?: string | undefined;
	api?: string | undefined;
	role?: string | undefined;
}

/** One result: the page's title, portal address, kind, labels line and a short excerpt. */
export interface SearchResult {
	title: string;
	href: string;
	kind: SearchKind;
	labels: string;
	excerpt: string;
}

/** The most results one search returns: as many as the dialog shows. */
export const SEARCH_LIMIT = 20;

/**
 * Searches the portal as the dialog does: the filters chosen (those left out are "any"), refused
 * with the dialog's own line when no page carries them together; the dialog's first results, each
 * with its page's title, address, kind, labels and excerpt (matches marked in the excerpt's text).
 */
export async function searchPortal(
	index: PagefindIndex,
	query: string,
	filters: SearchFilters = {},
): Promise<SearchResult[]> {
	const choices: Record<string, string> = {};
	for (const [name, value] of Object.entries(filters)) {
		if (typeof value === 'string' && value !== '') choices[name] = value;
	}
	const inapplicable = inapplicableFilters(choices);
	if (inapplicable) throw new ToolInputError(`filters: ${inapplicable}`);
	const chosen = pagefindFilters(choices);
	const words = query.trim();
	if (!words && !chosen) {
		throw new ToolInputError('query: expected words to find, or a filter to list what it holds');
	}
	const found = await index.search(words || null, chosen);
	const hits = await found.hits(SEARCH_LIMIT);
	return hits.map((hit) => ({
		title: hit.meta['title'] ?? hit.url,
		href: hit.url,
		kind: SEARCH_KINDS.find((kind) => hit.filters?.['kind']?.includes(kind)) ?? 'view',
		labels: hit.meta['labels'] ?? '',
		excerpt: excerptParts(hit.excerpt)
			.map(({ text, mark }) => (mark ? `**${text}**` : text))
			.join(''),
	}));
}

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

/** The most answers kept per index: an assistant asks again what it asked a moment before. */
const ANSWERS_KEPT = 256;

/**
 * The answers each index gave, by words and filters, oldest first. An index is made for one
 * version of the sources (search-index.ts makes another when they change), so the same question
 * to it has the same answer: Pagefind's excerpts, the costliest part of a search, are worked out
 * once. The answers go with the index they came from.
 */
const answered = new WeakMap<PagefindIndex, Map<string, readonly SearchResult[]>>();

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
	const question = JSON.stringify([words, chosen ?? null]);
	const kept = answered.get(index) ?? new Map<string, readonly SearchResult[]>();
	answered.set(index, kept);
	const known = kept.get(question);
	if (known) return known.map((result) => ({ ...result }));
	const results = await findResults(index, words, chosen);
	kept.set(question, results);
	if (kept.size > ANSWERS_KEPT) kept.delete(kept.keys().next().value ?? question);
	return results.map((result) => ({ ...result }));
}

/** The dialog's first results for words and filters, with their excerpts, from Pagefind. */
async function findResults(
	index: PagefindIndex,
	words: string,
	chosen: Record<string, string> | undefined,
): Promise<SearchResult[]> {
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

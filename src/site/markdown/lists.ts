/**
 * The Markdown twins of the pages that list views: the overview (each environment with its first
 * few views) and an environment's list, a page at a time. They are bounded as their HTML pages
 * are: the overview grows with environments, an environment's page holds at most
 * `ENVIRONMENT_PAGE_SIZE` views and links to its neighbours only.
 */
import { environmentHref, markdownHref, viewHref } from '../../shared/urls.ts';
import { HOME_VIEWS_PER_ENVIRONMENT, viewCount, type EnvironmentGroup } from '../overview.ts';
import type { PublicView } from '../public-view.ts';
import type { List, Paragraph } from 'mdast';
import { bulletList, heading, link, markdownText, paragraph, type Inline } from './mdast.ts';

/** A view as a list gives it: the projection, with its slug beside it for the grouping. */
export interface ListedView {
	slug: string;
	view: PublicView;
}

/** One line of a list of views: the view's name as a link to its twin, and its labels. */
function viewLine({ view }: ListedView): Inline[] {
	const facts = [
		view.configuration ? `configuration ${view.configuration}` : 'no configuration label',
		view.apiVersion ? `API ${view.apiVersion}` : 'no API label',
		`last updated ${view.lastUpdated}`,
	];
	return [link(markdownHref(viewHref(view.slug)), view.name), `: ${facts.join(' · ')}`];
}

/** "3 views · API v5.8, v4.2 · 1 without an API label". */
function groupSummary(group: EnvironmentGroup<ListedView>, total: number): string {
	return [
		viewCount(total),
		...(group.apiLabels.length > 0 ? [`API ${group.apiLabels.join(', ')}`] : []),
		...(group.unlabelled > 0 ? [`${group.unlabelled} without an API label`] : []),
	].join(' · ');
}

/** The overview's twin: every environment with its first views and a link to all of them. */
export function homeMarkdown(groups: readonly EnvironmentGroup<ListedView>[]): string {
	const total = groups.reduce((sum, group) => sum + group.views.length, 0);
	return markdownText([
		heading(1, 'Console views'),
		paragraph(
			`${viewCount(total)} across ${groups.length} environments. Each view's page gives its labels, its user directory with roles, a status note and an example request.`,
		),
		...groups.flatMap((group) => {
			const href = markdownHref(environmentHref(group.environment));
			const more = group.views.length > HOME_VIEWS_PER_ENVIRONMENT;
			return [
				heading(2, link(href, group.environment)),
				paragraph(groupSummary(group, group.views.length)),
				bulletList(group.views.slice(0, HOME_VIEWS_PER_ENVIRONMENT).map(viewLine)),
				...(more
					? [paragraph(link(href, `All ${viewCount(group.views.length)} in ${group.environment}`))]
					: []),
			];
		}),
	]);
}

/** One page of an environment's list, as Astro's `paginate` describes it. */
export interface EnvironmentPage {
	/** The environment's summary: its API labels and unlabelled views, over all its pages. */
	group: Omit<EnvironmentGroup<ListedView>, 'views'>;
	/** The views on this page. */
	views: readonly ListedView[];
	/** How many views the environment has in all. */
	total: number;
	/** This page's number and the last one, from 1. */
	currentPage: number;
	lastPage: number;
	/** The index of this page's first view in the whole list, from 0. */
	start: number;
}

/** The twin of one page of an environment's list of views. */
export function environmentMarkdown(page: EnvironmentPage): string {
	const { environment } = page.group;
	const { currentPage, lastPage } = page;
	const paged = lastPage > 1;
	const neighbours = pageLinks(currentPage, lastPage, (number) =>
		markdownHref(environmentHref(environment, number)),
	);
	const first = page.start + 1;
	const last = page.start + page.views.length;
	return markdownText([
		heading(1, paged ? `${environment}, page ${currentPage} of ${lastPage}` : environment),
		paragraph(
			groupSummary({ ...page.group, views: [] }, page.total),
			...(paged ? [` · views ${first}–${last} on page ${currentPage} of ${lastPage}`] : []),
		),
		bulletList(page.views.map(viewLine)),
		...neighbours,
	]);
}

/**
 * The links from one page of a paged list to its neighbours, its first and its last page, as a
 * list; none for a list of one page. `pageHref` gives a page's twin.
 */
export function pageLinks(
	currentPage: number,
	lastPage: number,
	pageHref: (page: number) => string,
): List[] {
	const links: Inline[][] = [
		...(currentPage > 1 ? [[link(pageHref(currentPage - 1), 'Previous page')]] : []),
		...(currentPage < lastPage ? [[link(pageHref(currentPage + 1), 'Next page')]] : []),
		...(currentPage > 2 ? [[link(pageHref(1), 'First page')]] : []),
		...(currentPage < lastPage - 1 ? [[link(pageHref(lastPage), `Last page (${lastPage})`)]] : []),
	];
	return links.length > 0 ? [bulletList(links)] : [];
}

/** One page of a list cut into pages of `size`, numbered from 1, as Astro's `paginate` cuts it. */
export interface PageSlice<T> {
	currentPage: number;
	lastPage: number;
	/** The index of the page's first item in the whole list, from 0. */
	start: number;
	data: readonly T[];
}

/** A list cut into pages of `size` items; one empty page for an empty list. */
export function pageSlices<T>(items: readonly T[], size: number): PageSlice<T>[] {
	const lastPage = Math.max(1, Math.ceil(items.length / size));
	return Array.from({ length: lastPage }, (_, index) => ({
		currentPage: index + 1,
		lastPage,
		start: index * size,
		data: items.slice(index * size, (index + 1) * size),
	}));
}

/**
 * The rest parameter of a twin's route under `root`, from its HTML page's address:
 * `/access/review/keys/2/` under `/access/review/` is `keys/2` (for `/access/review/keys/2.md`).
 */
export function twinParam(pageHref: string, root: string): string {
	const twin = markdownHref(pageHref);
	if (!twin.startsWith(root)) throw new Error(`The twin ${twin} is not under ${root}`);
	return decodeURIComponent(twin.slice(root.length, -'.md'.length));
}

/**
 * The twins of a paged list, one per page of `size` items, as Astro's `paginate` cuts the HTML
 * list: each page with its twin's rest parameter under `root`. `pageHref` gives a page's HTML page.
 */
export function pagedTwins<T>(
	items: readonly T[],
	size: number,
	pageHref: (page: number) => string,
	root: string,
): { param: string; page: PageSlice<T> }[] {
	return pageSlices(items, size).map((page) => ({
		param: twinParam(pageHref(page.currentPage), root),
		page,
	}));
}

/** The line of a twin that leads to its HTML page, which shows the same list. */
export function htmlPageLink(pageHref: string): Paragraph {
	return paragraph('The same page in HTML: ', link(pageHref, pageHref), '.');
}

/** Links as a run of a sentence, separated by commas: `[a](…), [b](…)`. */
export function commaLinks(links: readonly (readonly [href: string, text: string])[]): Inline[] {
	return links.flatMap(([href, text], index) => [index > 0 ? ', ' : '', link(href, text)]);
}

/** A title, with the page's number when the list has more than one page. */
export function pagedTitle(title: string, { currentPage, lastPage }: PageSlice<unknown>): string {
	return lastPage > 1 ? `${title}, page ${currentPage} of ${lastPage}` : title;
}

/**
 * Which items of a list a page holds, when there is more than one page, to end a sentence:
 * " (rows 101–150 on page 2 of 2)"; nothing for a list of one page.
 */
export function pageRange(page: PageSlice<unknown>, items = ''): string {
	if (page.lastPage <= 1) return '';
	const from = `${items === '' ? '' : `${items} `}${page.start + 1}`;
	return ` (${from}–${page.start + page.data.length} on page ${page.currentPage} of ${page.lastPage})`;
}

/**
 * What `read_page`, `access_changes` and the resources answer, as pure functions of the
 * secret-free snapshot and the access history: a page's Markdown twin, llms.txt, and the access
 * changes. Bad input throws a `ToolInputError` whose one line names the input and what was expected.
 */
import {
	accessChangesHref,
	guideHref,
	OPENAPI_31_JSON_HREF,
	REFERENCE_HREF,
	viewHref,
} from '../src/shared/urls.ts';
import { emailKey } from '../src/shared/person-key.ts';
import { accessEntries, byEnvironment, describeRoles } from '../src/site/people.ts';
import {
	ENVIRONMENT_PAGE_SIZE,
	environmentGroups,
	environmentPageOf,
	type EnvironmentGroup,
} from '../src/site/overview.ts';
import { reviewFlags } from '../src/site/review-flags.ts';
import { PEOPLE_PER_PAGE } from '../src/site/access.ts';
import { ACCESS_KINDS, type AccessKind } from '../src/site/history.ts';
import { VIEW_PAGE_IDS, viewMarkdown } from '../src/site/markdown/view.ts';
import { personMarkdown } from '../src/site/markdown/people.ts';
import {
	environmentMarkdown,
	homeMarkdown,
	pageSlices,
	type ListedView as TwinListedView,
	type PageSlice,
} from '../src/site/markdown/lists.ts';
import {
	accessEnvironmentMarkdown,
	accessEnvironmentRoleMarkdown,
	accessRoleMarkdown,
} from '../src/site/markdown/access.ts';
import { referenceMarkdown } from '../src/site/markdown/reference.ts';
import { contractForPrism, UnservableContractError } from '../src/sources/contract-3-1.ts';
import { guidesMarkdown, llmsTxt } from '../src/site/markdown/llms-txt.ts';
import type { PublicView } from '../src/site/public-view.ts';
import { guideText } from './guide-text.ts';
import type { AccessHistory, PortalSnapshot } from './portal.ts';
import { roleOf } from './directory.ts';
import { READABLE_PAGES, ToolInputError } from './tool-names.ts';

/** What a tool says when asked for a key or a configuration value: where the HTML page shows it. */
export function whereSecretsAre(slug: string): string {
	return `Keys and configuration values are never given here; the HTML page ${viewHref(slug)} shows them, in its user directory (#${VIEW_PAGE_IDS.directory}) and its Configuration block (#${VIEW_PAGE_IDS.configuration}).`;
}

/** `/llms.txt`, as the build writes it; the review pages listed are the directories' flags. */
export function llmsText(portal: PortalSnapshot): string {
	return llmsTxt({
		guides: portal.guides,
		reference: {
			title: portal.reference.title,
			version: portal.reference.version,
			openapi: portal.reference.openapi,
		},
		environments: environmentGroups(portal.views.map((view) => ({ slug: view.slug, view }))).map(
			(group) => ({
				environment: group.environment,
				views: group.views.length,
				apiLabels: group.apiLabels,
			}),
		),
		mock: portal.mock,
		reviews: reviewFlags([...portal.people]).map(({ href, title, findings }) => ({
			href,
			title,
			found: findings.length,
		})),
	});
}

/** A view by slug, or an error naming the slug. */
export function findView(portal: PortalSnapshot, slug: string): PublicView {
	const view = portal.views.find((candidate) => candidate.slug === slug);
	if (!view) {
		throw new ToolInputError(
			`view "${slug}": no such view; expected one of ${portal.views.map((v) => v.slug).join(', ')}`,
		);
	}
	return view;
}

/**
 * The path of a portal address, without query or hash: the path given, or an absolute address's
 * path when it is on one of the portal's origins. An address with a scheme or a host of its own
 * (`http://198.51.100.7/x`, `//other.example/`, `file:///x`) that is not the portal's is an error.
 */
function pathOf(address: string, origins: readonly string[]): string {
	let pathname = address.trim();
	if (/^[a-z][a-z0-9+.-]*:|^[/\\]{2}/i.test(pathname)) {
		let url: URL | undefined;
		try {
			url = new URL(pathname, origins[0]);
		} catch (error) {
			// Not an address at all (URL throws a TypeError): refused below with the portal's
			// origins, as any other address not the portal's.
			if (!(error instanceof TypeError)) throw error;
		}
		if (!url || !origins.includes(url.origin)) {
			throw new ToolInputError(
				`address "${address}": not the portal's; read_page reads the portal's pages, by their path (/views/<slug>/) or on its origin (${origins.join(', ')})`,
			);
		}
		pathname = url.pathname;
	}
	pathname = pathname.replace(/[?#].*$/, '');
	return pathname.startsWith('/') ? pathname : `/${pathname}`;
}

export { READABLE_PAGES };

/**
 * Pages with a Markdown twin that `read_page` does not read, because they are made from the git
 * history or list every review: each with the nearest pages or tool that answers the same.
 */
const ELSEWHERE: readonly [RegExp, string][] = [
	[/^\/access\/changes\//, 'the access_changes tool lists these changes, filtered as this page is'],
	[
		/^\/access\/(since|review|flags)\//,
		'access_changes gives the changes since a tag or date; read_page reads /access/roles/<role>/ and /access/environments/<environment>/',
	],
	[
		/^\/access\/$/,
		'read_page reads /access/environments/<environment>/ and /access/roles/<role>/; who_holds answers who holds a role',
	],
	[/^\/views\/[^/]+\/history\//, 'access_changes with the view’s environment lists its history'],
	[
		/^\/people\/[^/]+\/[^/]+\//,
		'read_page reads /people/<person>/; who_holds with an email gives every view',
	],
	[
		/^\/reference\/changes\//,
		'read_page reads /reference/; the contract is the resource portal:///openapi.json',
	],
];

/**
 * Whether the build publishes the contract's OpenAPI 3.1 equivalent, as it does for a 3.2 contract
 * that 3.1 can say whole (`src/site/published-contract.ts`).
 */
function hasContract31(contract: Record<string, unknown>): boolean {
	if (typeof contract['openapi'] !== 'string' || !contract['openapi'].startsWith('3.2.')) {
		return false;
	}
	try {
		contractForPrism(contract, 'openapi.yaml');
		return true;
	} catch (error) {
		// A contract 3.1 cannot say has no equivalent to name; anything else is a fault to report.
		if (error instanceof UnservableContractError) return false;
		throw error;
	}
}

/**
 * A page's Markdown twin by its portal address (`/views/<slug>/` or `/views/<slug>.md`, a full URL
 * too): the text the build serves as its twin, made from the same projection.
 */
export function readPage(portal: PortalSnapshot, address: string): string {
	const pathname = pathOf(address, portal.origins);
	const page = pathname.endsWith('.md') ? `${pathname.slice(0, -3)}/` : pathname;
	if (page === '/' || page === '/index/') {
		return homeMarkdown(environmentGroups(portal.views.map((view) => ({ slug: view.slug, view }))));
	}
	if (page === '/llms.txt' || page === '/llms.txt/') return llmsText(portal);
	if (page === REFERENCE_HREF) {
		return referenceMarkdown(
			portal.reference,
			portal.reference.servers[0]?.url ?? portal.mock.url,
			hasContract31(portal.contract) ? OPENAPI_31_JSON_HREF : undefined,
		);
	}
	const groups = environmentGroups(portal.views.map((view) => ({ slug: view.slug, view })));
	if (page === '/docs/') {
		return guidesMarkdown(
			portal.guides.map(({ id, title, description }) => ({ id, title, description })),
		);
	}
	const listed = /^\/environments\/([^/]+)\/(?:(\d+)\/)?$/.exec(page);
	if (listed) return environmentPage(groups, listed[1] ?? '', Number(listed[2] ?? 1), address);
	const access = /^\/access\/(environments|roles)\/([^/]+)\/(?:([^/\d][^/]*)\/)?(?:(\d+)\/)?$/.exec(
		page,
	);
	if (access) {
		const [, kind, name = '', second, number = '1'] = access;
		return accessPage(portal, kind === 'roles', name, second, Number(number), address);
	}
	for (const [pattern, instead] of ELSEWHERE) {
		if (pattern.test(page)) {
			throw new ToolInputError(
				`address "${address}": its twin is made from the git history or every review, which read_page does not read; ${instead}`,
			);
		}
	}
	const match = /^\/(views|people|docs)\/([^/]+)\/$/.exec(page);
	if (match?.[1] === 'views') {
		const view = findView(portal, match[2] ?? '');
		const members = groups.find((group) => group.environment === view.environment)?.views ?? [];
		return viewMarkdown(view, {
			environmentPage: environmentPageOf(members, view.slug),
			mock: portal.mock,
		});
	}
	if (match?.[1] === 'people') {
		const person = portal.people.find((candidate) => candidate.slug === match[2]);
		if (!person) throw new ToolInputError(`address "${address}": no person has the page ${page}`);
		return personMarkdown(person, byEnvironment(person.memberships));
	}
	if (match?.[1] === 'docs') {
		const guide = portal.guides.find((candidate) => candidate.id === match[2]);
		if (!guide) {
			throw new ToolInputError(
				`address "${address}": no guide ${page}; expected one of ${portal.guides.map((g) => guideHref(g.id)).join(', ')}`,
			);
		}
		return guideText(guide, portal.mock);
	}
	throw new ToolInputError(`address "${address}": expected one of ${READABLE_PAGES}`);
}

/** An environment's list of views, page by page, as `/environments/<environment>/` twins it. */
function environmentPage(
	groups: readonly EnvironmentGroup<TwinListedView>[],
	environment: string,
	number: number,
	address: string,
): string {
	const found = groups.find((group) => group.environment === environment);
	if (!found) {
		throw new ToolInputError(
			`address "${address}": no view is in the environment "${environment}"; expected one of ${groups.map((group) => group.environment).join(', ')}`,
		);
	}
	const { views, ...group } = found;
	const page = pageSlices(views, ENVIRONMENT_PAGE_SIZE).find(
		(slice) => slice.currentPage === number,
	);
	if (!page) throw new ToolInputError(`address "${address}": ${environment} has no page ${number}`);
	return environmentMarkdown({
		group,
		views: page.data,
		total: views.length,
		currentPage: page.currentPage,
		lastPage: page.lastPage,
		start: page.start,
	});
}

/** An access page by environment (and role) or by role, as `/access/…` twins it. */
function accessPage(
	portal: PortalSnapshot,
	byRole: boolean,
	name: string,
	second: string | undefined,
	number: number,
	address: string,
): string {
	/** The page of `items` the address names, as the portal's list pages cut them. */
	const pageOf = <T>(items: readonly T[]): PageSlice<T> => {
		const pages = pageSlices(items, PEOPLE_PER_PAGE);
		const found = pages.find((slice) => slice.currentPage === number);
		if (!found) {
			throw new ToolInputError(
				`address "${address}": the list has no page ${number}; expected a page from 1 to ${pages.length}`,
			);
		}
		return found;
	};
	const entries = accessEntries(portal.people);
	const environments = [...new Set(entries.map(({ environment }) => environment))];
	if (byRole) {
		if (second !== undefined)
			throw new ToolInputError(`address "${address}": expected /access/roles/<role>/`);
		const role = roleOf(name);
		const holders = entries.filter((entry) => entry.role === role);
		return accessRoleMarkdown(role, environments, holders, pageOf(holders));
	}
	if (!environments.includes(name)) {
		throw new ToolInputError(
			`address "${address}": nobody has access in "${name}"; expected one of ${environments.join(', ')}`,
		);
	}
	if (second === undefined) {
		const people = portal.people.flatMap((person) => {
			const group = byEnvironment(person.memberships).find((g) => g.environment === name);
			return group
				? [
						{
							slug: person.slug,
							name: person.name,
							email: person.email,
							roles: describeRoles(group.roles),
							rolesDiffer: group.roles.length > 1,
						},
					]
				: [];
		});
		return accessEnvironmentMarkdown(name, environments, people, pageOf(people));
	}
	const role = roleOf(second);
	const holders = entries.filter((entry) => entry.environment === name && entry.role === role);
	return accessEnvironmentRoleMarkdown(
		name,
		role,
		environments,
		holders,
		portal.views.filter((view) => view.environment === name).length,
		pageOf(holders),
	);
}

/** One access change, as `/access/changes/` lists it. */
export interface AccessChangeRow {
	date: string;
	commit: string;
	author: string;
	subject: string;
	environment: string;
	slug: string;
	view: string;
	person: string;
	email: string;
	kind: AccessKind;
	role: string;
	from: string;
	to: string;
}

/** The filters of `access_changes`. */
export interface AccessChangeFilters {
	environment?: string | undefined;
	role?: string | undefined;
	kind?: string | undefined;
	email?: string | undefined;
	/** A date (`YYYY-MM-DD` or ISO 8601) or a tag: changes after it (after a tag: in history order). */
	since?: string | undefined;
	limit?: number | undefined;
}

/** A date as `since` takes it: `YYYY-MM-DD`, or ISO 8601 with a time. */
const SINCE_DATE = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * Which commits come after `since`: after a tag, those the tag does not reach (in the history's
 * order, as `git log <tag>..HEAD` lists them, whatever their dates say); after a date, those
 * committed later. An error names the input, what it expects and the tags there are.
 */
function sinceOf(
	history: AccessHistory,
	since: string | undefined,
): (commit: { hash: string; date: string }) => boolean {
	if (since === undefined) return () => true;
	const reached = history.tags.get(since);
	if (reached) return (commit) => !reached.has(commit.hash);
	const after = SINCE_DATE.test(since) ? Date.parse(since) : Number.NaN;
	if (Number.isNaN(after)) {
		const tags = [...history.tags.keys()];
		throw new ToolInputError(
			`since "${since}": expected a date (YYYY-MM-DD or ISO 8601) or a tag${tags.length ? ` (${tags.join(', ')})` : ''}`,
		);
	}
	return (commit) => Date.parse(commit.date) > after;
}

/** The access changes, newest first, filtered; `since` is a date or a git tag. */
export function accessChanges(
	history: AccessHistory,
	filters: AccessChangeFilters,
): { rows: AccessChangeRow[]; total: number; page: string; history: string } {
	const role = filters.role === undefined ? undefined : roleOf(filters.role);
	if (filters.kind !== undefined && !(ACCESS_KINDS as readonly string[]).includes(filters.kind)) {
		throw new ToolInputError(`kind "${filters.kind}": expected one of ${ACCESS_KINDS.join(', ')}`);
	}
	const since = sinceOf(history, filters.since);
	const key = filters.email === undefined ? undefined : emailKey(filters.email);
	const matching = history.entries.filter(
		(entry) =>
			(filters.environment === undefined || entry.environment === filters.environment) &&
			(role === undefined || entry.role === role) &&
			(filters.kind === undefined || entry.kind === filters.kind) &&
			(key === undefined || entry.person?.key === key || entry.previousKey === key) &&
			since(entry.commit),
	);
	const limit = filters.limit ?? 100;
	const status = history.status;
	return {
		rows: matching.slice(0, limit).map((entry) => ({
			date: entry.commit.date,
			commit: entry.commit.short,
			author: entry.commit.author,
			subject: entry.commit.subject,
			environment: entry.environment,
			slug: entry.slug,
			view: entry.view,
			person: entry.person?.name ?? '',
			email: entry.person?.email ?? '',
			kind: entry.kind as AccessKind,
			role: entry.role ?? '',
			from: entry.from ?? '',
			to: entry.to ?? '',
		})),
		total: matching.length,
		page: accessChangesHref(),
		history: status.available
			? `History from ${status.start || 'the first commit'}${status.shallow ? ' (shallow clone)' : ''} to ${status.head?.short ?? 'HEAD'}${status.dirty ? ', with uncommitted edits not in it' : ''}.`
			: `No history: ${status.reason}`,
	};
}

/**
 * The portal's search for an assistant: Pagefind, as the search dialog runs it. The pages the build
 * indexes (views, people, the access pages, guides, the reference) become Pagefind records with
 * the filters and metadata `SearchMeta` gives the built pages (`kind`, `environment`,
 * `configuration`, `api`, `role`, and `access` for an environment and a role together), made from
 * the secret-free snapshot, so search follows edits without a build. A query is run with the
 * dialog's own functions: its filters (`pagefindFilters`), its refusal of filters no page carries
 * together (`inapplicableFilters`), its first results and its excerpts (`excerptParts`).
 */
import { ROLES } from '../../schemas/view.ts';
import { accessHref, guideHref, personHref, REFERENCE_HREF, viewHref } from '../../shared/urls.ts';
import { byEnvironment, describeRoles } from '../people.ts';
import type { PagefindIndex, SearchRecord } from './pagefind.ts';
import { ToolInputError, type PortalSnapshot } from './portal.ts';
import { guideText } from './guide-text.ts';

/** The page kinds search tells apart, as the dialog's kind filter names them. */
export const SEARCH_KINDS = ['view', 'person', 'access', 'guide', 'reference'] as const;

/** A page kind. */
export type SearchKind = (typeof SEARCH_KINDS)[number];

/**
 * What the search dialog decides without a DOM (`src/client/search/search.ts`), handed in by the
 * entry point, as the try-it panel's check is: page data does not import browser code.
 */
export interface DialogSearch {
	/** The page kinds, in the dialog's order. */
	PAGE_KINDS: readonly string[];
	/** The filter an environment and a role chosen together are searched as. */
	ACCESS_FILTER: string;
	accessFilterValue: (environment: string, role: string) => string;
	pagefindFilters: (
		choices: Readonly<Record<string, string>>,
	) => Record<string, string> | undefined;
	inapplicableFilters: (choices: Readonly<Record<string, string>>) => string | undefined;
	excerptParts: (excerpt: string) => { text: string; mark: boolean }[];
}

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

/** A Pagefind record: one page's address, text, title and labels (as `SearchMeta` gives them). */
function record(
	url: string,
	title: string,
	labels: string,
	content: readonly string[],
	filters: Partial<Record<'kind' | 'environment' | 'configuration' | 'api' | 'role', string[]>> & {
		kind: [SearchKind];
	},
	access: { name: string; values: readonly string[] } = { name: 'access', values: [] },
): SearchRecord {
	const all: Record<string, string[]> = { ...filters, [access.name]: [...access.values] };
	for (const [name, values] of Object.entries(all)) if (values.length === 0) delete all[name];
	return {
		url,
		content: content.filter(Boolean).join('\n'),
		meta: { title, labels },
		filters: all,
	};
}

/** A person's count of people, as the access pages' ledes write it. */
function count(total: number, one: string, many: string): string {
	return `${total} ${total === 1 ? one : many}`;
}

/**
 * The records of every page the build indexes (those with `data-pagefind-body`), with the text
 * each page's indexed part shows, from the secret-free snapshot. The reference's contract-change
 * pages, which need the contract's history, are not among them.
 */
export function searchRecords(portal: PortalSnapshot, dialog: DialogSearch): SearchRecord[] {
	const records: SearchRecord[] = [];
	/** The access filter of the environments and roles a page pairs. */
	const access = (pairs: readonly { environment: string; role: string }[]) => ({
		name: dialog.ACCESS_FILTER,
		values: pairs.map(({ environment, role }) => dialog.accessFilterValue(environment, role)),
	});
	for (const view of portal.views) {
		const labels = [view.environment, view.configuration, view.apiVersion].filter(Boolean);
		records.push(
			record(
				viewHref(view.slug),
				view.name,
				labels.join(' · '),
				[
					view.name,
					labels.join(' '),
					view.statusNote,
					'Users',
					...view.users.map((user) => `${user.name} ${user.email} ${user.role}`),
				],
				{
					kind: ['view'],
					environment: [view.environment],
					configuration: view.configuration ? [view.configuration] : [],
					api: view.apiVersion ? [view.apiVersion] : [],
				},
			),
		);
	}
	const environments = new Map<string, Set<string>>();
	for (const person of portal.people) {
		const groups = byEnvironment(person.memberships);
		for (const group of groups) {
			const people = environments.get(group.environment) ?? new Set<string>();
			people.add(person.slug);
			environments.set(group.environment, people);
		}
		records.push(
			record(
				personHref(person.slug),
				person.name,
				`${person.email} · ${describeRoles(person.roles)}`,
				[
					'Person',
					person.name,
					person.email,
					...person.otherNames,
					...person.memberships.map((m) => `${m.view} ${m.environment} ${m.role}`),
				],
				{
					kind: ['person'],
					environment: groups.map((group) => group.environment),
					role: person.roles.map(({ role }) => role),
				},
				access(
					groups.flatMap(({ environment, roles }) =>
						roles.map(({ role }) => ({ environment, role })),
					),
				),
			),
		);
	}
	records.push(
		record(
			accessHref(),
			'Access by environment and role',
			'Access · every environment and role',
			[
				'Access by environment and role',
				`${count(portal.people.length, 'person', 'people')} in ${count(portal.views.length, 'view', 'views')} across ${count(environments.size, 'environment', 'environments')}.`,
			],
			{ kind: ['access'] },
		),
	);
	for (const [environment, people] of environments) {
		records.push(
			record(
				accessHref(environment),
				`Who has access in ${environment}`,
				`Access · ${environment}`,
				[
					`Who has access in ${environment}`,
					`${count(people.size, 'person', 'people')} in ${environment}'s views, with the roles they hold there.`,
				],
				{ kind: ['access'], environment: [environment] },
			),
		);
		for (const role of ROLES) {
			records.push(
				record(
					accessHref(environment, role),
					`Who is ${role} in ${environment}`,
					`Access · ${role} in ${environment}`,
					[`Who is ${role} in ${environment}`, `The role ${role} in ${environment}'s views.`],
					{ kind: ['access'] },
					access([{ environment, role }]),
				),
			);
		}
	}
	for (const role of ROLES) {
		records.push(
			record(
				accessHref(undefined, role),
				`Who is ${role}, by environment`,
				`Access · ${role} in any environment`,
				[`Who is ${role}, by environment`, `The role ${role} in at least one view.`],
				{ kind: ['access'], role: [role] },
			),
		);
	}
	for (const guide of portal.guides) {
		records.push(
			record(
				guideHref(guide.id),
				guide.title,
				`Guide · ${guide.title}`,
				[guideText(guide, portal.mock)],
				{ kind: ['guide'] },
			),
		);
	}
	const api = portal.reference;
	records.push(
		record(
			REFERENCE_HREF,
			`${api.title} ${api.version}`,
			`API reference · ${api.title} ${api.version}`,
			[
				api.title,
				api.summary ?? '',
				api.description ?? '',
				...api.operations.flatMap((operation) => [
					`${operation.method} ${operation.path}`,
					operation.summary ?? '',
					operation.description ?? '',
					...operation.responses.flatMap((response) => [
						`${response.status} ${response.description}`,
						...response.headers.map((header) => header.name),
						...response.bodies.flatMap((body) =>
							body.rows.map((row) => `${row.field} ${row.description}`),
						),
					]),
				]),
			],
			{ kind: ['reference'] },
		),
	);
	return records;
}

/**
 * Searches the portal as the dialog does: the filters chosen (those left out are "any"), refused
 * with the dialog's own line when no page carries them together; the dialog's first results, each
 * with its page's title, address, kind, labels and excerpt (matches marked in the excerpt's text).
 */
export async function searchPortal(
	dialog: DialogSearch,
	index: PagefindIndex,
	query: string,
	filters: SearchFilters = {},
): Promise<SearchResult[]> {
	const choices: Record<string, string> = {};
	for (const [name, value] of Object.entries(filters)) {
		if (typeof value === 'string' && value !== '') choices[name] = value;
	}
	const inapplicable = dialog.inapplicableFilters(choices);
	if (inapplicable) throw new ToolInputError(`filters: ${inapplicable}`);
	const chosen = dialog.pagefindFilters(choices);
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
		excerpt: dialog
			.excerptParts(hit.excerpt)
			.map(({ text, mark }) => (mark ? `**${text}**` : text))
			.join(''),
	}));
}

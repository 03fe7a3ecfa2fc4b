/**
 * The portal's search for an assistant: Pagefind, as the search dialog runs it. The pages the build
 * indexes (views, people, the access pages, guides, the reference and its contract changes) become
 * Pagefind records with the filters and metadata `SearchMeta` gives the built pages (`kind`,
 * `environment`, `configuration`, `api`, `role`, and `access` for an environment and a role
 * together), made from the secret-free snapshot, so search follows edits without a build. Each
 * record holds the text of its page's searched part (`data-pagefind-body` less
 * `data-pagefind-ignore`), made by the functions the pages use where they have one
 * (`page-text.ts`, `viewHosts`, the changelog's words); a test compares its results with the built
 * site's. The records are made only when the search index is (search-index.ts); a query is run by
 * search-query.ts.
 */
import { ROLES } from '../src/schemas/view.ts';
import { ACCESS_FILTER, accessFilterValue } from '../src/shared/search.ts';
import {
	accessHref,
	guideHref,
	personHref,
	REFERENCE_HREF,
	referenceChangesHref,
	viewHref,
} from '../src/shared/urls.ts';
import { accessEntries, byEnvironment, describeRoles, roleDiffers } from '../src/site/people.ts';
import { count } from '../src/site/access.ts';
import { CHANGE_CLASSES, CLASS_LABELS, CLASS_MEANINGS } from '../src/site/contract-changes.ts';
import {
	CHANGES_FILE,
	changesHeading,
	changesLede,
	changesPageProseText,
	entrySummary,
} from '../src/site/contract-changes-text.ts';
import { shortSubject } from '../src/site/history.ts';
import type { ContractChangesPage } from '../src/site/markdown/contract-changes.ts';
import {
	accessOverviewLede,
	environmentAccessLede,
	otherNameViews,
	personSummary,
	roleAccessLede,
	roleInEnvironmentLede,
	viewHostsText,
} from '../src/site/page-text.ts';
import { proseParagraphs } from '../src/site/prose.ts';
import { formatShortTimestamp } from '../src/site/time.ts';
import type { SearchRecord } from './pagefind.ts';
import type { SearchKind } from './tool-names.ts';
import type { PortalSnapshot } from './portal.ts';
import { guideText } from './guide-text.ts';

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

/** The text of one page of the contract's changelog, as its HTML page shows it. */
function contractChangesText(page: ContractChangesPage): string[] {
	const { status } = page;
	const lede = changesLede({ ...page, shown: page.entries.length });
	const lines = [
		changesHeading(page),
		`${lede.before} ${CHANGES_FILE}${lede.after}`,
		changesPageProseText(),
		// The page's <dt> and <dd> touch, with no space between: Pagefind reads one word there.
		...CHANGE_CLASSES.map((each) => `${CLASS_LABELS[each]}${CLASS_MEANINGS[each]}`),
	];
	if (!status.available) {
		lines.push(
			`History unavailable: ${status.reason}. Only today's contract is shown, on the API reference.`,
		);
	} else {
		if (status.shallow) {
			lines.push(
				`History from ${status.start.slice(0, 10)} on; the clone is shallow. Changes before then are not shown (git fetch --unshallow fetches them).`,
			);
		}
		if (status.dirty && status.head) {
			lines.push(
				`openapi.yaml differs from commit ${status.head.short}: changes not committed yet are not in this history.`,
			);
		}
		if (page.total === 0) lines.push('No commit changed the contract in the history there is.');
	}
	for (const entry of page.entries) {
		const { commit } = entry;
		const summary = `${entrySummary(entry)}${entry.problem ? ` ${entry.problem}` : ''}`;
		lines.push(
			formatShortTimestamp(commit.date),
			// CommitCell's parts touch, as the dt and dd do: the short name, subject and "by" run on.
			`${commit.short}${shortSubject(commit.subject)}by ${commit.author}`,
			summary,
			...entry.changes.map((change) => {
				const description = (proseParagraphs(change.description)[0] ?? [])
					.map((part) => part.text)
					.join('');
				return `${CLASS_LABELS[change.class]} ${description} ${change.where}`;
			}),
		);
	}
	if (status.available && status.shallow) {
		lines.push(`Changes before ${status.start.slice(0, 10)} are not in this clone.`);
	}
	return lines;
}

/** An example's value as the reference page shows it: a string as it is, anything else as JSON. */
function exampleText(value: unknown): string {
	return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

/**
 * The records of every page the build indexes (those with `data-pagefind-body`), with the text
 * each page's indexed part shows, from the secret-free snapshot and the contract's changelog.
 */
export function searchRecords(
	portal: PortalSnapshot,
	contractChanges: readonly ContractChangesPage[] = [],
): SearchRecord[] {
	const records: SearchRecord[] = [];
	/** The access filter of the environments and roles a page pairs. */
	const access = (pairs: readonly { environment: string; role: string }[]) => ({
		name: ACCESS_FILTER,
		values: pairs.map(({ environment, role }) => accessFilterValue(environment, role)),
	});
	for (const view of portal.views) {
		const labels = [view.environment, view.configuration, view.apiVersion].filter(Boolean);
		const hosts = portal.hosts[view.slug];
		records.push(
			record(
				viewHref(view.slug),
				view.name,
				labels.join(' · '),
				[
					`Console view ${view.slug}`,
					view.name,
					hosts ? viewHostsText(hosts) : '',
					'Status note',
					view.statusNote,
					'User directory',
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
		const otherNames = person.otherNames.map(
			(name) => `“${name}” (${count(otherNameViews(person, name), 'view', 'views')})`,
		);
		records.push(
			record(
				personHref(person.slug),
				person.name,
				`${person.email} · ${describeRoles(person.roles)}`,
				[
					'Person',
					person.name,
					`Email ${person.email}`,
					otherNames.length > 0
						? `Also appears as ${otherNames.join(', ')}. The page gives the name most of their views use.`
						: '',
					personSummary(person, groups.length),
					roleDiffers(person)
						? "Their role differs between views. Each view's role is in the tables below."
						: '',
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
	const viewsIn = new Map<string, number>();
	for (const view of portal.views) {
		viewsIn.set(view.environment, (viewsIn.get(view.environment) ?? 0) + 1);
	}
	const holdings = accessEntries(portal.people);
	records.push(
		record(
			accessHref(),
			'Access by environment and role',
			'Access · every environment and role',
			[
				'Access by environment and role',
				accessOverviewLede(
					portal.people.length,
					new Set(portal.people.flatMap(({ memberships }) => memberships.map(({ slug }) => slug)))
						.size,
					environments.size,
				),
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
				[`Who has access in ${environment}`, environmentAccessLede(environment, people.size)],
				{ kind: ['access'], environment: [environment] },
			),
		);
		for (const role of ROLES) {
			const holders = holdings.filter(
				(holding) => holding.environment === environment && holding.role === role,
			);
			records.push(
				record(
					accessHref(environment, role),
					`Who is ${role} in ${environment}`,
					`Access · ${role} in ${environment}`,
					[
						`Who is ${role} in ${environment}`,
						roleInEnvironmentLede(role, environment, holders.length, viewsIn.get(environment) ?? 0),
					],
					{ kind: ['access'] },
					access([{ environment, role }]),
				),
			);
		}
	}
	for (const role of ROLES) {
		const people = new Set(
			holdings.filter((holding) => holding.role === role).map(({ slug }) => slug),
		);
		records.push(
			record(
				accessHref(undefined, role),
				`Who is ${role}, by environment`,
				`Access · ${role} in any environment`,
				[`Who is ${role}, by environment`, roleAccessLede(role, people.size)],
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
						...response.headers.flatMap((header) => [
							header.name,
							header.description ?? '',
							...header.examples.map((example) => `example: ${exampleText(example.value)}`),
						]),
						...response.bodies.flatMap((body) => [
							body.mediaType,
							...body.rows.map((row) => `${row.field} ${row.description}`),
							// Each view's example, as the page shows it: names, emails and roles, no key.
							...body.examples.map(
								(example) =>
									`${example.name}: ${example.summary ?? ''} ${exampleText(example.value)}`,
							),
						]),
					]),
				]),
			],
			{ kind: ['reference'] },
		),
	);
	for (const page of contractChanges) {
		const title =
			page.lastPage > 1
				? `Contract changes, page ${page.currentPage} of ${page.lastPage}`
				: 'Contract changes';
		records.push(
			record(
				referenceChangesHref(page.currentPage),
				title,
				'API reference · contract changes',
				contractChangesText(page),
				{ kind: ['reference'] },
			),
		);
	}
	return records;
}

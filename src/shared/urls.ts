/**
 * Every address the portal links to or fetches, and every file it publishes, in one place: the
 * pages, the components and the browser scripts all build their links here, so a route that moves
 * moves once. It runs in the build and in the browser, so it imports nothing but types.
 *
 * Each part of an address is percent-encoded. The build's slugs, environments, roles and person
 * slugs are made of characters that need no encoding, so their links read as written; a slug the
 * browser reads from an address or an answer cannot break out of its path segment.
 */
import type { Role } from '../schemas/view.ts';
import type { Side } from './compare.ts';

/** One path segment, percent-encoded. */
const segment = encodeURIComponent;

/** A multi-part id (e.g. a guide in a subfolder), each part percent-encoded. */
const segments = (id: string): string => id.split('/').map(segment).join('/');

/** The overview: every environment with its first views. */
export const HOME_HREF = '/';

/** The guides' index. */
export const GUIDES_HREF = '/docs/';

/** The API reference. */
export const REFERENCE_HREF = '/reference/';

/** The contract's changelog: each commit to openapi.yaml, newest first, its changes classified. */
export const REFERENCE_CHANGES_HREF = `${REFERENCE_HREF}changes/`;

/** The compare page; `?a=<slug>&b=<slug>` picks its views. */
export const COMPARE_HREF = '/compare/';

/** The folder of the view pages: a page's address starts with it. */
export const VIEWS_ROOT = '/views/';

/** The folder of the environments' pages. */
export const ENVIRONMENTS_ROOT = '/environments/';

/** The folder of the people's pages. */
export const PEOPLE_ROOT = '/people/';

/** The access overview's folder, and the overview itself. */
export const ACCESS_ROOT = '/access/';

/** The published contract, as JSON. */
export const OPENAPI_JSON_HREF = '/openapi.json';

/** The published contract, as YAML. */
export const OPENAPI_YAML_HREF = '/openapi.yaml';

/** The published contract as OpenAPI 3.1, for tools that read only 3.1 (plain Prism). */
export const OPENAPI_31_JSON_HREF = '/openapi-3.1.json';

/** The access export: one row per person per view. */
export const ACCESS_CSV_HREF = '/access.csv';

/** The export of every change the fixtures' history holds: one row per change. */
export const ACCESS_CHANGES_CSV_HREF = '/access-changes.csv';

/** Today's access and each commit's change to it, for the page that compares any date with today. */
export const ACCESS_SINCE_JSON_HREF = '/access-since.json';

/** Which commit and fixtures each export was built from, with each export's digest. */
export const EXPORTS_HREF = '/exports.json';

/** Every access change in the fixtures' history, newest first. */
export const ACCESS_CHANGES_HREF = `${ACCESS_ROOT}changes/`;

/** The net difference of access between a tag or a date and today. */
export const ACCESS_SINCE_HREF = `${ACCESS_ROOT}since/`;

/** Keys not rotated for longer than the limit, a review flag from history. */
export const REVIEW_KEYS_HREF = `${ACCESS_ROOT}review/keys/`;

/** Views whose directory has not changed while the others' did, a review flag from history. */
export const REVIEW_VIEWS_HREF = `${ACCESS_ROOT}review/views/`;

/** The folder of the search index, which Pagefind writes and the search dialog loads. */
export const SEARCH_INDEX_HREF = '/pagefind/';

/**
 * The list of the search index's further bundles, inside its folder: a JSON array of their folders
 * (`["bundle-2/"]`), relative to it, which the search dialog merges into the first. Empty for a
 * site whose pages fit in one bundle.
 */
export const SEARCH_BUNDLES_FILE = 'bundles.json';

/** The folder of the search index's `number`th bundle (from 2), inside the index's folder. */
export function searchBundleFolder(number: number): string {
	return `bundle-${number}/`;
}

/** The portal's guide for AI assistants (llmstxt.org): what it is, and links to the Markdown twins. */
export const LLMS_TXT_HREF = '/llms.txt';

/** The portal's icon. */
export const FAVICON_HREF = '/favicon.svg';

/**
 * The pages that compare two views without JavaScript, which the compare page frames: the
 * environments, an environment's views a page at a time, and each side's starting view.
 */
export const SIDE_ROOT = `${COMPARE_HREF}side/`;

/** A guide's page, from its id (its file name under `content/docs/` without the extension). */
export function guideHref(id: string): string {
	return `${GUIDES_HREF}${segments(id)}/`;
}

/** A view's page. */
export function viewHref(slug: string): string {
	return `${VIEWS_ROOT}${segment(slug)}/`;
}

/** The address of an environment's page: its first page, or page `page` (counted from 1). */
export function environmentHref(environment: string, page = 1): string {
	return `${ENVIRONMENTS_ROOT}${segment(environment)}/${pageSuffix(page)}`;
}

/** A person's page, from the slug their email gives (`personSlug` in person-key.ts). */
export function personHref(personSlug: string): string {
	return `${PEOPLE_ROOT}${segment(personSlug)}/`;
}

/** The address of page `page` (from 1) of a person's views in one environment. */
export function personEnvironmentHref(personSlug: string, environment: string, page = 1): string {
	return `${personHref(personSlug)}${segment(environment)}/${pageSuffix(page)}`;
}

/** The access page for an environment, a role, both or neither; page `page` (from 1) of its people. */
export function accessHref(environment?: string, role?: Role, page = 1): string {
	if (environment && role) {
		return `${ACCESS_ROOT}environments/${segment(environment)}/${segment(role)}/${pageSuffix(page)}`;
	}
	if (environment) return `${ACCESS_ROOT}environments/${segment(environment)}/${pageSuffix(page)}`;
	if (role) return `${ACCESS_ROOT}roles/${segment(role)}/${pageSuffix(page)}`;
	return ACCESS_ROOT;
}

/**
 * The id of a person's row in a view's user directory, from their person slug: letters, digits,
 * `-` and `_` only, as HTML checkers ask of an id, so a dot is written `_2e`, the way the slug
 * writes any other character (`_` and its hex code; a slug has no `_` otherwise).
 */
export function directoryRowId(personSlug: string): string {
	return `user-${personSlug.replaceAll('.', '_2e')}`;
}

/** A person's row in a view's user directory: the view's page, at that row. */
export function directoryRowHref(slug: string, personSlug: string): string {
	return `${viewHref(slug)}#${encodeURIComponent(directoryRowId(personSlug))}`;
}

/** The page of one review flag, listing what it found: its first page, or page `page` (from 1). */
export function reviewFlagHref(id: string, page = 1): string {
	return `${ACCESS_ROOT}flags/${segment(id)}/${pageSuffix(page)}`;
}

/** A view's history: its changes, newest first, page `page` (from 1). */
export function viewHistoryHref(slug: string, page = 1): string {
	return `${viewHref(slug)}history/${pageSuffix(page)}`;
}

/** The one thing the access changes are filtered by, if any. */
export type ChangesFilter =
	{ environment: string } | { role: Role } | { kind: string } | { person: string } | undefined;

/** A kind of change as an address writes it: `role changed` is `role-changed`. */
export function kindSlug(kind: string): string {
	return kind.replace(/ /g, '-');
}

/** Page `page` (from 1) of the access changes, filtered by an environment, role, kind or person. */
export function accessChangesHref(filter?: ChangesFilter, page = 1): string {
	const suffix = pageSuffix(page);
	if (!filter) return `${ACCESS_CHANGES_HREF}${suffix}`;
	if ('environment' in filter) {
		return `${ACCESS_CHANGES_HREF}environments/${segment(filter.environment)}/${suffix}`;
	}
	if ('role' in filter) return `${ACCESS_CHANGES_HREF}roles/${segment(filter.role)}/${suffix}`;
	if ('kind' in filter) {
		return `${ACCESS_CHANGES_HREF}kinds/${segment(kindSlug(filter.kind))}/${suffix}`;
	}
	return `${ACCESS_CHANGES_HREF}people/${segment(filter.person)}/${suffix}`;
}

/**
 * A git tag as a path segment: letters, digits, `.` and `-` kept, every other character (a `/`,
 * an `_`) written `_<hex>` byte by byte, so no two tags share a segment.
 */
export function tagSlug(tag: string): string {
	return tag.replace(/[^A-Za-z0-9.-]/gu, (char) =>
		[...new TextEncoder().encode(char)].map((byte) => `_${byte.toString(16)}`).join(''),
	);
}

/** Page `page` (from 1) of what changed in access between a tag and today. */
export function accessSinceHref(tag: string, page = 1): string {
	return `${ACCESS_SINCE_HREF}${segment(tagSlug(tag))}/${pageSuffix(page)}`;
}

/** Page `page` (from 1) of the contract's changelog. */
export function referenceChangesHref(page = 1): string {
	return `${REFERENCE_CHANGES_HREF}${pageSuffix(page)}`;
}

/** Page `page` (from 1) of the keys not rotated for longer than the limit. */
export function reviewKeysHref(page = 1): string {
	return `${REVIEW_KEYS_HREF}${pageSuffix(page)}`;
}

/** Page `page` (from 1) of the views whose directory has not changed while the others' did. */
export function reviewViewsHref(page = 1): string {
	return `${REVIEW_VIEWS_HREF}${pageSuffix(page)}`;
}

/** One view's facts as the compare page fetches them. */
export function compareFactsHref(slug: string): string {
	return `${COMPARE_HREF}${segment(slug)}.json`;
}

/** One environment's views as the compare page fetches them. */
export function compareEnvironmentHref(environment: string): string {
	return `${COMPARE_HREF}environments/${segment(environment)}.json`;
}

/** The address of an environment's views, page `page` (from 1), as a side of the comparison lists them. */
export function sideEnvironmentHref(environment: string, page = 1): string {
	return `${SIDE_ROOT}environments/${segment(environment)}/${pageSuffix(page)}`;
}

/**
 * The page a side frame opens on: its starting view, shown without a `#fragment`, since a frame
 * that opens on a fragment scrolls the page around it down to the frame.
 */
export function sideStartHref(side: Side): string {
	return `${SIDE_ROOT}start/${segment(side)}/`;
}

/** The views with one directory, by the directory's fingerprint, as the try-it panel fetches them. */
export function directoryHref(fingerprint: string): string {
	return `/try-it/directories/${segment(fingerprint)}.json`;
}

/**
 * A page's Markdown twin, beside it: `/views/production/` → `/views/production.md`, a numbered page
 * `/environments/production/2/` → `/environments/production/2.md`, and the overview `/` →
 * `/index.md`. The twin carries the page's facts as Markdown for AI assistants and terminals.
 */
export function markdownHref(pageHref: string): string {
	return pageHref === HOME_HREF ? '/index.md' : `${pageHref.replace(/\/$/, '')}.md`;
}

/**
 * The pages without a Markdown twin: the compare page and its frames (an interactive picker whose
 * facts are those of the view twins) and the 404 page. Every other page has one, the review pages,
 * the access changes filtered one way and access since a tag among them.
 */
const WITHOUT_TWIN = /^\/(?:compare\/|404(?:\.html|\/)?$)/;

/** The Markdown twin of the page at `pathname`, or undefined for the pages that have none. */
export function markdownTwinHref(pathname: string): string | undefined {
	if (WITHOUT_TWIN.test(pathname)) return undefined;
	return pathname.endsWith('/') ? markdownHref(pathname) : undefined;
}

/** What follows a paged list's address for page `page`: nothing for the first page. */
function pageSuffix(page: number): string {
	return page > 1 ? `${page}/` : '';
}

/**
 * Where the pages send readers to the mock, as the build's settings give it: PORTAL_MOCK_URL,
 * PORTAL_URL and MOCK_PORT. Every page, sample, policy and published file that names the mock
 * takes its address from the functions below.
 */
export interface MockPlace {
	/** PORTAL_MOCK_URL: an http(s) address without a trailing slash, or a path on the portal's origin (`/`). */
	mockUrl: string;
	/** PORTAL_URL: the portal's origin, on which a path-only `mockUrl` is resolved for samples. */
	portalUrl: string;
	/** MOCK_PORT: the port a reader's own mock (`npm run mock`) listens on. */
	mockPort: number;
}

/** The address of a reader's own mock, `npm run mock` on this machine. */
export function localMockUrl(port: number): string {
	return `http://127.0.0.1:${port}`;
}

/** Whether the pages send readers to their own local mock (the default), not a shared one. */
export function mockIsLocal(place: MockPlace): boolean {
	return place.mockUrl === localMockUrl(place.mockPort);
}

/** Whether the mock is on the portal's own origin, whatever name the portal is read under. */
export function mockIsSameOrigin(place: MockPlace): boolean {
	return place.mockUrl.startsWith('/');
}

/**
 * The mock's address as the pages write it out, always absolute: in samples, the endpoint card, the
 * published contract, the Markdown twins and llms.txt. A path is resolved on the portal's origin.
 */
export function shownMockUrl(place: MockPlace): string {
	if (!mockIsSameOrigin(place)) return place.mockUrl;
	return place.mockUrl === '/' ? place.portalUrl : `${place.portalUrl}${place.mockUrl}`;
}

/**
 * The address try-it sends to first, before the reader picks another: the mock's own, with a path
 * kept as a path, which the panel resolves on the origin the page was read from.
 */
export function tryItMockUrl(place: MockPlace): string {
	return place.mockUrl;
}

/**
 * The origins a page may connect to (its CSP `connect-src`): its own (search, and a mock on the
 * same origin), the readers' mock, and a reader's own local mock on the same port.
 */
export function mockConnectSources(place: MockPlace): string[] {
	const sources = ["'self'"];
	if (!mockIsSameOrigin(place)) sources.push(new URL(place.mockUrl).origin);
	for (const local of [localMockUrl(place.mockPort), `http://localhost:${place.mockPort}`]) {
		if (!sources.includes(local)) sources.push(local);
	}
	return sources;
}

/** Every address the portal links to or fetches, as src/shared/urls.ts builds it. */
import { describe, expect, it } from 'vitest';
import {
	ACCESS_CSV_HREF,
	accessHref,
	compareEnvironmentHref,
	compareFactsHref,
	directoryHref,
	directoryRowHref,
	directoryRowId,
	environmentHref,
	guideHref,
	LLMS_TXT_HREF,
	markdownHref,
	markdownTwinHref,
	OPENAPI_JSON_HREF,
	OPENAPI_YAML_HREF,
	personEnvironmentHref,
	personHref,
	reviewFlagHref,
	SEARCH_INDEX_HREF,
	SIDE_ROOT,
	sideEnvironmentHref,
	sideStartHref,
	viewHref,
} from '../../../src/shared/urls.ts';

describe('page addresses', () => {
	it('gives each view, guide and person a page of its own', () => {
		expect(viewHref('production-edge')).toBe('/views/production-edge/');
		expect(guideHref('getting-started')).toBe('/docs/getting-started/');
		expect(personHref('amara.okafor')).toBe('/people/amara.okafor/');
		expect(personHref('sam_2bops_40corp.example')).toBe('/people/sam_2bops_40corp.example/');
	});

	it('gives environment pages a first page without a number and numbered pages after it', () => {
		expect(environmentHref('production')).toBe('/environments/production/');
		expect(environmentHref('production', 1)).toBe('/environments/production/');
		expect(environmentHref('production', 3)).toBe('/environments/production/3/');
	});

	it('gives each access filter combination its own page', () => {
		expect(accessHref()).toBe('/access/');
		expect(accessHref('production')).toBe('/access/environments/production/');
		expect(accessHref(undefined, 'admin')).toBe('/access/roles/admin/');
		expect(accessHref('production', 'admin')).toBe('/access/environments/production/admin/');
		expect(personEnvironmentHref('amara.okafor', 'production')).toBe(
			'/people/amara.okafor/production/',
		);
		expect(personEnvironmentHref('amara.okafor', 'production', 3)).toBe(
			'/people/amara.okafor/production/3/',
		);
	});

	it('gives each review flag a page, paged, and each directory row an address of its own', () => {
		expect(reviewFlagHref('role-differs')).toBe('/access/flags/role-differs/');
		expect(reviewFlagHref('role-differs', 2)).toBe('/access/flags/role-differs/2/');
		// An id of letters, digits, "-" and "_" only: a dot is written as the slug writes other
		// characters, `_` and its hex code, which no slug holds otherwise.
		expect(directoryRowId('priya.raman')).toBe('user-priya_2eraman');
		expect(directoryRowId('a-b')).toBe('user-a-b');
		expect(directoryRowHref('production-edge', 'priya.raman')).toBe(
			'/views/production-edge/#user-priya_2eraman',
		);
		expect(directoryRowHref('production', 'sam_2bops_40corp.example')).toBe(
			'/views/production/#user-sam_2bops_40corp_2eexample',
		);
	});

	it('gives each side of the comparison without JavaScript its own addresses', () => {
		expect(SIDE_ROOT).toBe('/compare/side/');
		expect(sideStartHref('a')).toBe('/compare/side/start/a/');
		expect(sideStartHref('b')).toBe('/compare/side/start/b/');
		expect(sideEnvironmentHref('production')).toBe('/compare/side/environments/production/');
		expect(sideEnvironmentHref('production', 1)).toBe('/compare/side/environments/production/');
		expect(sideEnvironmentHref('production', 2)).toBe('/compare/side/environments/production/2/');
	});
});

describe('published files', () => {
	it('names the contract, the export and the search index', () => {
		expect(OPENAPI_JSON_HREF).toBe('/openapi.json');
		expect(OPENAPI_YAML_HREF).toBe('/openapi.yaml');
		expect(ACCESS_CSV_HREF).toBe('/access.csv');
		expect(SEARCH_INDEX_HREF).toBe('/pagefind/');
	});

	it('gives the files the compare page and the try-it panel fetch', () => {
		expect(compareFactsHref('production-edge')).toBe('/compare/production-edge.json');
		expect(compareEnvironmentHref('production')).toBe('/compare/environments/production.json');
		expect(directoryHref('3f9a1c')).toBe('/try-it/directories/3f9a1c.json');
	});
});

describe('a slug read from an address or an answer', () => {
	it('stays inside its path segment, percent-encoded', () => {
		expect(viewHref('../admin?x=1#y')).toBe('/views/..%2Fadmin%3Fx%3D1%23y/');
		expect(compareFactsHref('a/b')).toBe('/compare/a%2Fb.json');
		expect(compareEnvironmentHref('prod uction')).toBe('/compare/environments/prod%20uction.json');
		expect(directoryHref('a/../b')).toBe('/try-it/directories/a%2F..%2Fb.json');
	});

	it('keeps the folders of a guide in a subfolder, encoding each part', () => {
		expect(guideHref('ops/zoë')).toBe('/docs/ops/zo%C3%AB/');
	});
});

describe('Markdown twins', () => {
	it('sit beside their pages: the address with .md in place of the trailing slash', () => {
		expect(markdownHref('/views/production/')).toBe('/views/production.md');
		expect(markdownHref('/environments/production/2/')).toBe('/environments/production/2.md');
		expect(markdownHref('/docs/getting-started/')).toBe('/docs/getting-started.md');
		expect(markdownHref('/docs/')).toBe('/docs.md');
		expect(markdownHref('/reference/')).toBe('/reference.md');
		expect(markdownHref('/people/amara.okafor/')).toBe('/people/amara.okafor.md');
		expect(markdownHref('/access/environments/production/admin/')).toBe(
			'/access/environments/production/admin.md',
		);
		expect(markdownHref('/')).toBe('/index.md');
		expect(LLMS_TXT_HREF).toBe('/llms.txt');
	});

	it('exist for every page but compare, its frames and the 404 page', () => {
		expect(markdownTwinHref('/')).toBe('/index.md');
		expect(markdownTwinHref('/views/production/')).toBe('/views/production.md');
		expect(markdownTwinHref('/access/')).toBe('/access.md');
		expect(markdownTwinHref('/people/amara.okafor/production/3/')).toBe(
			'/people/amara.okafor/production/3.md',
		);
		for (const pathname of [
			'/compare/',
			'/compare/side/',
			'/compare/side/start/a/',
			'/404',
			'/404/',
			'/404.html',
		]) {
			expect(markdownTwinHref(pathname), pathname).toBeUndefined();
		}
		// The review pages, the access changes filtered one way and access since a tag have theirs.
		expect(markdownTwinHref('/access/flags/several-names/')).toBe('/access/flags/several-names.md');
		expect(markdownTwinHref('/access/flags/role-differs/2/')).toBe(
			'/access/flags/role-differs/2.md',
		);
		expect(markdownTwinHref('/access/review/keys/')).toBe('/access/review/keys.md');
		expect(markdownTwinHref('/access/review/views/2/')).toBe('/access/review/views/2.md');
		expect(markdownTwinHref('/access/changes/environments/production/')).toBe(
			'/access/changes/environments/production.md',
		);
		expect(markdownTwinHref('/access/changes/roles/admin/')).toBe('/access/changes/roles/admin.md');
		expect(markdownTwinHref('/access/changes/kinds/granted/2/')).toBe(
			'/access/changes/kinds/granted/2.md',
		);
		expect(markdownTwinHref('/access/changes/people/amara.okafor/')).toBe(
			'/access/changes/people/amara.okafor.md',
		);
		expect(markdownTwinHref('/access/since/')).toBe('/access/since.md');
		expect(markdownTwinHref('/access/since/v1.0/3/')).toBe('/access/since/v1.0/3.md');
		// A view's history and the access changes, each page of them, have theirs.
		expect(markdownTwinHref('/views/production/history/')).toBe('/views/production/history.md');
		expect(markdownTwinHref('/views/production/history/2/')).toBe('/views/production/history/2.md');
		expect(markdownTwinHref('/access/changes/')).toBe('/access/changes.md');
		expect(markdownTwinHref('/access/changes/3/')).toBe('/access/changes/3.md');
		// A file is not a page: it has no twin.
		expect(markdownTwinHref('/openapi.json')).toBeUndefined();
		// A page whose name starts like 404 is a page.
		expect(markdownTwinHref('/views/404-errors/')).toBe('/views/404-errors.md');
		// A view named like a history folder is a view.
		expect(markdownTwinHref('/views/history/')).toBe('/views/history.md');
	});
});

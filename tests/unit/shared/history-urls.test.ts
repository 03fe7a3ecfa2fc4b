/** The addresses of the history's pages and exports, as src/shared/urls.ts builds them. */
import { describe, expect, it } from 'vitest';
import {
	ACCESS_CHANGES_CSV_HREF,
	ACCESS_CHANGES_HREF,
	ACCESS_SINCE_HREF,
	ACCESS_SINCE_JSON_HREF,
	accessChangesHref,
	accessSinceHref,
	EXPORTS_HREF,
	kindSlug,
	tagSlug,
	viewHistoryHref,
} from '../../../src/shared/urls.ts';

describe('history addresses', () => {
	it("gives a view's history a first page without a number and numbered pages after it", () => {
		expect(viewHistoryHref('production-edge')).toBe('/views/production-edge/history/');
		expect(viewHistoryHref('production-edge', 2)).toBe('/views/production-edge/history/2/');
	});

	it('gives the access changes one page per filter, each paged', () => {
		expect(ACCESS_CHANGES_HREF).toBe('/access/changes/');
		expect(accessChangesHref()).toBe('/access/changes/');
		expect(accessChangesHref(undefined, 3)).toBe('/access/changes/3/');
		expect(accessChangesHref({ environment: 'production' })).toBe(
			'/access/changes/environments/production/',
		);
		expect(accessChangesHref({ role: 'admin' }, 2)).toBe('/access/changes/roles/admin/2/');
		expect(accessChangesHref({ kind: 'role changed' })).toBe('/access/changes/kinds/role-changed/');
		expect(accessChangesHref({ person: 'amara.okafor' })).toBe(
			'/access/changes/people/amara.okafor/',
		);
		expect(kindSlug('key rotated')).toBe('key-rotated');
	});

	it('gives every git tag a page whose segment no other tag shares', () => {
		expect(ACCESS_SINCE_HREF).toBe('/access/since/');
		expect(accessSinceHref('v1.0')).toBe('/access/since/v1.0/');
		expect(accessSinceHref('release/2026_10', 2)).toBe('/access/since/release_2f2026_5f10/2/');
		expect(tagSlug('release/2026')).not.toBe(tagSlug('release_2026'));
		expect(tagSlug('déjà')).toBe('d_c3_a9j_c3_a0');
	});

	it('publishes the exports at the top of the site', () => {
		expect([ACCESS_CHANGES_CSV_HREF, ACCESS_SINCE_JSON_HREF, EXPORTS_HREF]).toEqual([
			'/access-changes.csv',
			'/access-since.json',
			'/exports.json',
		]);
	});
});

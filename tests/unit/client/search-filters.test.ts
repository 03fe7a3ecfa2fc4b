/**
 * How the search dialog's filters combine: environment and role together mean "holds that role in
 * that environment", and a filter no page of the chosen kind carries is named, not searched.
 */
import { describe, expect, it } from 'vitest';
import {
	accessFilterValue,
	inapplicableFilters,
	pagefindFilters,
} from '../../../src/shared/search.ts';

describe('the filters the dialog sends to Pagefind', () => {
	it('sends environment and role together as the one pair a person holds: production admin', () => {
		expect(pagefindFilters({ kind: '', environment: 'production', role: 'admin' })).toEqual({
			access: 'production admin',
		});
		expect(
			pagefindFilters({ kind: 'person', environment: 'dr-eu-west', role: 'viewer', api: '' }),
		).toEqual({ kind: 'person', access: 'dr-eu-west viewer' });
	});

	it('sends an environment or a role alone as itself', () => {
		expect(pagefindFilters({ environment: 'production', role: '' })).toEqual({
			environment: 'production',
		});
		expect(pagefindFilters({ environment: '', role: 'deployer' })).toEqual({ role: 'deployer' });
		expect(pagefindFilters({ kind: 'view', api: 'v5.8' })).toEqual({ kind: 'view', api: 'v5.8' });
	});

	it('sends nothing when every filter is on "Any"', () => {
		expect(pagefindFilters({ kind: '', environment: '', role: '' })).toBeUndefined();
		expect(pagefindFilters({})).toBeUndefined();
	});

	it('writes the pair a page carries as the environment, a space, and the role', () => {
		expect(accessFilterValue('staging-us-east', 'operator')).toBe('staging-us-east operator');
	});
});

describe('filters that cannot apply', () => {
	it('says a role does not apply to view pages, and where roles are', () => {
		expect(inapplicableFilters({ kind: 'view', role: 'admin' })).toBe(
			'Role does not apply to view pages; it is on person and access pages.',
		);
	});

	it('says which filters do not apply to guides, each with the pages that carry it', () => {
		expect(inapplicableFilters({ kind: 'guide', environment: 'production', role: 'admin' })).toBe(
			'Environment and Role do not apply to guide pages; Environment is on view, person and access pages, Role on person and access pages.',
		);
		expect(inapplicableFilters({ kind: 'reference', api: 'v5.8' })).toBe(
			'API label does not apply to reference pages; it is on view pages.',
		);
	});

	it('says when no kind of page carries two filters together', () => {
		expect(inapplicableFilters({ kind: '', configuration: 'Edge', role: 'admin' })).toBe(
			'No page carries Configuration label and Role together; Configuration label is on view pages, Role on person and access pages.',
		);
		expect(inapplicableFilters({ api: 'v5.8', configuration: 'Edge', role: 'viewer' })).toBe(
			'No page carries Configuration label, API label and Role together; Configuration label is on view pages, API label on view pages, Role on person and access pages.',
		);
	});

	it('has nothing to say when the filters can match a page', () => {
		expect(inapplicableFilters({ environment: 'production', role: 'admin' })).toBeUndefined();
		expect(
			inapplicableFilters({ kind: 'person', environment: 'production', role: 'admin' }),
		).toBeUndefined();
		expect(
			inapplicableFilters({ kind: 'access', environment: 'production', role: '' }),
		).toBeUndefined();
		expect(
			inapplicableFilters({ kind: 'view', environment: 'production', configuration: 'Edge' }),
		).toBeUndefined();
		expect(inapplicableFilters({ kind: 'guide', environment: '' })).toBeUndefined();
		expect(inapplicableFilters({})).toBeUndefined();
	});
});

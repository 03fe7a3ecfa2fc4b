/**
 * The view the Markdown twins are made from: every fact a reader needs, and neither a key nor a
 * configuration value, at run time or in its type.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadViews } from '../../../src/sources/fixtures.ts';
import { publicView } from '../../../src/site/public-view.ts';
import { ROOT } from '../../../support/processes.ts';
import { secretValues } from '../../support/markdown.ts';

const views = await loadViews(path.join(ROOT, 'content/views'));

describe('a view without its secrets', () => {
	it('holds no key and no configuration value, anywhere in it', () => {
		const secrets = secretValues(views);
		expect(secrets.length).toBe(views.length * 18);
		for (const entry of views) {
			const text = JSON.stringify(publicView(entry));
			for (const { where, value } of secrets) expect(text, where).not.toContain(value);
		}
	});

	it('copies the fields it names and no other, into a new object', () => {
		const entry = views.find(({ slug }) => slug === 'production');
		if (!entry) throw new Error('expected the production fixture');
		const projected = publicView(entry);
		expect(Object.keys(projected).sort()).toEqual(
			[
				'apiVersion',
				'baseUrl',
				'configuration',
				'environment',
				'exampleUser',
				'generatedAt',
				'lastUpdated',
				'name',
				'slug',
				'statusNote',
				'users',
			].sort(),
		);
		for (const user of projected.users) {
			expect(Object.keys(user).sort()).toEqual(['email', 'name', 'personSlug', 'role']);
		}
		expect(projected.exampleUser).toEqual({ name: 'Fatima Zahra Idrissi', role: 'viewer' });
		expect(projected).toMatchObject({
			slug: 'production',
			name: 'production · Production',
			environment: 'production',
			configuration: 'Production',
			apiVersion: 'v5.8',
			lastUpdated: '2026-11-18T09:30:12.345Z',
			generatedAt: '2026-11-18T09:31:00.000Z',
			baseUrl: 'http://203.0.113.24:8443',
		});
		expect(projected.users[0]).toEqual({
			name: 'Amara Okafor',
			email: 'amara.okafor@example.com',
			role: 'admin',
			personSlug: 'amara.okafor',
		});
		// A field added to a view reaches no twin until the projection names it.
		const grown = { ...entry, view: { ...entry.view, newSecret: 'ick-00000000-NEW0' } };
		expect(JSON.stringify(publicView(grown))).not.toContain('ick-00000000-NEW0');
	});

	it('has no key or configuration in its type either', () => {
		const entry = views[0];
		if (!entry) throw new Error('expected a fixture');
		const projected = publicView(entry);
		// astro check (tsc) fails if any of these lines compiles: the type cannot reach a secret.
		// @ts-expect-error a public view has no configuration block
		expect(projected.config).toBeUndefined();
		// @ts-expect-error a public user has no key
		expect(projected.users[0]?.apiKey).toBeUndefined();
		// @ts-expect-error the example user is a name and a role, without the key
		expect(projected.exampleUser.apiKey).toBeUndefined();
	});
});

/** openapi.yaml stays in step with the fixtures: one example per view, generated, never keys. */
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
	CONTRACT_FILE,
	contractExamples,
	EXAMPLES_PATH,
	ROLE_ENUM_PATH,
	SYNC_COMMAND,
	syncContract,
} from '../../mock/sync-openapi.ts';
import { loadViews, type ViewEntry } from '../../src/schemas/fixtures.ts';
import { KEY_SHAPE } from '../../src/schemas/key.ts';
import { readSettings } from '../../src/schemas/settings.ts';
import { ROLES } from '../../src/schemas/view.ts';

/** The plain value at a path of the YAML text's mappings. */
function valueAt(text: string, path: readonly string[]): unknown {
	let node: unknown = parse(text);
	for (const step of path) {
		node =
			node !== null && typeof node === 'object'
				? (node as Record<string, unknown>)[step]
				: undefined;
	}
	return node;
}

let views: ViewEntry[];
let contract: string;

beforeAll(async () => {
	views = await loadViews(readSettings({}).viewsDir);
	contract = await readFile(CONTRACT_FILE, 'utf8');
});

describe('openapi.yaml', () => {
	it('matches the fixtures (the reference page and the mock show what the view pages show)', () => {
		expect(
			contract === syncContract(contract, views),
			`openapi.yaml differs from the fixtures: run \`${SYNC_COMMAND}\` and commit the result`,
		).toBe(true);
	});

	it('states the key shape in the bearer scheme, as the fixtures check it', () => {
		const description = valueAt(contract, [
			'components',
			'securitySchemes',
			'directoryKey',
			'description',
		]);
		expect(String(description).replace(/\s+/g, ' ')).toContain(KEY_SHAPE);
	});
});

describe('syncContract', () => {
	it('writes one example per view, named by slug, with its users in directory order and no keys', () => {
		const written = valueAt(syncContract(contract, views), EXAMPLES_PATH) as Record<
			string,
			{ value: { users: unknown[] } }
		>;
		expect(Object.keys(written)).toEqual(views.map(({ slug }) => slug));
		for (const { slug, view } of views) {
			expect(written[slug]?.value.users).toEqual(
				view.users.map(({ name, email, role }) => ({ name, email, role })),
			);
		}
		const text = JSON.stringify(written);
		for (const { view } of views) {
			for (const user of view.users) expect(text).not.toContain(user.apiKey);
			expect(text).not.toContain(view.config.api_key);
		}
	});

	it('follows a changed directory: renamed, reordered and removed views', () => {
		const [first, second, ...rest] = views;
		if (!first || !second) throw new Error('expected at least two views');
		const renamed = {
			...first,
			view: {
				...first.view,
				users: [...first.view.users]
					.reverse()
					.map((user, index) => (index === 0 ? { ...user, name: 'Renamed Person' } : user)),
			},
		};
		const changed = [renamed, ...rest];
		const synced = syncContract(contract, changed);
		expect(synced).not.toBe(contract);
		expect(synced).toContain('Renamed Person');
		expect(synced).not.toMatch(new RegExp(`^ +${second.slug}:$`, 'm'));
		expect(syncContract(synced, changed)).toBe(synced);
		expect(syncContract(synced, views)).toBe(contract);
	});

	it('keeps the hand-written parts: comments, descriptions and order', () => {
		const edited = contract
			.replace('# The contract', '# A hand-written comment\n# The contract')
			.replace('summary: List the directory', 'summary: List (edited) the directory');
		const synced = syncContract(edited, views);
		expect(synced).toContain('# A hand-written comment');
		expect(synced).toContain('summary: List (edited) the directory');
		expect(synced.replace('# A hand-written comment\n', '')).toBe(
			contract.replace('summary: List the directory', 'summary: List (edited) the directory'),
		);
	});

	it('takes the role enum from the view schema', () => {
		const stale = contract.replace(/(\n\s+- )viewer\n/, '$1auditor\n');
		expect(stale).not.toBe(contract);
		expect(valueAt(stale, ROLE_ENUM_PATH)).toContain('auditor');
		expect(valueAt(syncContract(stale, views), ROLE_ENUM_PATH)).toEqual([...ROLES]);
	});

	it('says where the generated parts should be when they are missing', () => {
		expect(() => syncContract('openapi: 3.1.0\npaths: {}\n', views)).toThrow(/200 examples/);
	});

	it('gives a summary to every example', () => {
		for (const example of Object.values(contractExamples(views))) {
			expect(example.summary).toMatch(/^The directory of the .+ view \(.+\)$/);
		}
	});
});

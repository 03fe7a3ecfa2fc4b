/** The published contract: the hand-written openapi.yaml, composed with every view's example. */
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
	composeContract,
	ContractError,
	parseContract,
	readContract,
} from '../../src/lib/contract.ts';
import { loadViews, type ViewEntry } from '../../src/schemas/fixtures.ts';
import { readSettings } from '../../src/schemas/settings.ts';
import { ROLES } from '../../src/schemas/view.ts';

const settings = readSettings({});
let views: ViewEntry[];
let contract: Record<string, unknown>;

beforeAll(async () => {
	views = await loadViews(settings.viewsDir);
	contract = (await readContract(settings.openApiFile)).document;
});

/** The 200 examples of a composed document, read by hand rather than through the module. */
function examplesOf(document: unknown): Record<string, { value: unknown }> {
	const json = JSON.parse(JSON.stringify(document)) as {
		paths: Record<
			string,
			{
				get: {
					responses: Record<
						string,
						{ content: Record<string, { examples?: Record<string, { value: unknown }> }> }
					>;
				};
			}
		>;
	};
	return (
		json.paths['/api/v2/users']?.get.responses['200']?.content['application/json']?.examples ?? {}
	);
}

describe('openapi.yaml as written by hand', () => {
	it('holds no view’s users: no email and no key of any fixture appears in it', async () => {
		const text = await readFile(settings.openApiFile, 'utf8');
		for (const { view } of views) {
			for (const user of view.users) {
				expect(text).not.toContain(user.email);
				expect(text).not.toContain(user.apiKey);
			}
		}
		expect(examplesOf(parse(text))).toEqual({});
	});

	it('lists exactly the roles of the view schema', () => {
		const schemas = (contract['components'] as { schemas: { Role: { enum: unknown } } }).schemas;
		expect(schemas.Role.enum).toEqual([...ROLES]);
	});
});

describe('composeContract', () => {
	it('adds one example per view, named by its slug, with its users in order and no keys', () => {
		const composed = composeContract(contract, views, {
			mockOrigin: 'http://127.0.0.1:5010',
			file: 'openapi.yaml',
		});
		const examples = examplesOf(composed);
		// In slug order, so the build and the mock, which read the views in other orders, agree.
		expect(Object.keys(examples)).toEqual(views.map(({ slug }) => slug).sort());
		expect(Object.keys(examples)[0]).toBe('dr-eu-west');
		for (const { slug, view } of views) {
			expect(examples[slug]?.value).toEqual({
				users: view.users.map(({ name, email, role }) => ({ name, email, role })),
			});
		}
		const text = JSON.stringify(composed);
		for (const { view } of views) {
			for (const user of view.users) expect(text).not.toContain(user.apiKey);
			expect(text).not.toContain(view.config.api_key);
		}
	});

	it('names the configured mock as the first server, keeping its description', () => {
		const composed = composeContract(contract, views, {
			mockOrigin: 'http://127.0.0.1:5010',
			file: 'openapi.yaml',
		});
		const [server] = composed['servers'] as { url: string; description?: string }[];
		expect(server?.url).toBe('http://127.0.0.1:5010');
		expect(server?.description).toMatch(/local mock/);
	});

	it('leaves the hand-written document as it was', () => {
		const before = JSON.stringify(contract);
		composeContract(contract, views, { mockOrigin: 'http://127.0.0.1:1', file: 'openapi.yaml' });
		expect(JSON.stringify(contract)).toBe(before);
	});

	it('names the file and the missing field when the users answer is not there', () => {
		const broken = parseContract(
			'openapi: 3.1.0\npaths:\n  /api/v2/users:\n    get: {}\n',
			'x.yaml',
		);
		expect(() =>
			composeContract(broken, views, { mockOrigin: 'http://127.0.0.1:1', file: 'x.yaml' }),
		).toThrow(
			new ContractError(
				'x.yaml: paths./api/v2/users.get.responses: expected a mapping; the contract must describe the 200 application/json answer of GET /api/v2/users, where each view’s example goes'.replace(
					'’',
					"'",
				),
			),
		);
	});
});

describe('parseContract', () => {
	it('names the file and the line of a YAML error', () => {
		expect(() => parseContract('openapi: 3.1.0\npaths: [\n', 'broken.yaml')).toThrow(
			/^broken\.yaml: expected valid YAML \(.*line 3/,
		);
	});

	it('refuses a document that is not a mapping', () => {
		expect(() => parseContract('- a\n- b\n', 'list.yaml')).toThrow(
			'list.yaml: expected an OpenAPI document (a mapping)',
		);
	});
});

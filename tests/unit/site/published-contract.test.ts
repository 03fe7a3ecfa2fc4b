/**
 * The published contract as the build's routes read it: composed once for a reading of
 * openapi.yaml and a state of the views collection, and again when either changes (the dev
 * server follows edits to both).
 */
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadViews, type ViewEntry } from '../../../src/sources/fixtures.ts';
import { referenceFromDocument } from '../../../src/sources/openapi.ts';
import { contractForPrism } from '../../../src/sources/contract-3-1.ts';
import { readSettings } from '../../../src/sources/settings.ts';

let store: { id: string; data: ViewEntry['view']; filePath: string }[] = [];
vi.mock('astro:content', () => ({
	getCollection: async () =>
		Promise.resolve(store.map((entry) => ({ ...entry, collection: 'views' }))),
}));

// The composing is watched, not changed: which views each form of the contract is composed with.
const composeContract = vi.hoisted(() => vi.fn());
vi.mock(import('../../../src/sources/contract.ts'), async (original) => {
	const actual = await original();
	composeContract.mockImplementation(actual.composeContract);
	return { ...actual, composeContract };
});

const { publishedContract, publishedContract31, publishedReference, publishesContract31 } =
	await import('../../../src/site/published-contract.ts');

/** How many views each composing since the last call was given, in order. */
function composedViewCounts(): number[] {
	const counts = composeContract.mock.calls.map(([, given]) => (given as unknown[]).length);
	composeContract.mockClear();
	return counts;
}

const saved = { openApi: process.env['PORTAL_OPENAPI'], mockPort: process.env['MOCK_PORT'] };
let folder: string;
let contractFile: string;
let views: ViewEntry[];

/** The published 200 examples, by slug. */
function examplesOf(document: Record<string, unknown>): Record<string, { value: unknown }> {
	const json = JSON.parse(JSON.stringify(document)) as {
		paths: Record<
			string,
			{ get: { responses: Record<string, { content: Record<string, { examples: never }> }> } }
		>;
	};
	return (
		json.paths['/api/v2/users']?.get.responses['200']?.content['application/json']?.examples ?? {}
	);
}

beforeAll(async () => {
	const settings = readSettings({});
	views = await loadViews(settings.viewsDir);
	folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-published-'));
	contractFile = path.join(folder, 'openapi.yaml');
	await copyFile(settings.openApiFile, contractFile);
	process.env['PORTAL_OPENAPI'] = contractFile;
	process.env['MOCK_PORT'] = '5030';
});

beforeEach(() => {
	store = views.map(({ slug, file, view }) => ({ id: slug, data: view, filePath: file }));
});

afterAll(async () => {
	for (const [name, value] of [
		['PORTAL_OPENAPI', saved.openApi],
		['MOCK_PORT', saved.mockPort],
	] as const) {
		if (value === undefined) delete process.env[name];
		else process.env[name] = value;
	}
	await rm(folder, { recursive: true, force: true });
});

describe('publishedContract', () => {
	it('is composed once for every route while openapi.yaml and the views are unchanged', async () => {
		const document = await publishedContract();
		expect(await publishedContract()).toBe(document);
		expect(Object.keys(examplesOf(document)).sort()).toEqual(views.map(({ slug }) => slug).sort());
		expect((document['servers'] as { url: string }[])[0]?.url).toBe('http://127.0.0.1:5030');
	});

	it('follows an edit to openapi.yaml', async () => {
		const before = await publishedContract();
		const text = await readFile(contractFile, 'utf8');
		expect(text).toContain('title: Console user directory API');
		await writeFile(
			contractFile,
			text.replace('title: Console user directory API', 'title: Edited API'),
		);
		const after = await publishedContract();
		expect(after).not.toBe(before);
		expect((after['info'] as { title: string }).title).toBe('Edited API');
		expect((await publishedReference()).title).toBe('Edited API');
		await writeFile(contractFile, text);
	});

	it('follows an edit to a fixture', async () => {
		const before = await publishedContract();
		const [first] = store;
		const [user] = first?.data.users ?? [];
		if (!first || !user) throw new Error('expected a view with a user');
		const users = [{ ...user, name: 'Edited Name' }, ...first.data.users.slice(1)];
		store = [{ ...first, data: { ...first.data, users } }, ...store.slice(1)];
		const after = await publishedContract();
		expect(after).not.toBe(before);
		const { users: published } = examplesOf(after)[first.id]?.value as { users: unknown[] };
		expect(published[0]).toEqual({ name: 'Edited Name', email: user.email, role: user.role });
	});
});

describe('publishedReference', () => {
	it('is the model of the published contract, read once', async () => {
		const reference = await publishedReference();
		expect(reference).toEqual(
			await referenceFromDocument(
				await publishedContract(),
				path.relative(process.cwd(), contractFile),
			),
		);
		expect(await publishedReference()).toBe(reference);
	});
});

describe('publishedContract31', () => {
	it('is the 3.1 equivalent of the 3.2 contract, with the same examples, made once per reading', async () => {
		const document = await publishedContract();
		expect(document['openapi']).toBe('3.2.0');
		const as31 = await publishedContract31();
		expect(as31?.['openapi']).toMatch(/^3\.1\./);
		expect(as31).not.toHaveProperty('$self');
		expect(JSON.stringify(as31)).not.toContain('dataValue');
		expect(examplesOf(as31 ?? {})).toEqual(examplesOf(document));
		expect(await publishedContract31()).toBe(as31);
		// Made from a copy: /openapi.json and /openapi.yaml stay 3.2.
		expect((await publishedContract())['openapi']).toBe('3.2.0');
	});

	it('is the document converted whole would be, though the views’ examples are not converted', async () => {
		// A view may be named like an OpenAPI field; its example is data all the same.
		const [first] = store;
		if (!first) throw new Error('expected a view');
		store = [...store, { ...first, id: 'responses' }, { ...first, id: 'servers' }];
		const file = path.relative(process.cwd(), contractFile);
		const as31 = await publishedContract31();
		expect(as31).toEqual(contractForPrism(await publishedContract(), file));
		expect(examplesOf(as31 ?? {})['responses']).toEqual(
			examplesOf(await publishedContract())['responses'],
		);
	});

	it('is known to exist from the contract alone, with no view composed, until a route asks for it', async () => {
		// A state of the views not composed before: the last view left out.
		store = store.slice(0, -1);
		composedViewCounts();
		expect(await publishesContract31()).toBe(true);
		expect(await publishesContract31()).toBe(true);
		// Told from the contract composed with no views, once: the views wait for the routes.
		expect(composedViewCounts()).toEqual([0]);
		const as31 = await publishedContract31();
		expect(examplesOf(as31 ?? {})).toHaveProperty(views[0]?.slug ?? 'a view');
		// The 3.1 form: the contract without views made 3.1, given the 3.2 document's examples.
		expect(composedViewCounts()).toEqual([0, views.length - 1]);
		await publishedContract();
		expect(await publishesContract31()).toBe(true);
		expect(composedViewCounts()).toEqual([]);
	});

	it('is not published for a contract 3.1 cannot say, such as one with a QUERY operation', async () => {
		const text = await readFile(contractFile, 'utf8');
		await writeFile(
			contractFile,
			text.replace(
				'    head:\n',
				"    query:\n      operationId: searchUsers\n      summary: Search the directory's users\n      responses:\n        '200':\n          description: Found.\n    head:\n",
			),
		);
		try {
			expect(await publishesContract31()).toBe(false);
			expect(await publishedContract31()).toBeUndefined();
			expect(await publishesContract31()).toBe(false);
		} finally {
			await writeFile(contractFile, text);
		}
		expect(await publishesContract31()).toBe(true);
		expect(await publishedContract31()).toBeDefined();
	});
});

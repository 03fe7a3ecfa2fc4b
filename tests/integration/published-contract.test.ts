/**
 * One truth for each directory: the contract the build publishes (/openapi.json, /openapi.yaml, and
 * its OpenAPI 3.1 equivalent /openapi-3.1.json), the mock's answers, the view pages' directories and the reference page all say the same.
 * Expected users are read from the fixtures; `contract-lint.test.ts` checks that the published
 * file is a sound OpenAPI document.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { load } from 'cheerio';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import { loadViews, type ViewEntry } from '../../src/sources/fixtures.ts';
import { readSettings } from '../../src/sources/settings.ts';
import { bin, freePort, start, waitForUrl, type Started } from '../../support/processes.ts';

const distDir = inject('distDir');
const listedUsers = z.object({
	users: z.array(z.object({ name: z.string(), email: z.string(), role: z.string() })),
});
const publishedSchema = z.object({
	servers: z.array(z.object({ url: z.string() })),
	paths: z.object({
		'/api/v2/users': z.object({
			get: z.object({
				responses: z.object({
					'200': z.object({
						content: z.object({
							'application/json': z.object({
								examples: z.record(
									z.string(),
									z.object({ summary: z.string(), value: listedUsers }),
								),
							}),
						}),
					}),
				}),
			}),
		}),
	}),
});

/** A published document's OpenAPI version and own address, the rest kept as it is. */
const selfSchema = z.looseObject({ openapi: z.string(), $self: z.string().optional() });
/** The 401 answer's named problem examples, in either form. */
const problemsSchema = z.object({
	components: z.object({
		responses: z.object({
			Unauthorized: z.object({
				content: z.object({
					'application/problem+json': z.object({
						examples: z.record(
							z.string(),
							z.object({ value: z.unknown().optional(), dataValue: z.unknown().optional() }),
						),
					}),
				}),
			}),
		}),
	}),
});

let views: ViewEntry[];
let json: unknown;
let mock: Started;
let base: string;

beforeAll(async () => {
	views = await loadViews(readSettings({}).viewsDir);
	json = JSON.parse(await readFile(path.join(distDir, 'openapi.json'), 'utf8')) as unknown;
	const port = await freePort();
	base = `http://127.0.0.1:${port}`;
	mock = start(bin('node'), ['mock/cli.ts'], { env: { MOCK_PORT: String(port), MOCK_LOG: 'off' } });
	await waitForUrl(`${base}/api/v2/users`, mock);
});

afterAll(async () => {
	await mock?.stop();
});

/** The published 200 examples, by slug. */
const examples = () =>
	publishedSchema.parse(json).paths['/api/v2/users'].get.responses['200'].content[
		'application/json'
	].examples;

describe('the published contract', () => {
	it('is the same OpenAPI 3.2 document as JSON and as YAML, each giving its own address as $self', async () => {
		const yaml = selfSchema.parse(
			parse(await readFile(path.join(distDir, 'openapi.yaml'), 'utf8')),
		);
		const asJson = selfSchema.parse(json);
		expect(asJson).toMatchObject({ openapi: '3.2.0', $self: '/openapi.json' });
		expect(yaml).toMatchObject({ openapi: '3.2.0', $self: '/openapi.yaml' });
		expect({ ...yaml, $self: undefined }).toEqual({ ...asJson, $self: undefined });
	});

	it('is published as its OpenAPI 3.1 equivalent for tools that read only 3.1: the same answers, each dataValue as its value', async () => {
		const as31 = selfSchema.parse(
			JSON.parse(await readFile(path.join(distDir, 'openapi-3.1.json'), 'utf8')) as unknown,
		);
		expect(as31.openapi).toMatch(/^3\.1\.\d+$/);
		expect(as31).not.toHaveProperty('$self');
		const text = JSON.stringify(as31);
		for (const field of ['dataValue', 'serializedValue', '"kind"', '"parent"']) {
			expect(text).not.toContain(field);
		}
		const users = publishedSchema.parse(as31).paths['/api/v2/users'].get.responses['200'];
		expect(users.content['application/json'].examples).toEqual(examples());
		const refused =
			problemsSchema.parse(as31).components.responses.Unauthorized.content[
				'application/problem+json'
			].examples;
		const problems =
			problemsSchema.parse(json).components.responses.Unauthorized.content[
				'application/problem+json'
			].examples;
		expect(Object.keys(refused)).toEqual(Object.keys(problems));
		for (const [name, example] of Object.entries(problems)) {
			expect(example.dataValue, name).toBeDefined();
			expect(refused[name]?.value, name).toEqual(example.dataValue);
		}
	});

	it('names the mock the pages were built for as its server', () => {
		expect(publishedSchema.parse(json).servers[0]?.url).toBe(
			`http://127.0.0.1:${inject('mockPort')}`,
		);
	});

	it('has one example per view, named by its slug, and nothing of the fixtures beyond the users', async () => {
		expect(Object.keys(examples()).sort()).toEqual(views.map(({ slug }) => slug).sort());
		const text = await readFile(path.join(distDir, 'openapi.json'), 'utf8');
		for (const { view } of views) {
			for (const secret of [
				...Object.values(view.config),
				...view.users.map(({ apiKey }) => apiKey),
			]) {
				expect(text).not.toContain(secret);
			}
		}
	});

	it('agrees with the mock and with each view page: the same users, in the same order', async () => {
		for (const { slug, view } of views) {
			const expected = {
				users: view.users.map(({ name, email, role }) => ({ name, email, role })),
			};
			expect(examples()[slug]?.value, `${slug}: published`).toEqual(expected);

			const response = await fetch(`${base}/api/v2/users`, {
				headers: { Authorization: `Bearer ${view.users[0]?.apiKey ?? ''}` },
			});
			expect(await response.json(), `${slug}: mock`).toEqual(expected);

			const $ = load(await readFile(path.join(distDir, 'views', slug, 'index.html'), 'utf8'));
			const rows = $('table.directory tbody tr')
				.toArray()
				.map((row) => ({
					name: $(row).find('[data-label="Name"]').text().trim(),
					email: $(row).find('[data-label="Email"]').text().trim(),
					role: $(row).find('[data-label="Role"]').text().trim(),
				}));
			expect({ users: rows }, `${slug}: page`).toEqual(expected);
		}
	});

	it('agrees with the reference page, which shows an example from it and links to it', async () => {
		const $ = load(await readFile(path.join(distDir, 'reference', 'index.html'), 'utf8'));
		expect($('a[href="/openapi.json"]').length).toBeGreaterThan(0);
		expect($('a[href="/openapi.yaml"]').length).toBeGreaterThan(0);
		const shown = $('details')
			.toArray()
			.map((details) => ({
				name: $(details).find('summary code').first().text(),
				json: $(details).find('pre').text(),
			}))
			.filter(({ name }) => name in examples());
		expect(shown.length).toBeGreaterThan(0);
		for (const { name, json: text } of shown) {
			expect(JSON.parse(text), name).toEqual(examples()[name]?.value);
		}
	});
});

/** The published contract: the hand-written openapi.yaml, composed with every view's example. */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
	composeContract,
	composedReference,
	ContractError,
	loadContract,
	mockOrigin,
	parseContract,
	readContract,
	shownPath,
	viewExamples,
} from '../../../src/sources/contract.ts';
import type { ContractCache } from '../../../src/sources/contract-cache.ts';
import { loadViews, type ViewEntry } from '../../../src/sources/fixtures.ts';
import { referenceFromDocument } from '../../../src/sources/openapi.ts';
import { readSettings } from '../../../src/sources/settings.ts';
import { ROLES } from '../../../src/schemas/view.ts';

const settings = readSettings({});
let views: ViewEntry[];
// The text only: the contract is parsed in each test, since code run outside a test counts for
// every test, and StrykerJS would run the whole unit suite for each change to the contract reader.
let contractText: string;

beforeAll(async () => {
	views = await loadViews(settings.viewsDir);
	contractText = await readFile(settings.openApiFile, 'utf8');
});

/** The hand-written contract, parsed afresh. */
function handWritten(): Record<string, unknown> {
	return parseContract(contractText, 'openapi.yaml');
}

/** A small contract of one operation, GET /api/v2/users, with the given servers lines. */
function small(servers: readonly string[]): string {
	return [
		'openapi: 3.1.0',
		"info: { title: Small, version: '1' }",
		...servers,
		'paths:',
		'  /api/v2/users:',
		'    get:',
		'      responses:',
		"        '200':",
		'          description: The directory.',
		'          content:',
		'            application/json:',
		'              schema: { type: object }',
	].join('\n');
}

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
		const schemas = (handWritten()['components'] as { schemas: { Role: { enum: unknown } } })
			.schemas;
		expect(schemas.Role.enum).toEqual([...ROLES]);
	});
});

describe('composeContract', () => {
	it('adds one example per view, named by its slug, with its users in order and no keys', () => {
		const composed = composeContract(handWritten(), views, {
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
		const composed = composeContract(handWritten(), views, {
			mockOrigin: 'http://127.0.0.1:5010',
			file: 'openapi.yaml',
		});
		const [server] = composed['servers'] as { url: string; description?: string }[];
		expect(server?.url).toBe('http://127.0.0.1:5010');
		expect(server?.description).toMatch(/local mock/);
	});

	it('leaves the hand-written document as it was', () => {
		const contract = handWritten();
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

describe('the contract reader', () => {
	it('puts the mock on 127.0.0.1 at the given port', () => {
		expect(mockOrigin(5010)).toBe('http://127.0.0.1:5010');
	});

	it('names each view’s example by its name and slug, in slug order whatever order the views come in', () => {
		const examples = viewExamples([...views].reverse());
		expect(Object.keys(examples)).toEqual([
			'dr-eu-west',
			'dr-eu-west-failover',
			'production',
			'production-edge',
			'production-unlabelled',
			'staging-us-east',
			'staging-us-east-edge',
			'staging-us-east-preview',
		]);
		expect(examples['production']?.summary).toBe(
			'The directory of the production · Production view (production)',
		);
	});

	it('names the file and the first line of a YAML error', () => {
		expect(() => parseContract('openapi: 3.1.0\npaths: [\n', 'broken.yaml')).toThrow(
			new ContractError(
				'broken.yaml: expected valid YAML (Flow sequence in block collection must be sufficiently indented and end with a ] at line 3, column 1:)',
			),
		);
	});

	it('names a file it cannot read, and why', async () => {
		const file = path.join(settings.viewsDir, 'no-such-contract.yaml');
		const reading = readContract(file);
		await expect(reading).rejects.toThrow(
			`${file}: cannot be read (ENOENT: no such file or directory, open '${file}')`,
		);
		await expect(reading).rejects.toHaveProperty('name', 'ContractError');
	});

	it('reads a contract that failed again at the next call, and remembers one that reads well', async () => {
		const folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-contract-again-'));
		try {
			const file = path.join(folder, 'openapi.yaml');
			const looked: string[] = [];
			/** A cache that keeps nothing and notes each text it is asked for. */
			const cache: ContractCache = {
				get: (text) => {
					looked.push(text);
					return undefined;
				},
				keep: () => {},
			};
			await writeFile(file, 'openapi: [3.1.0\n');
			await expect(readContract(file, cache)).rejects.toThrow(ContractError);
			await expect(readContract(file, cache)).rejects.toThrow(ContractError);
			expect(looked).toHaveLength(2);
			await writeFile(file, small(["servers: [{ url: 'http://127.0.0.1:4010' }]"]));
			const first = await readContract(file, cache);
			expect(await readContract(file, cache)).toBe(first);
			expect(looked).toHaveLength(3);
		} finally {
			await rm(folder, { recursive: true, force: true });
		}
	});

	it('loads a small contract as written, with its model', async () => {
		const text = small([
			"servers: [{ url: 'http://127.0.0.1:4010', description: The mock }, { url: 'https://api.example.com' }]",
		]);
		const contract = await loadContract(text, 'small.yaml');
		expect(contract.file).toBe('small.yaml');
		expect(contract.document).toEqual(parse(text));
		expect(contract.reference.servers).toEqual([
			{ url: 'http://127.0.0.1:4010', description: 'The mock' },
			{ url: 'https://api.example.com' },
		]);
		expect(contract.reference.operations.map(({ method, path }) => `${method} ${path}`)).toEqual([
			'GET /api/v2/users',
		]);
	});

	it('refuses a valid OpenAPI document with no place for the views’ examples', async () => {
		const text = small(["servers: [{ url: 'http://127.0.0.1:4010' }]"]).replace(
			'/api/v2/users',
			'/api/v2/people',
		);
		await expect(loadContract(text, 'people.yaml')).rejects.toThrow(
			new ContractError(
				"people.yaml: paths./api/v2/users: expected a mapping; the contract must describe the 200 application/json answer of GET /api/v2/users, where each view's example goes",
			),
		);
	});
});

describe('composeContract and the servers', () => {
	const compose = (servers: readonly string[]) =>
		composeContract(parseContract(small(servers), 'small.yaml'), views.slice(0, 1), {
			mockOrigin: 'http://127.0.0.1:5010',
			file: 'small.yaml',
		})['servers'];

	it('keeps the servers after the first, and the first one’s description', () => {
		expect(
			compose([
				'servers:',
				"  - { url: 'http://127.0.0.1:4010', description: The mock }",
				"  - { url: 'https://api.example.com', description: The console }",
			]),
		).toEqual([
			{ url: 'http://127.0.0.1:5010', description: 'The mock' },
			{ url: 'https://api.example.com', description: 'The console' },
		]);
	});

	it('adds the mock as the only server when the contract names none', () => {
		expect(compose([])).toEqual([{ url: 'http://127.0.0.1:5010' }]);
	});

	it('replaces servers that are not a list of mappings with the mock alone', () => {
		expect(compose(["servers: 'http://127.0.0.1:4010'"])).toEqual([
			{ url: 'http://127.0.0.1:5010' },
		]);
		expect(compose(["servers: ['http://127.0.0.1:4010']"])).toEqual([
			{ url: 'http://127.0.0.1:5010' },
		]);
	});

	it('names the first step that is not a mapping on the way to the examples', () => {
		const at = (text: string) => () =>
			composeContract(parseContract(text, 'x.yaml'), views, {
				mockOrigin: 'http://127.0.0.1:1',
				file: 'x.yaml',
			});
		const tail =
			"expected a mapping; the contract must describe the 200 application/json answer of GET /api/v2/users, where each view's example goes";
		expect(at('openapi: 3.1.0\n')).toThrow(new ContractError(`x.yaml: paths: ${tail}`));
		expect(at('paths:\n  /api/v2/users: [get]\n')).toThrow(
			new ContractError(`x.yaml: paths./api/v2/users: ${tail}`),
		);
		expect(
			at(
				small([])
					.replace('              schema: { type: object }', '')
					.replace('application/json:', 'application/json: null'),
			),
		).toThrow(
			new ContractError(
				`x.yaml: paths./api/v2/users.get.responses.200.content.application/json: ${tail}`,
			),
		);
	});
});

describe('shownPath', () => {
	it('shows a file inside the working folder relative to it', () => {
		expect(shownPath(path.join(process.cwd(), 'content', 'openapi.yaml'))).toBe(
			path.join('content', 'openapi.yaml'),
		);
	});

	it('shows a file outside the working folder, or the folder itself, as given', () => {
		const outside = path.join(path.dirname(process.cwd()), 'elsewhere', 'openapi.yaml');
		expect(shownPath(outside)).toBe(outside);
		expect(shownPath(process.cwd())).toBe(process.cwd());
	});
});

describe('readContract, once per text', () => {
	let folder: string;
	const served = small(["servers: [{ url: 'http://127.0.0.1:4010' }]"]);

	beforeAll(async () => {
		folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-contract-'));
	});

	afterAll(async () => {
		await rm(folder, { recursive: true, force: true });
	});

	it('gives every caller the same contract while the file keeps its text: parsed and dereferenced once', async () => {
		const file = path.join(folder, 'same.yaml');
		await writeFile(file, served);
		const first = await readContract(file);
		expect(await readContract(file)).toBe(first);
		// Written again with the same text: still the same contract.
		await writeFile(file, served);
		expect(await readContract(file)).toBe(first);
	});

	it('reads a file changed in place afresh, as the dev server needs', async () => {
		const file = path.join(folder, 'changed.yaml');
		await writeFile(file, served);
		const first = await readContract(file);
		expect(first.reference.title).toBe('Small');
		await writeFile(file, served.replace('title: Small', 'title: Changed'));
		const second = await readContract(file);
		expect(second).not.toBe(first);
		expect(second.reference.title).toBe('Changed');
	});

	it('does not remember a contract that failed: mended, the file is read again', async () => {
		const file = path.join(folder, 'mended.yaml');
		await writeFile(file, 'openapi: 3.1.0\npaths: [\n');
		await expect(readContract(file)).rejects.toThrow(`${file}: expected valid YAML`);
		await expect(readContract(file)).rejects.toThrow(`${file}: expected valid YAML`);
		await writeFile(file, served);
		expect((await readContract(file)).reference.title).toBe('Small');
	});
});

describe('composedReference', () => {
	const options = { mockOrigin: 'http://127.0.0.1:5010', file: 'openapi.yaml' };

	it('is the model of the published contract, every view’s example in place, read without dereferencing them', async () => {
		const published = await referenceFromDocument(
			composeContract(handWritten(), views, options),
			'openapi.yaml',
		);
		const composed = await composedReference(handWritten(), views, options);
		expect(composed).toEqual(published);
		const users = composed.operations.find(({ path }) => path === '/api/v2/users');
		const body = users?.responses.find(({ status }) => status === '200')?.bodies[0];
		expect(body?.examples.map(({ name }) => name)).toEqual(views.map(({ slug }) => slug).sort());
		expect(composed.servers[0]?.url).toBe('http://127.0.0.1:5010');
	});

	it('puts the examples wherever a $ref copies the users answer, as dereferencing does', async () => {
		const text = [
			small([]),
			'  /api/v2/users-again:',
			'    get:',
			'      responses:',
			"        '200': { $ref: '#/paths/~1api~1v2~1users/get/responses/200' }",
		].join('\n');
		const contract = parseContract(text, 'small.yaml');
		const smallOptions = { mockOrigin: 'http://127.0.0.1:5010', file: 'small.yaml' };
		const composed = await composedReference(contract, views, smallOptions);
		expect(composed).toEqual(
			await referenceFromDocument(composeContract(contract, views, smallOptions), 'small.yaml'),
		);
		for (const operation of composed.operations) {
			const [body] = operation.responses[0]?.bodies ?? [];
			expect(body?.examples, operation.path).toHaveLength(views.length);
		}
	});
});

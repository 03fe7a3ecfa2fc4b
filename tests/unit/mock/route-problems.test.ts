/** The mock's answers outside the contract's operations: its own NotFound and MethodNotAllowed. */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerFromModel } from '../../../mock/answers.ts';
import { loadState } from '../../../mock/state.ts';
import { readSettings } from '../../../src/sources/settings.ts';

const settings = readSettings({});
let folder: string;

beforeAll(async () => {
	folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-route-'));
});

afterAll(async () => {
	await rm(folder, { recursive: true, force: true });
});

/** Loads the mock's state from the real fixtures and a contract edited by `edit`. */
async function loadWith(edit: (text: string) => string) {
	const original = await readFile(settings.openApiFile, 'utf8');
	const edited = edit(original);
	expect(edited).not.toBe(original);
	const contractFile = path.join(folder, 'openapi.yaml');
	await writeFile(contractFile, edited);
	return loadState({ viewsDir: settings.viewsDir, contractFile, mockOrigin: 'http://127.0.0.1:1' });
}

describe('answerFromModel', () => {
	it('sends the named body example with its media type, and each header’s example', () => {
		const answer = answerFromModel(
			405,
			{
				description: 'Not this method.',
				headers: [
					{
						name: 'Allow',
						required: true,
						examples: [
							{ name: 'other', value: 'POST' },
							{ name: 'wrong-method', value: 'GET, HEAD' },
						],
					},
					{ name: 'Retry-After', required: false, examples: [{ name: 'example', value: '1' }] },
					{ name: 'Vary', required: false, examples: [{ name: 'example', value: 'Origin' }] },
				],
				bodies: [
					{
						mediaType: 'application/problem+json',
						rows: [],
						examples: [
							{ name: 'first', value: { status: 400 } },
							{ name: 'wrong-method', value: { status: 405, title: 'Wrong' } },
						],
					},
				],
			},
			'wrong-method',
		);
		// Vary is the mock's own header (CORS), whatever the contract's example says.
		expect(answer).toEqual({
			status: 405,
			headers: {
				Allow: 'GET, HEAD',
				'Retry-After': '1',
				'Content-Type': 'application/problem+json',
			},
			body: '{"status":405,"title":"Wrong"}',
		});
	});
});

describe('the contract’s route problems', () => {
	it('come from components.responses, the operations being the contract’s own', async () => {
		const state = await loadWith((text) => text.replace('title: No such path', 'title: Nowhere'));
		expect(state.reference.operations.map(({ method, path }) => `${method} ${path}`)).toEqual([
			'GET /api/v2/users',
			'HEAD /api/v2/users',
			'OPTIONS /api/v2/users',
		]);
		const notFound = state.routeProblems[404].bodies[0]?.examples.find(
			({ name }) => name === 'not-found',
		);
		expect(notFound?.value).toMatchObject({ title: 'Nowhere' });
	});

	it('are named when the contract lacks one, with the response and the example it needs', async () => {
		await expect(
			loadWith((text) => text.replace('            not-found:\n', '            nowhere:\n')),
		).rejects.toThrow(
			`${path.join(folder, 'openapi.yaml')}: components.responses.NotFound: expected a response with a body example named "not-found", which the mock sends for a path the contract does not list`,
		);
	});
});

/**
 * The changelog of a move from OpenAPI 3.1 to 3.2 that keeps the operations: non-breaking, and
 * 3.2's additions named in the changelog's own words.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { compareContracts } from '../../../src/site/contract-changes.ts';
import { ROOT } from '../../../support/processes.ts';

/** A fixture contract, parsed. */
async function fixture(version: '3-1' | '3-2'): Promise<Record<string, unknown>> {
	const file = path.join(ROOT, 'tests', 'fixtures', `openapi-${version}`, 'openapi.yaml');
	return parse(await readFile(file, 'utf8')) as Record<string, unknown>;
}

describe('the changelog of the move from 3.1 to 3.2', () => {
	it('has nothing breaking, the version change non-breaking, and the rest documentation', async () => {
		const { changes } = compareContracts(await fixture('3-1'), await fixture('3-2'));
		expect(changes.filter((change) => change.class === 'breaking')).toEqual([]);
		expect(changes.filter((change) => change.class === 'unclassified')).toEqual([]);
		expect(changes.filter((change) => change.class === 'non-breaking')).toEqual([
			{
				class: 'non-breaking',
				action: 'replace',
				where: 'openapi',
				description:
					"[Upgraded] OpenAPI 3.1.0 → 3.2.0: the same operations, read as before; 3.2 adds nested tags, a response's summary, dataValue and serializedValue examples and the contract's own address ($self)",
			},
		]);
	});

	it('names each of 3.2’s additions in its own words', async () => {
		const { changes } = compareContracts(await fixture('3-1'), await fixture('3-2'));
		const said = (where: string) => changes.find((change) => change.where === where)?.description;
		expect(said('$self')).toBe("[Added] the contract's own address ($self, OpenAPI 3.2)");
		expect(said('tags › 0 › kind')).toBe(
			"[Added] a tag's kind, such as nav for the navigation (kind, OpenAPI 3.2)",
		);
		expect(said('tags › 0 › summary')).toBe(
			"[Added] a tag's summary, shown for it in the navigation (summary, OpenAPI 3.2)",
		);
		expect(said('paths › /api/v2/users › get › responses › 200 › summary')).toBe(
			"[Added] a response's summary, the line its disclosure shows closed (summary, OpenAPI 3.2)",
		);
		expect(
			said(
				'paths › /api/v2/users › get › responses › 401 › content › application/problem+json › examples › missing-key › dataValue',
			),
		).toBe(
			"[Moved] example missing-key's value to dataValue, the example's data before it is serialised (OpenAPI 3.2)",
		);
		expect(
			said(
				'paths › /api/v2/users › options › responses › 405 › headers › Allow › examples › get-only › serializedValue',
			),
		).toBe(
			"[Moved] example get-only's value to serializedValue, the example as it is sent, serialised (OpenAPI 3.2)",
		);
	});

	it('names a parent added to a tag, and leaves a property named parent to the library', () => {
		const before = {
			openapi: '3.2.0',
			tags: [{ name: 'A' }, { name: 'B' }],
			components: { schemas: { Node: { type: 'object', properties: {} } } },
		};
		const after = {
			openapi: '3.2.0',
			tags: [{ name: 'A' }, { name: 'B', parent: 'A' }],
			components: {
				schemas: { Node: { type: 'object', properties: { parent: { type: 'string' } } } },
			},
		};
		const { changes } = compareContracts(before, after);
		expect(changes.find((change) => change.where === 'tags › 1 › parent')?.description).toBe(
			"[Added] a tag's parent, which nests it under another in the navigation (parent, OpenAPI 3.2)",
		);
		expect(
			changes.some(
				(change) =>
					change.description.includes('parent, OpenAPI 3.2') &&
					change.where.startsWith('components'),
			),
		).toBe(false);
	});

	it('leaves a move within 3.1, and back from 3.2, to the library', () => {
		const within = compareContracts({ openapi: '3.1.0' }, { openapi: '3.1.1' }).changes;
		expect(within[0]?.description).not.toContain('[Upgraded]');
		const back = compareContracts({ openapi: '3.2.0' }, { openapi: '3.1.0' }).changes;
		expect(back[0]?.description).not.toContain('[Upgraded]');
	});

	it('names a tag added, removed or renamed by its name, not by its place in the list', () => {
		const before = { openapi: '3.2.0', tags: [{ name: 'Directory', description: 'Who.' }] };
		const after = {
			openapi: '3.2.0',
			tags: [
				{ name: "The console's API", description: 'All of it.' },
				{ name: 'Users', parent: "The console's API" },
			],
		};
		const said = compareContracts(before, after).changes.map((change) => change.description);
		expect(said).toContain("[Renamed] tag Directory to The console's API");
		expect(said).toContain("[Replaced] the description of tag The console's API");
		expect(said).toContain('[Added] tag Users');
		const gone = compareContracts(after, before).changes.map((change) => change.description);
		expect(gone).toContain('[Removed] tag Users');
		expect(said.some((words) => /\] \d+$/.test(words))).toBe(false);
	});

	it('tells an example moved from value to dataValue or serializedValue as one change', async () => {
		const { changes } = compareContracts(await fixture('3-1'), await fixture('3-2'));
		const example =
			'paths › /api/v2/users › get › responses › 401 › content › application/problem+json › examples › missing-key';
		expect(changes.filter((change) => change.where.startsWith(`${example} ›`))).toEqual([
			{
				class: 'annotation',
				action: 'rename',
				where: `${example} › dataValue`,
				description:
					"[Moved] example missing-key's value to dataValue, the example's data before it is serialised (OpenAPI 3.2)",
			},
		]);
		const header =
			'paths › /api/v2/users › options › responses › 405 › headers › Allow › examples › get-only';
		expect(
			changes.filter((change) => change.where.startsWith(`${header} ›`)).map((c) => c.description),
		).toEqual([
			"[Moved] example get-only's value to serializedValue, the example as it is sent, serialised (OpenAPI 3.2)",
		]);
	});
});

/**
 * /openapi.yaml, /openapi.json and /openapi-3.1.json as a reader gets them: the text `yaml` or
 * `JSON.stringify` writes for the whole composed contract, though the views' examples are written
 * a few hundred at a time.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { composeContract, parseContract, withSelf } from '../../../src/sources/contract.ts';
import { contractForPrism } from '../../../src/sources/contract-3-1.ts';
import { contractJsonParts, contractYamlParts, textBody } from '../../../src/site/contract-text.ts';
import { loadViews, type ViewEntry } from '../../../src/sources/fixtures.ts';
import { readSettings } from '../../../src/sources/settings.ts';

const settings = readSettings({});
const HOSTILE = path.join(import.meta.dirname, '..', '..', 'fixtures', 'hostile', 'views');
let contractText: string;
let views: ViewEntry[];

beforeAll(async () => {
	contractText = await readFile(settings.openApiFile, 'utf8');
	views = [...(await loadViews(settings.viewsDir)), ...(await loadViews(HOSTILE))];
});

/** `count` views made from the fixtures' and the hostile fixtures' views, each its own slug. */
function manyViews(count: number): ViewEntry[] {
	return Array.from({ length: count }, (_, index) => {
		const entry = views[index % views.length];
		if (!entry) throw new Error('expected fixture views');
		return { ...entry, slug: `${entry.slug}-${String(index)}` };
	});
}

/** The contract composed with `count` views; `text` another contract than openapi.yaml. */
function composed(count: number, text = contractText): Record<string, unknown> {
	return composeContract(parseContract(text, 'openapi.yaml'), manyViews(count), {
		mockOrigin: 'http://127.0.0.1:4010',
		file: 'openapi.yaml',
	});
}

/** Each part's number of the views' examples, named by their fixture's slug and a number. */
function examplesPerPart(parts: readonly string[], format: 'yaml' | 'json'): number[] {
	const named = format === 'json' ? /^ +"[\w-]+-\d+": \{$/gm : /^ +[\w-]+-\d+:$/gm;
	return parts.map((part) => part.match(named)?.length ?? 0);
}

/** The views' examples of a composed document, to add some by hand. */
function examplesOf(document: Record<string, unknown>): Record<string, unknown> {
	let current: unknown = document;
	for (const step of ['paths', '/api/v2/users', 'get', 'responses', '200', 'content']) {
		current = (current as Record<string, unknown>)[step];
	}
	return (current as { 'application/json': { examples: Record<string, unknown> } })[
		'application/json'
	].examples;
}

/** The whole YAML text of a document, as `yaml` writes it at once. */
const yamlOf = (document: Record<string, unknown>): string => stringify(document, { lineWidth: 0 });

/** The whole JSON text of a document, as `JSON.stringify` writes it at once, and a line break. */
const jsonOf = (document: Record<string, unknown>): string =>
	`${JSON.stringify(document, null, 2)}\n`;

describe('the published contract in parts', () => {
	it('is the text of the whole document, in YAML and in JSON, whatever the number of views', () => {
		for (const count of [0, 1, 499, 500, 501, 1_234]) {
			const document = withSelf(composed(count), '/openapi.yaml');
			expect([...contractYamlParts(document)].join('')).toBe(yamlOf(document));
			expect([...contractJsonParts(document)].join('')).toBe(jsonOf(document));
		}
	});

	it('writes the views’ examples a few hundred at a time, not the whole document at once', () => {
		const document = composed(1_234);
		// Before the examples, three parts of them (500, 500 and 234), and after.
		expect(examplesPerPart([...contractJsonParts(document)], 'json')).toEqual([
			0, 500, 500, 234, 0,
		]);
		expect(examplesPerPart([...contractYamlParts(document)], 'yaml')).toEqual([
			0, 500, 500, 234, 0,
		]);
	});

	it('is the text of the whole 3.1 form too', () => {
		const as31 = contractForPrism(composed(1_001), 'openapi.yaml');
		expect(as31['openapi']).toMatch(/^3\.1\./);
		expect([...contractJsonParts(as31)].join('')).toBe(jsonOf(as31));
	});

	it('keeps examples written on many lines, quoted or as blocks, and empty ones', () => {
		const document = composed(1_001);
		const examples = examplesOf(document);
		// The 500th example, the last of the first part, and two at the end.
		const [, name] = Object.keys(examples).slice(499, 500);
		examples[name ?? ''] = {
			summary: 'Two lines\nand a third\n\n  indented',
			value: { users: [{ name: ' leading space', email: 'a: b # c', role: 'viewer' }] },
		};
		examples['multi-line'] = { summary: 'a\n\nb\n', value: { users: [] } };
		examples['empty'] = { summary: '', value: { users: [] } };
		const yaml = [...contractYamlParts(document)].join('');
		expect(yaml).toContain('multi-line:');
		expect(yaml).toBe(yamlOf(document));
		expect([...contractJsonParts(document)].join('')).toBe(jsonOf(document));
	});

	it('keeps names holding the line and paragraph separators (U+2028, U+2029) as they are', () => {
		const document = composed(1_001);
		const examples = examplesOf(document);
		const [first = '', second = ''] = Object.keys(examples);
		examples[first] = {
			summary: 'The directory of the Ann\u2028  Lee view',
			value: { users: [{ name: 'Ann\u2028  Lee', email: 'ann@example.com', role: 'admin' }] },
		};
		examples[second] = {
			summary: 'Para\u2029graph\u2028',
			value: { users: [{ name: '\u2029  Bo', email: 'bo@example.com', role: 'viewer' }] },
		};
		const yaml = [...contractYamlParts(document)];
		expect(yaml).toHaveLength(5);
		expect(yaml.join('')).toBe(yamlOf(document));
		expect([...contractJsonParts(document)].join('')).toBe(jsonOf(document));
	});

	it('keeps a users answer anchored and aliased elsewhere in the contract, as yaml writes it', () => {
		const anchored = contractText.replace("        '200':\n", "        '200': &users-answer\n");
		expect(anchored).not.toBe(contractText);
		const text = `${anchored.trimEnd()}\n  /api/v2/users-again:\n    get:\n      responses:\n        '200': *users-answer\n`;
		const document = composed(1_001, text);
		const yaml = [...contractYamlParts(document)];
		expect(yaml.join('')).toMatch(/"200": &a1\n[\s\S]*"200": \*a1\n/);
		expect(yaml.join('')).toBe(yamlOf(document));
		expect(yaml).toHaveLength(5);
		// JSON writes the answer twice, so it is written whole.
		expect([...contractJsonParts(document)]).toEqual([jsonOf(document)]);
	});

	it('writes whole a contract whose own text holds the stand-in’s name', () => {
		const text = contractText.replace(
			/^(info:\n)/m,
			'$1  x-note: |\n    console-portal-views-examples-stand-in: null\n',
		);
		expect(text).not.toBe(contractText);
		const document = composed(1_001, text);
		expect([...contractYamlParts(document)]).toEqual([yamlOf(document)]);
		expect([...contractJsonParts(document)].join('')).toBe(jsonOf(document));
	});

	it('writes a document with no place for the views’ examples whole', () => {
		const document = { openapi: '3.2.0', paths: {} };
		expect([...contractYamlParts(document)]).toEqual([yamlOf(document)]);
		expect([...contractJsonParts(document)]).toEqual([jsonOf(document)]);
	});
});

describe('textBody', () => {
	it('gives a body whose text is the parts’, each part read only when the body gets that far', async () => {
		let made = 0;
		function* parts() {
			for (const part of ['Grüße, ', 'views', '\n']) {
				made += 1;
				yield part;
			}
		}
		const reader = textBody(parts()).getReader();
		expect(made).toBe(0);
		await reader.read();
		expect(made).toBeLessThan(3);
		reader.releaseLock();
		const body = textBody(parts());
		expect(await new Response(body).text()).toBe('Grüße, views\n');
	});
});

/**
 * An operation a 3.2 contract declares through `additionalOperations` (a method with no field of
 * its own, here WebDAV's COPY) gets the reference's parts like any other: its entry and sections,
 * and samples that send its method in every language.
 */
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { codeSamples } from '../../../src/site/code-samples.ts';
import { operationSample, referenceHeadings } from '../../../src/site/reference-layout.ts';
import { referenceFromDocument } from '../../../src/sources/openapi.ts';

const CONTRACT = [
	'openapi: 3.2.0',
	"info: { title: Small, version: '1' }",
	"servers: [{ url: 'http://127.0.0.1:4010' }]",
	'paths:',
	'  /archive:',
	'    get:',
	'      responses:',
	"        '200': { description: The archive. }",
	'    additionalOperations:',
	'      COPY:',
	'        summary: Copy the archive',
	'        responses:',
	"          '201': { description: Copied. }",
].join('\n');

const model = await referenceFromDocument(parse(CONTRACT) as Record<string, unknown>, 'small.yaml');
const copy = model.operations.find(({ method }) => method === 'COPY');

describe('an operation of additionalOperations', () => {
	it('is read after the fixed methods, with its summary and responses', () => {
		expect(model.operations.map(({ method, path }) => `${method} ${path}`)).toEqual([
			'GET /archive',
			'COPY /archive',
		]);
		expect(copy?.summary).toBe('Copy the archive');
		expect(copy?.responses.map(({ status }) => status)).toEqual(['201']);
	});

	it('has its entry and sections in the reference, as GET has', () => {
		const slugs = referenceHeadings(model.operations).map(({ slug }) => slug);
		expect(slugs).toContain('copy-archive');
		expect(slugs.filter((slug) => slug.startsWith('copy-archive')).length).toBe(
			slugs.filter((slug) => slug.startsWith('get-archive')).length,
		);
	});

	it('has samples that send its method, in every language', () => {
		if (!copy) throw new Error('expected COPY /archive in the model');
		const samples = codeSamples(operationSample(copy, 'http://127.0.0.1:4010').request);
		expect(samples.length).toBeGreaterThanOrEqual(8);
		const curl = samples.find(({ label }) => label === 'curl')?.code;
		expect(curl).toBe('curl -i -X COPY http://127.0.0.1:4010/archive');
		for (const { label, code } of samples) expect(code, label).toContain('COPY');
	});
});

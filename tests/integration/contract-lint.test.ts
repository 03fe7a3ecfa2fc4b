/**
 * openapi.yaml, and the contract the build publishes from it, pass Redocly's recommended-strict
 * rules (`@redocly/openapi-core`, the engine of Redocly CLI; every warning an error) with no
 * ignore file, so the reference page renders a sound contract and any OpenAPI tool reads the
 * published one.
 */
import path from 'node:path';
import { createConfig, lint } from '@redocly/openapi-core';
import { describe, expect, inject, it } from 'vitest';
import { ROOT } from '../../support/processes.ts';

/** Redocly's problems with a contract file under its recommended-strict rules, one line each. */
async function lintProblems(file: string): Promise<{ errors: string[]; all: string[] }> {
	const config = await createConfig({ extends: ['recommended-strict'] });
	const problems = await lint({ ref: file, config });
	const line = (problem: (typeof problems)[number]) =>
		`${problem.severity} ${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer ?? ''}`;
	return {
		errors: problems.filter(({ severity }) => severity === 'error').map(line),
		all: problems.map(line),
	};
}

describe('the contract under Redocly’s recommended-strict rules', () => {
	it.each([
		['openapi.yaml as written', () => path.join(ROOT, 'openapi.yaml')],
		['the published /openapi.json', () => path.join(inject('distDir'), 'openapi.json')],
	])('%s has no lint errors', async (_name, file) => {
		const { errors, all } = await lintProblems(file());
		expect(errors, all.join('\n')).toEqual([]);
	});

	it('finds an error where there is one, so a clean result means something', async () => {
		const { errors } = await lintProblems(
			path.join(ROOT, 'tests', 'fixtures', 'lint-error', 'openapi.yaml'),
		);
		expect(errors.some((error) => error.startsWith('error '))).toBe(true);
	});
});

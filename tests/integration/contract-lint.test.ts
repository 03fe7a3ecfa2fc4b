/**
 * openapi.yaml, and the contract the build publishes from it, pass Redocly's recommended rules,
 * so the reference page renders a sound contract and any OpenAPI tool reads the published one.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { bin, childEnv, ROOT } from '../../support/processes.ts';

/** Redocly's verdict on a contract file: its exit status and what it printed. */
function lint(file: string): { status: number | null; output: string } {
	const result = spawnSync(bin('redocly'), ['lint', file, '--format', 'stylish'], {
		cwd: ROOT,
		env: childEnv({ NO_COLOR: '1', FORCE_COLOR: '0', REDOCLY_TELEMETRY: 'off' }),
		encoding: 'utf8',
		timeout: 120_000,
	});
	return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('the contract under Redocly CLI (recommended rules)', () => {
	it.each([
		['openapi.yaml as written', () => 'openapi.yaml'],
		['the published /openapi.json', () => path.join(inject('distDir'), 'openapi.json')],
	])('%s has no lint errors', (_name, file) => {
		const { status, output } = lint(file());
		expect(status, output).toBe(0);
		expect(output).not.toMatch(/\berror\b/i);
	});
});

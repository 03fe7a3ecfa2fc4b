/** openapi.yaml passes Redocly's recommended rules, so the reference page renders a sound contract. */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { bin, childEnv, ROOT } from '../support/processes.ts';

describe('openapi.yaml', () => {
	it('has no lint errors under Redocly CLI (recommended rules)', () => {
		const result = spawnSync(bin('redocly'), ['lint', 'openapi.yaml', '--format', 'stylish'], {
			cwd: ROOT,
			env: childEnv({ NO_COLOR: '1', FORCE_COLOR: '0', REDOCLY_TELEMETRY: 'off' }),
			encoding: 'utf8',
			timeout: 120_000,
		});
		const output = `${result.stdout}${result.stderr}`;
		expect(result.status, output).toBe(0);
		expect(output).not.toMatch(/\berror\b/i);
	});
});

import { spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { childEnv, ROOT } from '../../support/processes.ts';
import { toolBin } from '../tools.ts';

/** Runs secretlint with the project's recommended preset over the given globs. */
function secretlint(globs: readonly string[]): { status: number | null; output: string } {
	const result = spawnSync(
		toolBin('secretlint'),
		['--secretlintrc', path.join(ROOT, '.secretlintrc.json'), '--maskSecrets', ...globs],
		{ cwd: ROOT, env: childEnv({ NO_COLOR: '1' }), encoding: 'utf8', timeout: 120_000 },
	);
	return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('secret hygiene', () => {
	it('the fixtures, guides and contract hold nothing a secret scanner takes for a real credential', () => {
		const result = secretlint(['content/**/*', 'openapi.yaml']);
		expect(result.output).toBe('');
		expect(result.status).toBe(0);
	});

	it('the built site holds nothing a secret scanner takes for a real credential', () => {
		const distDir = inject('distDir');
		const result = secretlint([`${distDir}/**/*.{html,json,js,css,xml,txt,md}`]);
		expect(result.output).toBe('');
		expect(result.status).toBe(0);
	});

	it('the scanner does catch a real provider format, so a clean run means something', async () => {
		const folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-secret-'));
		try {
			const random = (alphabet: string, length: number): string =>
				Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join('');
			const digits = '0123456789';
			const alnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
			const token = `xoxb-${random(digits, 12)}-${random(digits, 13)}-${random(alnum, 24)}`;
			const file = path.join(folder, 'leak.json');
			await writeFile(file, JSON.stringify({ smtp_password: token }));
			const result = secretlint([file]);
			expect(result.status).not.toBe(0);
			expect(result.output).toMatch(/slack/i);
		} finally {
			await rm(folder, { recursive: true, force: true });
		}
	});
});

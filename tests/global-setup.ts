/**
 * Builds the portal once, into a temporary folder, for the integration and end-to-end tests;
 * they read its path with `inject('distDir')`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildPortal } from './support/build.ts';

declare module 'vitest' {
	export interface ProvidedContext {
		distDir: string;
	}
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
	const folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-dist-'));
	const distDir = path.join(folder, 'dist');
	const result = buildPortal(distDir);
	if (result.status !== 0) throw new Error(`The portal build failed:\n${result.output}`);
	project.provide('distDir', distDir);
	return async () => {
		await rm(folder, { recursive: true, force: true });
	};
}

/**
 * `npm run image`: builds the portal, then the two images with buildah, console-portal-web and
 * console-portal-mock (deploy/*.Containerfile), and prints their names, digests and sizes.
 * `--local-base` (or IMAGE_LOCAL_BASE=1) builds them on a Debian base made here from Debian's
 * packages instead of pulling debian:bookworm-slim; IMAGE_BASE names another base.
 * IMAGE_REPOSITORY prefixes the names (registry.example/team: registry.example/team/console-portal-web).
 * SOURCE_DATE_EPOCH (else the commit's time; in a copy without git, the newest source file's) is
 * every file's time and the images' creation time. Every build runs every step (see buildImage).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildPortal } from '../support/build.ts';
import { readSettings } from '../src/sources/settings.ts';
import { checkSettingsAgree } from '../src/sources/settings-agreement.ts';
import {
	buildImage,
	CACHE_DIR,
	checkTools,
	command,
	ensureLocalBase,
	IMAGES,
	LOCAL_BASE,
	measureImage,
	prepareContext,
	PUBLIC_BASE,
	readyBase,
	sourceFacts,
	STAND_IN_ADDRESSES,
	type ImageKind,
} from './lib/images.ts';

/** Ends the program with a message for a person, not a stack trace. */
function fail(message: string): never {
	console.error(`\n✖ ${message}`);
	process.exit(1);
}

/** Megabytes, as image tools print them. */
const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;

const localBase = process.argv.includes('--local-base') || process.env['IMAGE_LOCAL_BASE'] === '1';
const base = process.env['IMAGE_BASE'] || (localBase ? LOCAL_BASE : PUBLIC_BASE);
const repository = (process.env['IMAGE_REPOSITORY'] || 'localhost').replace(/\/+$/, '');
const write = (text: string): void => void process.stderr.write(text);
const startedAt = performance.now();

/** The team's addresses given to `npm run image`: the web image's defaults, checked as a start checks them. */
const teamDefaults = {
	portalUrl: process.env['PORTAL_URL'] ?? '',
	mockUrl: process.env['PORTAL_MOCK_URL'] ?? '',
};

try {
	// The defaults are checked as a build checks them: a value that is no address, or two that
	// disagree, stop here rather than at every start of the image.
	if (teamDefaults.portalUrl || teamDefaults.mockUrl) checkSettingsAgree(readSettings());
	await checkTools();
	const facts = await sourceFacts();
	if (facts.dateNote) console.error(facts.dateNote);
	if (facts.dirty) {
		console.error(
			`The work tree has uncommitted changes: the images hold them, labelled with commit ${facts.revision.slice(0, 12)}.`,
		);
	}
	if (base === LOCAL_BASE) await ensureLocalBase(write);
	else await readyBase(base);

	console.log('Building the portal…');
	const folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-image-'));
	try {
		const distDir = path.join(folder, 'dist');
		// The pages name stand-ins for the team's addresses; the web image puts the team's in at start.
		const built = buildPortal(distDir, undefined, {
			...STAND_IN_ADDRESSES,
			PORTAL_ALLOWED_HOSTS: '',
		});
		if (built.status !== 0) fail(`The build failed:\n${built.output}`);
		const context = path.join(CACHE_DIR, 'context');
		await prepareContext(context, distDir);
		const rows: string[] = [];
		for (const kind of Object.keys(IMAGES) as ImageKind[]) {
			const name = `${repository}/console-portal-${kind}`;
			console.log(`Building ${name} on ${base}…`);
			await buildImage(
				{
					kind,
					context,
					base,
					facts,
					tags: [`${name}:${facts.version}`, `${name}:latest`],
					defaults: teamDefaults,
				},
				write,
			);
			const image = await measureImage(`${name}:${facts.version}`);
			const largest = [...image.layers].sort((a, b) => b.uncompressed - a.uncompressed)[0];
			rows.push(
				`  ${name}:${facts.version}`,
				`    digest ${image.pushedDigest} (gzip layers; ${image.localDigest} in local storage)`,
				`    ${mb(image.compressed)} compressed, ${mb(image.uncompressed)} uncompressed, ${image.layers.length} layers; largest ${mb(largest?.uncompressed ?? 0)}: ${largest?.createdBy ?? ''}`,
			);
		}
		console.log(['', 'Built:', ...rows, ''].join('\n'));
		console.log(
			`Push with: buildah push ${repository}/console-portal-web:${facts.version} docker://<registry>/<path>:${facts.version}`,
		);
		const store = (await command('buildah', ['info', '--format', '{{.store.GraphRoot}}'])).trim();
		console.log(
			`Done in ${Math.round((performance.now() - startedAt) / 1000)} s. The images are in buildah's local storage (${store}): buildah images lists them; no build stage is left unnamed.`,
		);
	} finally {
		await rm(folder, { recursive: true, force: true });
	}
} catch (error) {
	fail(error instanceof Error ? error.message : String(error));
}

/**
 * A Starlight site generated from the same content as the portal, for the page-weight
 * comparison: the overview as a table of views, a page per view with the same blocks (labels,
 * configuration JSON, user table, status note, curl, footer line), the reference from
 * openapi.yaml and the Getting started guide. Written to `bench/tools/.work/starlight/` (beside
 * Starlight, one of the benchmarks’ own packages) and built there with their own Astro.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadViews, type ViewEntry } from '../../src/sources/fixtures.ts';
import { readSettings } from '../../src/sources/settings.ts';
import { buildCurl } from '../../src/shared/curl.ts';
import { codeSamples, usersSampleRequest } from '../../src/site/code-samples.ts';
import { readContract } from '../../src/sources/contract.ts';
import { compareViews, exampleUser, viewName } from '../../src/shared/views.ts';
import { childEnv, ROOT } from '../../support/processes.ts';
import { toolBin, TOOLS_WORK_DIR } from '../tools.ts';

/** The Starlight project's folder. */
// Inside the tools folder, so the site finds Starlight in bench/tools/node_modules.
export const STARLIGHT_DIR = path.join(TOOLS_WORK_DIR, 'starlight');

/** Where the Starlight site is built. */
export const STARLIGHT_DIST = path.join(STARLIGHT_DIR, 'dist');

const CONFIG = `import { defineConfig } from 'astro/config';
import starlight from '@astrojs/starlight';

export default defineConfig({
	site: 'http://127.0.0.1:4321',
	trailingSlash: 'always',
	integrations: [
		starlight({
			title: 'Console Portal',
			sidebar: [
				{ label: 'Views', items: [{ autogenerate: { directory: 'views' } }] },
				{ label: 'Guides', items: [{ autogenerate: { directory: 'docs' } }] },
				{ label: 'Reference', link: '/reference/' },
			],
		}),
	],
});
`;

const CONTENT_CONFIG = `import { defineCollection } from 'astro:content';
import { docsLoader } from '@astrojs/starlight/loaders';
import { docsSchema } from '@astrojs/starlight/schema';

export const collections = { docs: defineCollection({ loader: docsLoader(), schema: docsSchema() }) };
`;

/** A markdown table cell: pipes escaped, one line. */
function cell(text: string): string {
	return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

/** YAML frontmatter with a title and a description. */
function frontmatter(title: string, description: string): string {
	return `---\ntitle: ${JSON.stringify(title)}\ndescription: ${JSON.stringify(description)}\n---\n\n`;
}

/** A view page in Starlight markdown, with the blocks of the portal's view page. */
export function viewPage({ view }: ViewEntry): string {
	const title = viewName(view);
	const labels = [
		`**Environment:** ${view.environment}`,
		view.configuration && `**Configuration:** ${view.configuration}`,
		view.apiVersion && `**API label:** ${view.apiVersion}`,
		`**Last updated:** ${view.lastUpdated}`,
		`**Base URL:** \`${view.baseUrl}\``,
	].filter(Boolean);
	const users = view.users.map(
		(user) => `| ${cell(user.name)} | ${cell(user.email)} | ${user.role} | \`${user.apiKey}\` |`,
	);
	return [
		frontmatter(
			title,
			`Console view ${title}: labels, configuration, user directory and example request.`,
		),
		labels.join(' · '),
		'',
		':::note[Status note]',
		view.statusNote,
		':::',
		'',
		'## Configuration',
		'',
		'```json',
		JSON.stringify(view.config, null, 2),
		'```',
		'',
		'## User directory',
		'',
		'| Name | Email | Role | API key |',
		'|---|---|---|---|',
		...users,
		'',
		'## Example request',
		'',
		'```sh',
		buildCurl({ baseUrl: view.baseUrl, key: exampleUser(view).apiKey }),
		'```',
		'',
		'---',
		'',
		`Generated at ${view.generatedAt} · Internal use only`,
		'',
	].join('\n');
}

/** The overview: every view at a glance. */
export function overviewPage(views: readonly ViewEntry[]): string {
	const rows = [...views]
		.sort(compareViews)
		.map(
			({ slug, view }) =>
				`| ${view.environment} | ${view.configuration ?? 'no label'} | ${view.apiVersion ?? 'no API label'} | ${view.lastUpdated} | [${slug}](/views/${slug}/) |`,
		);
	return [
		frontmatter(
			'Console views',
			'Every console view at a glance: environment, configuration, API label and last update.',
		),
		`${views.length} views. Each page shows the view's configuration, its user directory, a status note and an example request.`,
		'',
		'| Environment | Configuration | API label | Last updated | View |',
		'|---|---|---|---|---|',
		...rows,
		'',
	].join('\n');
}

/** The reference: the endpoint from openapi.yaml, with its parameters, responses and examples. */
export async function referencePage(openApiFile: string): Promise<string> {
	const { reference: api } = await readContract(openApiFile);
	const parts = [
		frontmatter(`${api.title} ${api.version}`, api.summary ?? 'The API reference.'),
		api.description ?? '',
		'',
	];
	for (const operation of api.operations) {
		parts.push(`## ${operation.method.toUpperCase()} ${operation.path}`, '');
		if (operation.summary) parts.push(operation.summary, '');
		if (operation.description) parts.push(operation.description, '');
		for (const { name, scheme } of operation.security) {
			parts.push(`Security: \`${name}\` (${JSON.stringify(scheme)})`, '');
		}
		for (const response of operation.responses) {
			parts.push(`### ${response.status}`, '', response.description, '');
			if (response.headers.length > 0) {
				parts.push('| Header | Description |', '|---|---|');
				for (const header of response.headers) {
					parts.push(`| ${header.name} | ${cell(header.description ?? '')} |`);
				}
				parts.push('');
			}
			for (const body of response.bodies) {
				parts.push(`\`${body.mediaType}\``, '', '| Field | Type | Required | Description |');
				parts.push('|---|---|---|---|');
				for (const row of body.rows) {
					parts.push(
						`| ${cell(row.field)} | ${cell(row.type)} | ${row.required ? 'yes' : 'no'} | ${cell([row.description, ...row.constraints].join(' '))} |`,
					);
				}
				parts.push('');
				for (const example of body.examples) {
					parts.push(
						`<details><summary>${example.summary ?? example.name}</summary>`,
						'',
						'```json',
						JSON.stringify(example.value, null, 2),
						'```',
						'',
						'</details>',
						'',
					);
				}
			}
		}
	}
	return parts.join('\n');
}

/** Writes the Starlight project from the portal's fixtures, contract and Getting started guide. */
export async function writeStarlightSite(): Promise<void> {
	const settings = readSettings();
	const views = await loadViews(settings.viewsDir);
	const docs = path.join(STARLIGHT_DIR, 'src', 'content', 'docs');
	await rm(STARLIGHT_DIR, { recursive: true, force: true });
	await mkdir(path.join(docs, 'views'), { recursive: true });
	await mkdir(path.join(docs, 'docs'), { recursive: true });
	await writeFile(path.join(STARLIGHT_DIR, 'astro.config.mjs'), CONFIG);
	await writeFile(path.join(STARLIGHT_DIR, 'src', 'content.config.ts'), CONTENT_CONFIG);
	await writeFile(path.join(docs, 'index.md'), overviewPage(views));
	for (const entry of views) {
		await writeFile(path.join(docs, 'views', `${entry.slug}.md`), viewPage(entry));
	}
	await writeFile(path.join(docs, 'reference.md'), await referencePage(settings.openApiFile));
	// Getting started is the same MDX in both sites, minus `order` and with the portal's
	// components written out as the text and the code blocks they render: the two addresses, and
	// the users request in every sample language, each a code block under its language's name.
	const guide = await readFile(path.join(settings.docsDir, 'getting-started.mdx'), 'utf8');
	const mock = `http://127.0.0.1:${settings.mockPort}`;
	const samples = codeSamples(usersSampleRequest(mock))
		.map(({ label, language, code }) => `**${label}**\n\n\`\`\`${language}\n${code}\n\`\`\``)
		.join('\n\n');
	const copied = guide
		.replace(/^order:.*\n/m, '')
		.replace(/^import .*\n/gm, '')
		.replaceAll('<MockAddress />', `\`${mock}\``)
		.replaceAll('<MockAddress local />', `\`${mock}\``)
		.replaceAll('<PortalAddress />', `\`http://127.0.0.1:${settings.portalPort}/\``)
		.replace(/<MockSamples [^>]*\/>/g, samples);
	// A component the guide starts using must be written out here too, or the two pages differ.
	const left = /<[A-Z][A-Za-z]*[^>]*\/>/.exec(copied);
	if (left) throw new Error(`The Starlight copy of getting-started.mdx still uses ${left[0]}`);
	await writeFile(path.join(docs, 'docs', 'getting-started.mdx'), copied);
}

/** Generates and builds the Starlight site; throws with the build output if it fails. */
export async function buildStarlightSite(): Promise<string> {
	await writeStarlightSite();
	// Built by the benchmarks' own Astro, the one Starlight is installed beside.
	const result = spawnSync(toolBin('astro'), ['build', '--root', STARLIGHT_DIR], {
		cwd: ROOT,
		env: childEnv({ FORCE_COLOR: '0', NO_COLOR: '1' }),
		encoding: 'utf8',
		timeout: 300_000,
	});
	if (result.status !== 0) {
		throw new Error(`The Starlight build failed:\n${result.stdout}${result.stderr}`);
	}
	return STARLIGHT_DIST;
}

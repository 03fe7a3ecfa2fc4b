/**
 * The MCP server's resources: the published contract, llms.txt and each guide, read from the
 * secret-free snapshot.
 */
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { guideHref, LLMS_TXT_HREF, OPENAPI_JSON_HREF } from '../src/shared/urls.ts';
import { withSelf } from '../src/sources/contract.ts';
import { code, type ToolContext } from './context.ts';
import { ToolInputError } from './tool-names.ts';

/** The scheme of the server's resources: `portal:///openapi.json`, `portal:///docs/<guide>.md`. */
export const RESOURCE_ROOT = 'portal://';

/** A resource's URI from its portal address. */
export function resourceUri(href: string): string {
	return `${RESOURCE_ROOT}${href}`;
}

/** Registers the published contract, `portal:///openapi.json`, giving /openapi.json's address as its $self. */
export function registerContract(server: McpServer, { reader }: ToolContext): void {
	server.registerResource(
		'openapi.json',
		resourceUri(OPENAPI_JSON_HREF),
		{
			title: 'The published contract',
			description: 'openapi.yaml with one named 200 example per view, as the portal publishes it',
			mimeType: 'application/json',
		},
		async (uri) => ({
			contents: [
				{
					uri: uri.href,
					mimeType: 'application/json',
					text: `${JSON.stringify(withSelf((await reader.snapshot()).contract, OPENAPI_JSON_HREF), null, 2)}\n`,
				},
			],
		}),
	);
}

/** Registers llms.txt, `portal:///llms.txt`. */
export function registerLlmsTxt(server: McpServer, { reader }: ToolContext): void {
	server.registerResource(
		'llms.txt',
		resourceUri(LLMS_TXT_HREF),
		{
			title: 'llms.txt',
			description: 'The portal for AI assistants, linking to the Markdown twins',
			mimeType: 'text/markdown',
		},
		async (uri) => ({
			contents: [
				{
					uri: uri.href,
					mimeType: 'text/markdown',
					text: (await code.pages()).llmsText(await reader.snapshot()),
				},
			],
		}),
	);
}

/** Registers each guide as Markdown, `portal:///docs/<guide>.md`. */
export function registerGuides(server: McpServer, { reader }: ToolContext): void {
	server.registerResource(
		'guide',
		new ResourceTemplate(resourceUri('/docs/{guide}.md'), {
			list: async () => ({
				resources: (await reader.snapshot()).guides.map((guide) => ({
					uri: resourceUri(`${guideHref(guide.id).replace(/\/$/, '')}.md`),
					name: guide.title,
					description: guide.description,
					mimeType: 'text/markdown',
				})),
			}),
		}),
		{
			title: 'A guide',
			description:
				'A guide as Markdown: its MDX with components and expressions pointing to the HTML page',
			mimeType: 'text/markdown',
		},
		async (uri, { guide }) => {
			const portal = await reader.snapshot();
			const found = portal.guides.find((candidate) => candidate.id === guide);
			if (!found) throw new ToolInputError(`guide "${String(guide)}": no such guide`);
			const text = (await code.guideText()).guideText(found, portal.mock);
			return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text }] };
		},
	);
}

/**
 * The MCP server over the portal, the mock and the access review: its tools (each with zod input
 * and output schemas and a one-line description, registered by a module of its own in tools/, as
 * the SDK's examples register theirs) and its resources (the published contract, llms.txt and
 * each guide, resources.ts). Every answer comes from the secret-free snapshot or the access
 * history; `call_mock` alone reads the fixtures, to send a key it never returns. Errors are one
 * line naming the input; the server keeps serving. The server answers `initialize` and
 * `tools/list` from these modules' light imports alone: each tool loads its own code (the
 * contract's parser, Pagefind, Ajv, git) on its first call, so an assistant's client connects
 * without waiting for it.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { PortalServerOptions, ToolContext } from './context.ts';
import type { PortalReader } from './portal.ts';
import { registerContract, registerGuides, registerLlmsTxt } from './resources.ts';
import { createSearchIndex } from './search-index.ts';
import { registerAccessChanges } from './tools/access-changes.ts';
import { registerCallMock } from './tools/call-mock.ts';
import { registerCheckAnswer } from './tools/check-answer.ts';
import { registerListViews } from './tools/list-views.ts';
import { registerReadPage } from './tools/read-page.ts';
import { registerSearch } from './tools/search.ts';
import { registerWhoHolds } from './tools/who-holds.ts';

/** The server, with every tool and resource registered; connect it to a transport. */
export function createPortalServer(reader: PortalReader, options: PortalServerOptions): McpServer {
	const server = new McpServer(
		{ name: 'console-portal', version: options.version },
		{
			instructions:
				'The Console Portal: views of an administration console, its people and roles, access changes from git history, and a mock of GET /api/v2/users. No tool returns a key or a configuration value; the HTML pages show those.',
		},
	);
	const context: ToolContext = {
		reader,
		options,
		searchIndex: createSearchIndex(reader, options.searchCache),
	};
	registerSearch(server, context);
	registerReadPage(server, context);
	registerListViews(server, context);
	registerWhoHolds(server, context);
	registerAccessChanges(server, context);
	registerCallMock(server, context);
	registerCheckAnswer(server, context);
	registerContract(server, context);
	registerLlmsTxt(server, context);
	registerGuides(server, context);
	return server;
}

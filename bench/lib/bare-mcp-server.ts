/**
 * The floor for the MCP benchmark: a bare stdio server on the same SDK as `mcp/cli.ts`, with the
 * portal server's tool names (`list_views`, `search`), each answering "ok" at once. It keeps
 * compiled code between starts as the portal's server does, so the two differ only by what the
 * portal's server loads and works out before it answers.
 */
import module from 'node:module';

module.enableCompileCache();
const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
const { z } = await import('zod');

const server = new McpServer({ name: 'bare', version: '1' });

/** Registers a tool that answers "ok" to any input. */
function registerOk(name: string): void {
	server.registerTool(
		name,
		{ description: `Answers "ok"`, inputSchema: { query: z.string().optional() } },
		() => ({ content: [{ type: 'text' as const, text: 'ok' }] }),
	);
}

registerOk('list_views');
registerOk('search');
await server.connect(new StdioServerTransport());

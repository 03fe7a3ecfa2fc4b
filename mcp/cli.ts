/**
 * `npm run mcp` (`--help` lists its flags): the MCP server over stdio, for assistants. It reads the sources the build and the
 * mock read (fixtures, contract, guides, git history) through `src/sources/`, again on each call,
 * and answers from `src/site/`'s secret-free projections (server.ts beside it). Stdout carries only MCP
 * messages; anything else goes to stderr. It loads only what `initialize` and `tools/list` need
 * before it connects; the readers of the sources and each tool's code load on the first call that
 * needs them (bench/mcp.ts times both).
 */
import { readFileSync } from 'node:fs';
import module from 'node:module';

// Compiled code kept between starts, as the mock keeps it (NODE_COMPILE_CACHE, else a temporary
// folder): an assistant starts the server often, and most of its start is compiling.
module.enableCompileCache();
// --help, --version and the flags first: stdout carries MCP messages only once the server runs.
const { takeCommandLine } = await import('../src/sources/command-line.ts');
takeCommandLine('mcp');
const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
const { localMockUrl } = await import('../src/shared/urls.ts');
const { readSettings } = await import('../src/sources/settings.ts');
const { createPortalServer } = await import('./server.ts');
const { readerOnFirstUse } = await import('./context.ts');
const { checkoutSearchCache } = await import('./search-index.ts');
const { mockAddresses } = await import('./places.ts');

const { version } = JSON.parse(
	readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
) as { version: string };

let settings;
try {
	settings = readSettings();
} catch (error) {
	console.error(error instanceof Error ? error.message : String(error));
	process.exit(1);
}

const portalSettings = settings;
const reader = readerOnFirstUse(async () => {
	const { createPortalReader } = await import('./portal.ts');
	return createPortalReader(portalSettings);
});
const server = createPortalServer(reader, {
	version,
	localMock: localMockUrl(settings.mockPort),
	mocks: mockAddresses(settings),
	searchCache: checkoutSearchCache(),
});
await server.connect(new StdioServerTransport());
console.error(`console-portal MCP server ${version} on stdio, reading ${settings.viewsDir}`);

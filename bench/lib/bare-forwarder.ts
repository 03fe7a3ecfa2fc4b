/**
 * The ceiling for the proxy benchmark: a bare forwarding proxy, a `node:http` server that sends
 * every request on to the console named first on the command line over kept-alive connections
 * (an `http.Agent` with `keepAlive`) and streams its answer back, with no check, no log and no
 * decision. It listens on 127.0.0.1 at the port named second.
 */
import { Agent, createServer, request } from 'node:http';

const [upstream = '', port = ''] = process.argv.slice(2);
const base = new URL(upstream);
const agent = new Agent({ keepAlive: true });

/** The headers of one connection, which a forwarding proxy does not pass on (RFC 9110, 7.6.1). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'host']);

const server = createServer((incoming, outgoing) => {
	const headers: Record<string, string | string[]> = {};
	for (const [name, value] of Object.entries(incoming.headers)) {
		if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
	}
	const forwarded = request(
		{
			host: base.hostname,
			port: base.port,
			method: incoming.method ?? 'GET',
			path: incoming.url ?? '/',
			headers,
			agent,
		},
		(answer) => {
			const relayed: Record<string, string | string[]> = {};
			for (const [name, value] of Object.entries(answer.headers)) {
				if (value !== undefined && !HOP_BY_HOP.has(name)) relayed[name] = value;
			}
			outgoing.writeHead(answer.statusCode ?? 502, relayed);
			answer.pipe(outgoing);
		},
	);
	forwarded.on('error', (error: Error) => {
		if (!outgoing.headersSent) outgoing.writeHead(502, { 'Content-Type': 'text/plain' });
		outgoing.end(error.message);
	});
	incoming.pipe(forwarded);
});
server.listen(Number(port), '127.0.0.1');
process.on('SIGTERM', () => {
	agent.destroy();
	server.closeAllConnections();
	server.close(() => process.exit(0));
});

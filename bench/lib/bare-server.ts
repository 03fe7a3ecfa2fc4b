/**
 * The ceiling for the mock benchmark: a bare `node:http` server that answers every request with
 * the same bytes the mock sends for the example request (status, headers and body, read from the
 * JSON file named first on the command line), on 127.0.0.1 at the port named second. SIGINT ends
 * it with an exit, so `node --cpu-prof` writes its profile (bench/mock-profile.ts --load).
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { z } from 'zod';

const answerSchema = z.object({
	status: z.number().int(),
	headers: z.record(z.string(), z.string()),
	body: z.string(),
});

const [file = '', port = ''] = process.argv.slice(2);
const answer = answerSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
const body = Buffer.from(answer.body);
const headers = { ...answer.headers, 'Content-Length': String(body.length) };

createServer((request, response) => {
	request.resume();
	response.writeHead(answer.status, headers);
	response.end(body);
}).listen(Number(port), '127.0.0.1');

process.on('SIGINT', () => process.exit(0));

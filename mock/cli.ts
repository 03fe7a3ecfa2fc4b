/**
 * `npm run mock`: serves the contract composed with every view's directory, follows edits to
 * the fixtures and openapi.yaml, and logs each request, until Ctrl-C. MOCK_PORT moves it,
 * MOCK_HOST binds another address (0.0.0.0 in a container), MOCK_LOG=off silences the request
 * log (json makes it JSON), PORTAL_OPENAPI and PORTAL_VIEWS_DIR point elsewhere. Sources that do not load at start are reported, and the mock waits for them,
 * answering 503 (and /readyz 503) until an edit mends them.
 */
import { readSettings } from '../src/sources/settings.ts';
import { USERS_PATH } from '../src/shared/curl.ts';
import { standardOutput } from './output.ts';
import { startMock } from './server.ts';

const out = standardOutput();
/** How messages are written: as they are, or as JSON objects beside a JSON request log. */
let json = false;
/** A message for the terminal, or a JSON object holding it when the request log is JSON. */
const worded = (text: string, key: 'message' | 'error' = 'message'): string =>
	json ? JSON.stringify({ time: new Date().toISOString(), [key]: text }) : text;
/** Exits once every line is written. */
const exit = (code: number): void => {
	void out.close().then(() => process.exit(code));
};

try {
	const { mockPort, mockHost, viewsDir, openApiFile, mockLog, mockLogFormat, mockLogProbes } =
		readSettings();
	const { mockAllowedHosts } = readSettings();
	json = mockLog && mockLogFormat === 'json';
	const mock = await startMock({
		port: mockPort,
		host: mockHost,
		viewsDir,
		contractFile: openApiFile,
		watch: true,
		waitForSources: true,
		allowedHosts: mockAllowedHosts,
		log: mockLog ? out.line : undefined,
		logFormat: mockLogFormat,
		logProbes: mockLogProbes,
		report: (message, ok) =>
			ok ? out.say(worded(message)) : console.error(worded(message, 'error')),
	});
	out.say(
		worded(
			`Mock listening on ${mock.url} (try GET ${mock.url}${USERS_PATH} with a directory key); following edits to the fixtures and the contract.`,
		),
	);
	/** Stops listening, then exits once every line is written. */
	const stop = (): void => {
		mock.close().then(
			() => exit(0),
			() => exit(1),
		);
	};
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
} catch (error) {
	console.error(worded(error instanceof Error ? error.message : String(error), 'error'));
	exit(1);
}

/**
 * `npm run mock`: serves the contract composed with every view's directory, follows edits to
 * the fixtures and openapi.yaml, and logs each request, until Ctrl-C. MOCK_PORT moves it,
 * MOCK_HOST binds another address (0.0.0.0 in a container), MOCK_LOG=off silences the request
 * log, PORTAL_OPENAPI and PORTAL_VIEWS_DIR point elsewhere.
 */
import { readSettings } from '../src/sources/settings.ts';
import { USERS_PATH } from '../src/shared/curl.ts';
import { standardOutput } from './output.ts';
import { startMock } from './server.ts';

const out = standardOutput();
/** Exits once every line is written. */
const exit = (code: number): void => {
	void out.close().then(() => process.exit(code));
};

try {
	const { mockPort, mockHost, viewsDir, openApiFile, mockLog, mockAllowedHosts } = readSettings();
	const mock = await startMock({
		port: mockPort,
		host: mockHost,
		viewsDir,
		contractFile: openApiFile,
		watch: true,
		allowedHosts: mockAllowedHosts,
		log: mockLog ? out.line : undefined,
		report: (message, ok) => (ok ? out.say(message) : console.error(message)),
	});
	out.say(
		`Mock listening on ${mock.url} (try GET ${mock.url}${USERS_PATH} with a directory key); following edits to the fixtures and the contract.`,
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
	console.error(error instanceof Error ? error.message : String(error));
	exit(1);
}

/**
 * `npm run mock`: serves the contract composed with every view's directory, follows edits to
 * the fixtures and openapi.yaml, and logs each request, until Ctrl-C or SIGTERM, on which it
 * drains: it stops accepting, answers every request it received, and exits within 10 s.
 * MOCK_PORT moves it, MOCK_HOST binds another address (0.0.0.0 in a container), MOCK_LOG=off
 * silences the request log (json makes it JSON), PORTAL_OPENAPI and PORTAL_VIEWS_DIR point
 * elsewhere. Sources that do not load at start are reported, and the mock waits for them,
 * answering 503 (and /readyz 503) until an edit mends them.
 */
import { readSettings } from '../src/sources/settings.ts';
import { USERS_PATH } from '../src/shared/curl.ts';
import { standardOutput } from './output.ts';
import { startMock, type RunningMock } from './server.ts';

/**
 * How long a mock told to stop by SIGTERM keeps idle kept-alive connections open for a request
 * already on its way: a client that sent one as the signal came gets its answer, not a reset.
 * Ctrl-C (SIGINT) does not wait.
 */
const LINGER_MS = 1000;

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

/** The signal that asked the mock to stop before it was running, if any. */
let early: NodeJS.Signals | undefined;
/** Stops the mock on a signal; until it runs, remembers the signal. */
let stop = (signal: NodeJS.Signals): void => {
	early ??= signal;
};
// A signal repeated (sent to the process group and forwarded too) stops nothing twice.
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));

/** What a stopped mock says of the requests it received. */
function stoppedMessage({ received, answered }: ReturnType<RunningMock['counts']>): string {
	const requests = received === 1 ? '1 request' : `${received} requests`;
	return answered === received
		? `Mock stopped: answered all ${requests} it received.`
		: `Mock stopped: answered ${answered} of the ${requests} it received; the connections of the others were cut after the deadline.`;
}

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
	let stopping = false;
	stop = (signal) => {
		if (stopping) return;
		stopping = true;
		mock.close(signal === 'SIGTERM' ? LINGER_MS : 0).then(
			() => {
				out.say(worded(stoppedMessage(mock.counts())));
				exit(0);
			},
			() => exit(1),
		);
	};
	if (early) stop(early);
} catch (error) {
	console.error(worded(error instanceof Error ? error.message : String(error), 'error'));
	exit(1);
}

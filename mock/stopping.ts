/** How a mock told to stop goes: how long it waits for a request on its way, and what it says. */
import type { RunningMock } from './server.ts';

/**
 * How long a mock told to stop by SIGTERM keeps idle kept-alive connections open for a request
 * already on its way: a client that sent one as the signal came gets its answer, not a reset.
 * Ctrl-C (SIGINT) does not wait.
 */
export const LINGER_MS = 1000;

/** What a stopped mock says of the requests it received (summed over its workers). */
export function stoppedMessage({ received, answered }: ReturnType<RunningMock['counts']>): string {
	const requests = received === 1 ? '1 request' : `${received} requests`;
	return answered === received
		? `Mock stopped: answered all ${requests} it received.`
		: `Mock stopped: answered ${answered} of the ${requests} it received; the connections of the others were cut after the deadline.`;
}

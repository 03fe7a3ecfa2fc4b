/**
 * A delay or a fault, asked for by a request (`delay`, `fault`; see `controls.ts`), applied to its
 * answer on the socket: `decide` returns the answer with what was asked (`Delivery`), and the
 * server plans it here (`planDelivery`, the one pick of a delay), waits (`waited`) and then sends
 * the answer as usual or breaks it (`breakAnswer`), as WireMock's faults do.
 */
import type { ServerResponse } from 'node:http';
import { pickDelay, seededRandom, type FaultKind } from './controls.ts';
import type { Delivery } from './decide.ts';
import type { Sent } from './sent-answers.ts';

/** How long `slow-body` trickles the body when the request names no delay, in milliseconds. */
export const SLOW_BODY_MS = 1000;

/** How many pieces `slow-body` sends the body in, at most, one every span / pieces. */
export const SLOW_BODY_PIECES = 10;

/** How many random bytes `garbage` sends before it closes the connection. */
export const GARBAGE_BYTES = 256;

/** What the server does with an answer whose request asked for a delay or a fault. */
export interface DeliveryPlan {
	/** How long to wait before the first byte, in milliseconds. */
	waitMs: number;
	/** How long `slow-body` trickles the body over, in milliseconds; 0 for any other fault. */
	spanMs: number;
	/** The fault to serve once the wait is over; none sends the answer whole. */
	fault: FaultKind | undefined;
	/** Where the random bytes of `garbage` come from: the seed's numbers when one was given. */
	random: () => number;
	/** What the request log says was served. */
	served: { delay?: number; fault?: FaultKind };
}

/** The faults that send no status line: the connection reset or closed first, or bytes instead. */
const WITHOUT_STATUS: ReadonlySet<FaultKind> = new Set(['reset', 'empty', 'garbage']);

/**
 * What the request log gives as the status of an answer delivered with a fault: the fault itself
 * when it sent no status line (`reset`, `empty`, `garbage`), else the status sent.
 */
export function statusLogged(status: number, fault: FaultKind | undefined): number | FaultKind {
	return fault !== undefined && WITHOUT_STATUS.has(fault) ? fault : status;
}

/**
 * The plan for a delivery: the delay picked once from its range, by the request's seed when it
 * names one (the same delay each time), else by `random`. `slow-body` spends the delay sending
 * the body, so nothing is waited before its headers.
 */
export function planDelivery(delivery: Delivery, random: () => number = Math.random): DeliveryPlan {
	const pick = delivery.seed === undefined ? random : seededRandom(delivery.seed);
	const delay = delivery.delay && pickDelay(delivery.delay, pick);
	const { fault } = delivery;
	const slow = fault === 'slow-body';
	const spanMs = slow ? (delay ?? SLOW_BODY_MS) : 0;
	const served: DeliveryPlan['served'] = {};
	if (slow) served.delay = spanMs;
	else if (delay !== undefined) served.delay = delay;
	if (fault) served.fault = fault;
	return { waitMs: slow ? 0 : (delay ?? 0), spanMs, fault, random: pick, served };
}

/**
 * Bytes no HTTP client can read as an answer: random, and never starting with the `H` of
 * `HTTP/`, so no client takes them for a status line.
 */
export function garbageBytes(random: () => number, length = GARBAGE_BYTES): Buffer {
	const bytes = Buffer.from(Array.from({ length }, () => Math.floor(random() * 256)));
	if (bytes[0] === 0x48) bytes[0] = 0;
	return bytes;
}

/**
 * Waits `ms`; resolves true once it is over, or false as soon as the connection closes first (the
 * client gave up, or a draining mock cut it at its deadline), so nothing is sent on a closed one.
 */
export function waited(response: ServerResponse, ms: number): Promise<boolean> {
	if (response.destroyed) return Promise.resolve(false);
	if (ms <= 0) return Promise.resolve(true);
	return new Promise((resolve) => {
		const gone = (): void => {
			clearTimeout(timer);
			resolve(false);
		};
		const timer = setTimeout(() => {
			response.off('close', gone);
			resolve(!response.destroyed);
		}, ms);
		response.once('close', gone);
	});
}

/** The part of a body `slow-body` sends as its `index`th of `pieces`. */
function piece(body: Buffer, index: number, pieces: number): Buffer {
	const from = Math.floor((index * body.length) / pieces);
	return body.subarray(from, Math.floor(((index + 1) * body.length) / pieces));
}

/**
 * Sends an answer broken as its fault says; resolves once it is out (or its connection closed):
 * `reset` resets the connection before any byte, `empty` closes it with no byte, `garbage` sends
 * random bytes and closes it, `truncated` sends the headers (their Content-Length whole) and half
 * the body and closes it, `slow-body` sends the headers, then the body a piece at a time over
 * `spanMs`. HEAD gets no body, as ever: `truncated` then closes after the headers.
 */
export function breakAnswer(
	response: ServerResponse,
	answer: Sent,
	plan: Pick<DeliveryPlan, 'fault' | 'spanMs' | 'random'>,
	head: boolean,
): Promise<void> {
	const { socket } = response;
	if (!socket || socket.destroyed) return Promise.resolve();
	const body = head ? Buffer.alloc(0) : answer.body;
	switch (plan.fault) {
		case 'reset':
			socket.resetAndDestroy();
			return Promise.resolve();
		case 'empty':
			socket.end();
			return Promise.resolve();
		case 'garbage':
			socket.end(garbageBytes(plan.random));
			return Promise.resolve();
		case 'truncated': {
			response.writeHead(answer.status, answer.headers);
			const half = body.subarray(0, Math.floor(body.length / 2));
			return new Promise((resolve) => {
				const close = (): void => {
					socket.end();
					resolve();
				};
				if (half.length === 0) {
					response.flushHeaders();
					close();
				} else {
					response.write(half, close);
				}
			});
		}
		case 'slow-body':
		case undefined: {
			response.writeHead(answer.status, answer.headers);
			const pieces = Math.min(SLOW_BODY_PIECES, body.length);
			if (plan.fault === undefined || pieces === 0) {
				response.end(body.length === 0 ? undefined : body);
				return Promise.resolve();
			}
			response.flushHeaders();
			return new Promise((resolve) => {
				let sent = 0;
				const timer = setInterval(() => {
					const next = piece(body, sent, pieces);
					sent += 1;
					if (sent < pieces) {
						response.write(next);
						return;
					}
					clearInterval(timer);
					response.end(next, () => resolve());
				}, plan.spanMs / pieces);
				response.once('close', () => {
					clearInterval(timer);
					resolve();
				});
			});
		}
	}
}

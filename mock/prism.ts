/**
 * Prism, loaded on first need: its reading of the contract (`state.ts`) and its answers
 * (`answers.ts`). A plain request is answered from the contract's own model without it, so a
 * mock whose clients send no control never loads Prism; the first control, `Prefer: dynamic=true`
 * say, loads it then. Prism's own imports are cut to what the mock uses (`prism-imports.ts`).
 */
import './prism-imports.ts';
import { createLogger } from '@stoplight/prism-core';
import {
	createInstance,
	getHttpOperationsFromSpec,
	type IHttpConfig,
	type IHttpRequest,
} from '@stoplight/prism-http';
import type { MockControls } from './controls.ts';

/** One operation as Prism reads it from the contract. */
type Operation = Awaited<ReturnType<typeof getHttpOperationsFromSpec>>[number];

/** Prism's reading of a contract (as Prism reads it: 3.1): its operations. */
export function prismOperations(
	document: Parameters<typeof getHttpOperationsFromSpec>[0],
): Promise<Operation[]> {
	return getHttpOperationsFromSpec(document);
}

/** Prism's configuration for one answer. */
function prismConfig(
	code: number,
	exampleKey: string | undefined,
	controls?: MockControls,
): IHttpConfig {
	return {
		isProxy: false,
		// Our layer checks the key; Prism's security check would accept any bearer token.
		checkSecurity: false,
		validateRequest: false,
		validateResponse: false,
		errors: false,
		upstreamProxy: undefined,
		mock: {
			code,
			...(exampleKey === undefined ? {} : { exampleKey }),
			dynamic: controls?.dynamic ?? false,
			...(controls?.seed === undefined ? {} : { seed: controls.seed }),
		},
	};
}

/** What Prism answered: status, headers as it gives them (a number or null too), and its body. */
export interface PrismOutput {
	status: number;
	headers: Record<string, string | number | null | undefined>;
	body: unknown;
}

/** Prism's instance, made once: asks it for one response of an operation. */
const instance = createInstance(prismConfig(200, undefined), {
	logger: createLogger('mock', { level: 'silent' }),
});

/** Asks Prism for one of the contract's responses: by status, example name and controls. */
export async function askPrism(
	path: string,
	operations: Operation[],
	operation: Operation,
	asked: { code: number; example: string | undefined; controls?: MockControls | undefined },
): Promise<PrismOutput> {
	const result = await instance.request(
		{ method: operation.method as IHttpRequest['method'], url: { path }, headers: {} },
		operations,
		prismConfig(asked.code, asked.example, asked.controls),
	)();
	if (result._tag === 'Left') throw result.left;
	const { output } = result.right;
	return { status: output.statusCode, headers: output.headers ?? {}, body: output.body };
}

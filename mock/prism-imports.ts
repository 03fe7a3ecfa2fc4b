/**
 * What Prism loads, cut to what the mock uses, through a resolve hook that applies to Prism's
 * own imports only; the answers are the same, and the start is faster:
 * - Prism's JSON Schema generator loads `@faker-js/faker`, whose main entry builds every one of
 *   its 50-odd locales: about 1 s of CPU at each mock start (0.2 s for English alone). Prism only
 *   ever uses the English faker (`faker.default`, locale `en`), and only to generate a body, so
 *   it gets a module that loads the English faker in the same shape on first use
 *   (`faker-english.cjs`).
 * - Prism's reading of a document (`getHttpOperationsFromSpec`) loads the Postman collection
 *   reader beside the OpenAPI ones, about 250 modules (postman-collection, with a faker of its
 *   own). The mock gives Prism the OpenAPI contract only, so it gets a reader that refuses a
 *   Postman collection (`postman-none.cjs`).
 * - Prism's body validator loads an allOf merger that only request validation calls, which the
 *   mock turns off; it gets one that loads the merger on first use (`merge-allof-later.cjs`).
 * - Prism's forwarder and its callbacks load node-fetch, which the mock never has Prism call; they
 *   get a fetch that loads it on first use (`node-fetch-later.cjs`). The reference resolver
 *   Prism reads the contract with loads isomorphic-fetch only to set a global fetch where there
 *   is none; Node 24 has one, so it gets Node's (`global-fetch.cjs`).
 * Import it before anything imports Prism.
 */
import { registerHooks } from 'node:module';
import { STAND_INS } from './stand-ins.ts';

registerHooks({
	resolve(specifier, context, nextResolve) {
		const parent = context.parentURL;
		const standIn = STAND_INS.find(
			(each) => each.specifier === specifier && parent?.endsWith(each.importer),
		);
		return standIn
			? { url: new URL(`./${standIn.file}`, import.meta.url).href, shortCircuit: true }
			: nextResolve(specifier, context);
	},
});

/**
 * What Prism loads, cut to what the mock uses, through a resolve hook that applies to Prism's
 * own imports only; the answers are the same, and the start is faster:
 * - Prism's JSON Schema generator loads `@faker-js/faker`, whose main entry builds every one of
 *   its 50-odd locales: about 1 s of CPU at each mock start (0.2 s for English alone). Prism only
 *   ever uses the English faker (`faker.default`, locale `en`), so it gets a module with the
 *   English faker in the same shape (`faker-english.cjs`).
 * - Prism's reading of a document (`getHttpOperationsFromSpec`) loads the Postman collection
 *   reader beside the OpenAPI ones, about 250 modules (postman-collection, with a faker of its
 *   own). The mock gives Prism the OpenAPI contract only, so it gets a reader that refuses a
 *   Postman collection (`postman-none.cjs`).
 * Import it before anything imports Prism.
 */
import { registerHooks } from 'node:module';

const ENGLISH = new URL('./faker-english.cjs', import.meta.url).href;
const NO_POSTMAN = new URL('./postman-none.cjs', import.meta.url).href;

registerHooks({
	resolve(specifier, context, nextResolve) {
		if (specifier === '@faker-js/faker' && context.parentURL?.includes('/@stoplight/prism-http/')) {
			return { url: ENGLISH, shortCircuit: true };
		}
		if (
			specifier === '@stoplight/http-spec/postman/operation' &&
			context.parentURL?.includes('/@stoplight/prism-http/')
		) {
			return { url: NO_POSTMAN, shortCircuit: true };
		}
		return nextResolve(specifier, context);
	},
});

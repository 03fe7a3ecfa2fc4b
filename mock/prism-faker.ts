/**
 * Prism's JSON Schema generator loads `@faker-js/faker`, whose main entry builds every one of its
 * 50-odd locales: about 1 s of CPU at each mock start (0.2 s for English alone), most of a
 * start-up. Prism only ever uses the English faker (`faker.default`, locale `en`). This resolve
 * hook gives Prism, and only Prism, a module with the English faker in the same shape, so the
 * answers are the same and the start is faster. Import it before anything imports Prism.
 */
import { registerHooks } from 'node:module';

const ENGLISH = new URL('./faker-english.cjs', import.meta.url).href;

registerHooks({
	resolve(specifier, context, nextResolve) {
		if (specifier === '@faker-js/faker' && context.parentURL?.includes('/@stoplight/prism-http/')) {
			return { url: ENGLISH, shortCircuit: true };
		}
		return nextResolve(specifier, context);
	},
});

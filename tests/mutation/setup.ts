/**
 * Loaded before any test file, for StrykerJS: the contract's model (openapi.ts) is imported by
 * contract.ts only when a contract is read (the mock's start from its cache never loads it), so
 * without this its module's code (the zod schemas, Redocly's configuration) would first run inside
 * whichever test reads a contract first, and Stryker would count that one test as covering it and
 * run only it for each of those mutants, in a module graph where the module is already loaded
 * (isolate: false), so none would be caught. Loaded here, outside any test, that code is static,
 * as it was when contract.ts imported openapi.ts at its top, and each of its mutants runs every test.
 */
import '../../src/sources/openapi.ts';

// Prism's allOf merger (`@stoplight/json-schema-merge-allof`), loaded on first use: Prism's
// request validation calls it, which the mock turns off, so it is never needed to start, and
// loading it (with json-schema-compare and lodash) cost about a tenth of a start. Resolved from
// Prism's own folder as Prism resolves it. See mock/prism-imports.ts.
const { createRequire } = require('node:module');

const fromPrism = createRequire(require.resolve('@stoplight/prism-http'));
let merge;

module.exports = function mergeAllOf(...args) {
	merge ??= fromPrism('@stoplight/json-schema-merge-allof');
	return merge(...args);
};

// node-fetch, loaded on first use: Prism's forwarder and its callbacks call it, and the mock
// answers from the contract and never forwards through Prism (its proxy is mock/forwarder/, on
// Node's own fetch), so it is never needed to start, and loading it (with whatwg-url and tr46)
// cost about 40 ms of a start. Resolved from Prism's own folder as Prism resolves it. See
// mock/prism-imports.ts.
const { createRequire } = require('node:module');

const fromPrism = createRequire(require.resolve('@stoplight/prism-http'));
let nodeFetch;

module.exports = {
	default(...args) {
		nodeFetch ??= fromPrism('node-fetch').default;
		return nodeFetch(...args);
	},
};

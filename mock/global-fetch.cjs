// isomorphic-fetch, left out: the contract reader Prism uses (json-schema-ref-parser's HTTP
// resolver) requires it only to set a global fetch where there is none, and Node 24 has one, so
// loading it (node-fetch, whatwg-url, tr46: about 40 ms of a start) changed nothing. This stands
// in for it with Node's own fetch: see mock/prism-imports.ts.
module.exports = globalThis.fetch;

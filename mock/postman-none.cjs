// Prism's Postman collection reader, left out: the mock gives Prism its OpenAPI contract only,
// so this stands in for `@stoplight/http-spec/postman/operation`: see mock/prism-imports.ts.
module.exports = {
	transformPostmanCollectionOperations() {
		throw new Error('The mock reads an OpenAPI contract, not a Postman collection');
	},
};

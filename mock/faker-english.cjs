// Faker with its English data only, shaped as `require('@faker-js/faker')` is (`default` and
// `faker`), taken from the faker Prism itself depends on, and loaded on first use: Prism's JSON
// Schema generator (json-schema-faker) takes the faker when Prism loads, but reads it only to
// generate a body (`dynamic=true`), so it gets a stand-in that loads the English faker the first
// time anything of it is read. See mock/prism-imports.ts.
const { createRequire } = require('node:module');

const fromPrism = createRequire(require.resolve('@stoplight/prism-http'));
let english;
const real = () => (english ??= fromPrism('@faker-js/faker/locale/en'));

const faker = new Proxy(
	{},
	{
		get: (_target, key) => Reflect.get(real(), key),
		has: (_target, key) => Reflect.has(real(), key),
		ownKeys: () => Reflect.ownKeys(real()),
		getOwnPropertyDescriptor: (_target, key) => {
			const descriptor = Reflect.getOwnPropertyDescriptor(real(), key);
			return descriptor && { ...descriptor, configurable: true };
		},
	},
);

module.exports = { default: faker, faker };

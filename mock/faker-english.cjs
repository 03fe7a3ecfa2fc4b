// Faker with its English data only, shaped as `require('@faker-js/faker')` is (`default` and
// `faker`), taken from the faker Prism itself depends on: see mock/prism-imports.ts.
const { createRequire } = require('node:module');

const fromPrism = createRequire(require.resolve('@stoplight/prism-http'));
const faker = fromPrism('@faker-js/faker/locale/en');

module.exports = { default: faker, faker };

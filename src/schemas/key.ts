/**
 * The shape of a console API key: `<prefix>-<8 lowercase hex>-<4 letters or digits>`,
 * with one prefix for the whole portal.
 */

/** The one key prefix every key in the portal carries. */
export const KEY_PREFIX = 'ick';

/** A key of any prefix: used to tell "wrong prefix" from "not a key at all". */
export const ANY_KEY_PATTERN = /^([a-z]{2,8})-[0-9a-f]{8}-[A-Za-z0-9]{4}$/;

/** A key of the portal's prefix. */
export const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}-[0-9a-f]{8}-[A-Za-z0-9]{4}$`);

/** The key shape in words, as error messages and the contract state it. */
export const KEY_SHAPE = `${KEY_PREFIX}-<8 lowercase hex>-<4 letters or digits>, e.g. ${KEY_PREFIX}-4f1c9a07-Qx7m`;

/** Why a string is not a portal key, or undefined when it is one. */
export function keyProblem(value: string): string | undefined {
	if (KEY_PATTERN.test(value)) return undefined;
	const other = ANY_KEY_PATTERN.exec(value);
	if (other) return `expected the portal's key prefix "${KEY_PREFIX}-", found "${other[1]}-"`;
	return `expected a key shaped ${KEY_SHAPE}`;
}

/**
 * A view without its secrets: what the Markdown twins and llms.txt are made from. The projection
 * copies the fields it names into a new object and nothing else, so a key or a configuration
 * value cannot reach a twin: the type has no `config` and its users no `apiKey`, and a field added
 * to the view schema stays out until it is named here. The twins' builders take this type only.
 */
import type { Role } from '../schemas/view.ts';
import type { ViewEntry } from '../sources/fixtures.ts';
import { personSlug } from '../shared/person-key.ts';
import { exampleUser, viewName } from '../shared/views.ts';

/** A directory user without their key. */
export interface PublicUser {
	readonly name: string;
	readonly email: string;
	readonly role: Role;
	/** Their person page's slug: `/people/<slug>/`. */
	readonly personSlug: string;
}

/** A view without its keys and its configuration block. */
export interface PublicView {
	/** The fixture's slug: the page is `/views/<slug>/`. */
	readonly slug: string;
	/** The view's one name, as every page gives it. */
	readonly name: string;
	readonly environment: string;
	readonly configuration: string | undefined;
	readonly apiVersion: string | undefined;
	readonly lastUpdated: string;
	readonly generatedAt: string;
	/** Where the view's console answers; the address of its example request. */
	readonly baseUrl: string;
	readonly statusNote: string;
	readonly users: readonly PublicUser[];
	/** The user whose key the example request uses (the first viewer), by name and role. */
	readonly exampleUser: { readonly name: string; readonly role: Role };
}

/** The view of a fixture entry, without its keys and configuration, copied field by field. */
export function publicView({ slug, view }: ViewEntry): PublicView {
	const example = exampleUser(view);
	return {
		slug,
		name: viewName(view),
		environment: view.environment,
		configuration: view.configuration,
		apiVersion: view.apiVersion,
		lastUpdated: view.lastUpdated,
		generatedAt: view.generatedAt,
		baseUrl: view.baseUrl,
		statusNote: view.statusNote,
		users: view.users.map(({ name, email, role }) => ({
			name,
			email,
			role,
			personSlug: personSlug(email),
		})),
		exampleUser: { name: example.name, role: example.role },
	};
}

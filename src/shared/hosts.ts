/**
 * The hosts a view talks to, read from its base URL and configuration block. Hosts, ports and
 * database names are not secrets; the user names and passwords in the URLs are never returned.
 */
import type { View } from '../schemas/view.ts';

/** Where a view's console, database and cache live. */
export interface ViewHosts {
	/** The console's address, `203.0.113.24`. */
	apiHost: string;
	/** The console's port, `8443`. */
	apiPort: string;
	/** The PostgreSQL host, `db.production.example`. */
	databaseHost: string;
	/** The PostgreSQL port. */
	databasePort: string;
	/** The database name, `console_production`. */
	databaseName: string;
	/** The Redis host, `cache.production.example`. */
	redisHost: string;
	/** The Redis port. */
	redisPort: string;
}

/** Reads the hosts of a validated view; the schema has already checked every URL's shape. */
export function viewHosts(view: View): ViewHosts {
	const api = new URL(view.baseUrl);
	const database = new URL(view.config.database_url);
	const redis = new URL(view.config.redis_url);
	return {
		apiHost: api.hostname,
		apiPort: api.port,
		databaseHost: database.hostname,
		databasePort: database.port,
		databaseName: database.pathname.slice(1),
		redisHost: redis.hostname,
		redisPort: redis.port,
	};
}

#!/bin/sh
# The console-portal-web image's entry point: writes nginx's site configuration for PORTAL_PORT
# and PORTAL_ALLOWED_HOSTS into /tmp/nginx (the only path the image writes), then becomes nginx,
# PID 1 in the foreground. deploy/console-portal.conf is the template: its listen address becomes
# every address on the port, and the names set are added to its server_name.
# -f: the names below are split on commas and spaces, never expanded as file patterns.
set -euf

fail() {
	echo "console-portal-web: $*" >&2
	exit 64
}

port=${PORTAL_PORT:-8080}
case $port in
'' | *[!0-9]*) fail "PORTAL_PORT: expected a TCP port number from 1024 to 65535, not \"$port\"" ;;
esac
if [ "$port" -lt 1024 ] || [ "$port" -gt 65535 ]; then
	fail "PORTAL_PORT: expected a TCP port number from 1024 to 65535 (the image runs as a user that cannot bind lower ones), not $port"
fi

# Host names as npm start reads them: comma-separated, spaces around them ignored, any case.
names=''
for name in $(printf '%s' "${PORTAL_ALLOWED_HOSTS:-}" | tr ',' ' ' | tr '[:upper:]' '[:lower:]'); do
	if ! printf '%s\n' "$name" | grep -Eqx '[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*'; then
		fail "PORTAL_ALLOWED_HOSTS: expected host names separated by commas (portal.intranet.example), without scheme or port; \"$name\" is not one"
	fi
	names="$names $name"
done

mkdir -p /tmp/nginx
site=/tmp/nginx/console-portal.conf
sed -e "s/listen 127\.0\.0\.1:8080/listen $port/" \
	-e "s/server_name 127\.0\.0\.1 localhost;/server_name 127.0.0.1 localhost$names;/" \
	/etc/nginx/console-portal.conf.template >"$site"
# The template changed in a way the lines above no longer follow: say so rather than serve it.
grep -q "listen $port default_server;" "$site" || fail "deploy/console-portal.conf has no default server on 127.0.0.1:8080 to move"
grep -q "server_name 127.0.0.1 localhost$names;" "$site" || fail "deploy/console-portal.conf has no 'server_name 127.0.0.1 localhost;' line to add names to"

exec nginx -e stderr -g 'daemon off;'

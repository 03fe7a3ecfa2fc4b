#!/bin/sh
# The console-portal-web image's entry point: writes nginx's site configuration for PORTAL_PORT
# and PORTAL_ALLOWED_HOSTS into /tmp/nginx (the only path the image writes), then becomes nginx,
# PID 1 in the foreground. deploy/console-portal.conf is the template: its listen address becomes
# every address on the port, and the names set are added to its server_name. With MOCK_UPSTREAM
# (the mock's origin, http://console-portal-mock:4010), its "#mock " lines are turned on: the
# contract's path, /api/v2/users, is proxied to the mock, for pages built with PORTAL_MOCK_URL=/.
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

# The portal's public address (PORTAL_URL) and the mock's (PORTAL_MOCK_URL), read at each start:
# the pages in the image were built with stand-ins for both (deploy/web-image/settings.sh), which
# nginx replaces in every answer with these, so one image serves any team. A value given to
# `npm run image` is the image's default; one given at start wins.
. /usr/local/lib/console-portal-web/settings.sh
read_addresses

# Host names as npm start reads them: comma-separated, spaces around them ignored, any case.
# By default they are PORTAL_URL's host; given, they must name it (readers are sent there).
names=''
for name in $(printf '%s' "${PORTAL_ALLOWED_HOSTS:-}" | tr ',' ' ' | tr '[:upper:]' '[:lower:]'); do
	if ! printf '%s\n' "$name" | grep -Eqx '[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*'; then
		fail "PORTAL_ALLOWED_HOSTS: expected host names separated by commas (portal.intranet.example), without scheme or port; \"$name\" is not one"
	fi
	names="$names $name"
done
case "$portal_name#$names " in
127.0.0.1#* | localhost#* | *" $portal_name "*) ;;
*"# ") names=" $portal_name" ;;
*) fail "PORTAL_URL=$portal_url names the host $portal_name, which PORTAL_ALLOWED_HOSTS=${PORTAL_ALLOWED_HOSTS:-} leaves out: nginx would give readers of that address no answer" ;;
esac

# The mock's origin as nginx reaches it: http, a host name or address, a port; no path (which
# would replace the request's), credentials or query. A trailing slash is dropped; any case.
upstream=$(printf '%s' "${MOCK_UPSTREAM:-}" | tr '[:upper:]' '[:lower:]')
upstream=${upstream%/}
mock=''
if [ -n "${MOCK_UPSTREAM:-}" ]; then
	shown=$(printf '%s' "$MOCK_UPSTREAM" | tr '\n\r\t' '   ')
	expected="MOCK_UPSTREAM: expected the mock's origin as http://host:port (http://console-portal-mock:4010), without path, query or credentials"
	# One line only: grep -x would pass a value whose other line matched.
	[ "$(printf '%s' "$upstream" | wc -l)" -eq 0 ] || fail "$expected; \"$shown\" is not one"
	printf '%s\n' "$upstream" | grep -Eqx 'http://([a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\]):[0-9]{1,5}' ||
		fail "$expected; \"$shown\" is not one"
	mock_port=${upstream##*:}
	if [ "$mock_port" -lt 1 ] || [ "$mock_port" -gt 65535 ]; then
		fail "$expected; \"$shown\" has no port from 1 to 65535"
	fi
	mock=1
fi
if [ "$mock_same_origin" = 1 ] && [ -z "$mock" ]; then
	fail "PORTAL_MOCK_URL=$PORTAL_MOCK_URL puts the mock on the portal's own origin ($portal_url), but MOCK_UPSTREAM is not set: nginx would have no mock to send $mock_url/api/v2/users to"
fi

mkdir -p /tmp/nginx
site=/tmp/nginx/console-portal.conf
if [ -n "$mock" ]; then
	set -- -e 's/^\([[:space:]]*\)#mock /\1/' \
		-e "s|proxy_pass http://console-portal-mock:4010;|proxy_pass $upstream;|"
else
	set --
fi
sed -e "s/listen 127\.0\.0\.1:8080/listen $port/" \
	-e "s/server_name 127\.0\.0\.1 localhost;/server_name 127.0.0.1 localhost$names;/" \
	-e 's/^\([[:space:]]*\)#settings /\1/' \
	"$@" /etc/nginx/console-portal.conf.template >"$site"
write_replacements /tmp/nginx/console-portal-settings.conf
# The template changed in a way the lines above no longer follow: say so rather than serve it.
grep -q "listen $port default_server;" "$site" || fail "deploy/console-portal.conf has no default server on 127.0.0.1:8080 to move"
grep -q "server_name 127.0.0.1 localhost$names;" "$site" || fail "deploy/console-portal.conf has no 'server_name 127.0.0.1 localhost;' line to add names to"
grep -q 'include /tmp/nginx/console-portal-settings.conf;' "$site" ||
	fail "deploy/console-portal.conf has no '#settings include /tmp/nginx/console-portal-settings.conf;' line to turn on"
if [ -n "$mock" ]; then
	grep -qF "proxy_pass $upstream;" "$site" && ! grep -q '^[[:space:]]*#mock ' "$site" ||
		fail "deploy/console-portal.conf has no '#mock proxy_pass http://console-portal-mock:4010;' block to turn on"
fi

exec nginx -e stderr -g 'daemon off;'

# The web image's team settings, sourced by start.sh (POSIX sh, no other program than sed, tr, grep).
# `npm run image` builds the pages once with stand-in addresses for the portal (PORTAL_URL) and its
# mock (PORTAL_MOCK_URL); at each start, nginx's sub_filter replaces the stand-ins in every page,
# Markdown twin, llms.txt and contract it serves with the addresses given, so that each answer is the
# bytes a build with those settings writes (a test compares the two file by file). No script or
# stylesheet names them, so no integrity hash changes; the pages' CSP names the mock's origin, which
# is replaced like any other mention. The search index (pagefind/, gzip'd) never holds either address
# (src/integrations/search-index.ts keeps them out), so it is served as built.

# The stand-ins the image's pages are built with (scripts/lib/images.ts passes them to the build).
STAND_IN_PORTAL_URL=https://portal.console-portal.invalid
STAND_IN_MOCK_URL=https://mock.console-portal.invalid/console-portal-mock-base

# A host name or IPv4 address, and an optional port, as a URL writes them (lower case).
HOST_PORT='([a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*)(:[0-9]{1,5})?'
# A path of plain URL characters, as PORTAL_MOCK_URL may carry one (the build's own rule).
URL_PATH='(/[A-Za-z0-9._~-]+)*/?'

# Whether $1 is one line matching the extended expression $2 whole.
matches() {
	[ "$(printf '%s' "$1" | wc -l)" -eq 0 ] && printf '%s\n' "$1" | grep -Eqx "$2"
}

# Reads PORTAL_URL and PORTAL_MOCK_URL (each checked, as the build checks them) into portal_url,
# portal_name (its host, without port), mock_url (the mock's address as pages show it: a path on
# the portal's origin is resolved on it), mock_raw (as given) and mock_same_origin (1 for a path).
read_addresses() {
	portal_url=$(printf '%s' "${PORTAL_URL:-http://127.0.0.1:${PORTAL_PORT:-8080}}" | sed 's|/$||')
	matches "$portal_url" "https?://$HOST_PORT" ||
		fail "PORTAL_URL: expected the origin readers reach the portal at, such as https://portal.intranet.example, without path, query or credentials; \"$(printf '%s' "$portal_url" | tr '\n\r\t' '   ')\" is not one"
	portal_url=$(printf '%s' "$portal_url" | tr '[:upper:]' '[:lower:]')
	portal_host=${portal_url#*://}
	portal_name=${portal_host%:*}
	mock_raw=${PORTAL_MOCK_URL:-http://127.0.0.1:4010}
	mock_same_origin=0
	if matches "$mock_raw" "/$URL_PATH" && ! printf '%s' "$mock_raw" | grep -Eq '(^|/)\.\.?(/|$)'; then
		mock_same_origin=1
		mock_raw=$(printf '%s' "$mock_raw" | sed 's|\(.\)/*$|\1|')
		mock_url=$portal_url$(printf '%s' "$mock_raw" | sed 's|/*$||')
	elif matches "$mock_raw" "https?://$HOST_PORT$URL_PATH"; then
		scheme=$(printf '%s' "${mock_raw%%://*}" | tr '[:upper:]' '[:lower:]')
		rest=${mock_raw#*://}
		host=$(printf '%s' "${rest%%/*}" | tr '[:upper:]' '[:lower:]')
		path=''
		[ "$rest" = "${rest#*/}" ] || path=/$(printf '%s' "${rest#*/}" | sed 's|/*$||')
		mock_raw=$scheme://$host${path%/}
		mock_url=$mock_raw
	else
		fail "PORTAL_MOCK_URL: expected the address readers reach the mock at: an http:// or https:// origin (https://mock.intranet.example), or a path on the portal's own origin (/); \"$(printf '%s' "$mock_raw" | tr '\n\r\t' '   ')\" is not one"
	fi
	mock_rest=${mock_url#*://}
	mock_host=${mock_rest%%/*}
	mock_origin=${mock_url%%://*}://$mock_host
	mock_path=${mock_url#"$mock_origin"}
	# An https page cannot call an http mock on another host: the browser blocks it as mixed content.
	case "$portal_url#$mock_origin" in
	https://*#http://127.0.0.1:* | https://*#http://localhost:*) ;;
	https://*#http://*)
		fail "PORTAL_MOCK_URL=$mock_origin is http, but PORTAL_URL=$portal_url is https: readers' browsers block an https page's calls to an http mock"
		;;
	esac
}

# Writes nginx's replacements of the stand-ins into file $1: the longest mention first, where the
# same-origin mock is written differently (the try-it's own server, the CSP, which says 'self').
write_replacements() {
	stand_in_mock_origin=${STAND_IN_MOCK_URL%/console-portal-mock-base}
	stand_in_mock_host=${stand_in_mock_origin#https://}
	stand_in_portal_host=${STAND_IN_PORTAL_URL#https://}
	if [ "$mock_same_origin" = 1 ]; then
		server=$mock_raw
		connect="connect-src 'self' "
	else
		server=$mock_url
		connect="connect-src 'self' $mock_origin "
	fi
	{
		echo '# Written by start.sh from PORTAL_URL and PORTAL_MOCK_URL: the stand-ins the pages were built with.'
		echo "sub_filter 'data-default-server=\"$STAND_IN_MOCK_URL\"' 'data-default-server=\"$server\"';"
		echo "sub_filter \"connect-src 'self' $stand_in_mock_origin \" \"$connect\";"
		echo "sub_filter '/console-portal-mock-base' '$mock_path';"
		echo "sub_filter '$stand_in_mock_origin' '$mock_origin';"
		echo "sub_filter '$stand_in_mock_host' '$mock_host';"
		echo "sub_filter '$STAND_IN_PORTAL_URL' '$portal_url';"
		echo "sub_filter '$stand_in_portal_host' '$portal_host';"
		echo 'sub_filter_once off;'
		echo 'sub_filter_types text/markdown text/plain application/json application/yaml;'
	} >"$1"
}

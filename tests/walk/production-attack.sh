#!/usr/bin/env bash
# The attacker's walk of a production server with no demo data: a check tool like the benches (not part of npm test).
# It creates a database on the local PostgreSQL, starts `server/main.ts` with NODE_ENV=production and real-looking
# settings, creates one administrator, tries what an attacker would, prints one line per check and a last line of
# name=value figures, drops the database and exits non-zero when a check failed.
#   npm run build && npm run walk:attack       (PORT=3999, PGHOST=127.0.0.1 by default)
set -u
cd "$(dirname "$0")/../.."
PORT=${PORT:-3999}
DB=prodattack_$$
BASE=http://127.0.0.1:$PORT
PG=${PGHOST:-127.0.0.1}
psql -q -h "$PG" -U postgres -c "create database $DB" >/dev/null || exit 2

export NODE_ENV=production DATABASE_URL="postgres://postgres@$PG:5432/$DB" PORT LOG_LEVEL=warn
export JWT_SECRET=prod-jwt-secret-0123456789abcdef0123456789abcdef PAYMENT_CALLBACK_SECRET=prod-callback-secret-0123456789abcdef
export HISTORY_KEYS=k1:prod-history-key-0123456789abcdef0123456789 PUBLIC_URL=https://halal.example.gov.sa
# Real-looking services on a port nobody listens on: the attack never needs them to answer.
for s in CR_REGISTRY FOOD_AUTHORITY PAYMENT_PORTAL SMS_PROVIDER; do export ${s}_URL=http://127.0.0.1:9/ ${s}_API_KEY=prod-$s-key; done
export RECAPTCHA_URL=http://127.0.0.1:9/ RECAPTCHA_SECRET=prod-recaptcha-secret

ADMIN_PASSWORD='Prod-Admin#2026x' npx tsx scripts/create-admin.ts prodadmin admin@example.gov.sa >/dev/null || exit 2
setsid npx tsx server/main.ts > /tmp/$DB.log 2>&1 &
SERVER=$!
trap 'kill -- -$SERVER 2>/dev/null; sleep 1; psql -q -h "$PG" -U postgres -c "drop database if exists $DB with (force)" >/dev/null' EXIT
for _ in $(seq 60); do curl -fs "$BASE/api/health" >/dev/null && break; sleep 1; done

pass=0 fail=0
check() { # name, expected, actual
  if [ "$2" = "$3" ]; then pass=$((pass + 1)); echo "ok    $1"; else fail=$((fail + 1)); echo "FAIL  $1: expected $2, got $3"; fi
}
H=(-H 'x-forwarded-proto: https')
status() { curl -s -o /dev/null -w '%{http_code}' "${H[@]}" "$@"; }
json='content-type: application/json'

# No demo data, no simulators, no development keys.
check "demo account internal.main cannot sign in" 401 "$(status -H "$json" -d '{"userName":"internal.main","password":"Demo@12345"}' "$BASE/api/auth/login")"
check "demo account admin cannot sign in" 401 "$(status -H "$json" -d '{"userName":"admin","password":"Demo@12345"}' "$BASE/api/auth/login")"
for p in simulators/cr simulators/sms simulators/recaptcha simulators/foodAuthority; do
  check "simulator /$p is not served" 404 "$(status "$BASE/$p/")"
done
dev_token=$(node -e "const c=require('crypto');const b=(o)=>Buffer.from(JSON.stringify(o)).toString('base64url');const h=b({alg:'HS256',typ:'JWT'}),p=b({sid:'00000000-0000-0000-0000-000000000000',sub:'x'});console.log(h+'.'+p+'.'+c.createHmac('sha256','dev-only-secret-change-me-in-production-0123456789').update(h+'.'+p).digest('base64url'))")
check "a token signed with the development secret is refused" 401 "$(status -b "halal_session=$dev_token" "$BASE/api/queues/registration")"
none_token="$(node -e "const b=(o)=>Buffer.from(JSON.stringify(o)).toString('base64url');console.log(b({alg:'none',typ:'JWT'})+'.'+b({sid:'x',sub:'x'})+'.')")"
check "an unsigned (alg none) token is refused" 401 "$(status -b "halal_session=$none_token" "$BASE/api/queues/registration")"

# Headers and cookies.
headers=$(curl -s -D - -o /dev/null "${H[@]}" "$BASE/")
check "HSTS on pages" 1 "$(grep -ci '^strict-transport-security' <<<"$headers")"
check "CSP on pages" 1 "$(grep -ci '^content-security-policy' <<<"$headers")"
check "no x-powered-by" 0 "$(grep -ci '^x-powered-by' <<<"$headers")"
login=$(curl -s -D - -o /dev/null -c /tmp/$DB.jar "${H[@]}" -H "$json" -d '{"userName":"prodadmin","password":"Prod-Admin#2026x"}' "$BASE/api/auth/login")
check "the administrator signs in" 1 "$(grep -c '^HTTP/1.1 200' <<<"$login")"
check "session cookie is Secure and HttpOnly" 1 "$(grep -i '^set-cookie: halal_session' <<<"$login" | grep -i secure | grep -ci httponly)"

# Writes need the CSRF token; bad input is refused in the reader's language and changes nothing.
check "a write without the CSRF token is refused" 403 "$(status -b /tmp/$DB.jar -H "$json" -d '{}' -X PUT "$BASE/api/admin/settings")"
check "malformed JSON is a 400" 400 "$(status -H "$json" -d '{"userName":' "$BASE/api/auth/login")"
ar=$(curl -s "${H[@]}" -H "$json" -d '{"userName":' "$BASE/api/auth/login")
check "the 400 is in Arabic by default" 1 "$(grep -cP '[\x{0600}-\x{06FF}]' <<<"$ar")"
big=$(head -c 3000000 /dev/zero | tr '\0' a)
check "an oversized body is refused" 413 "$(printf '{"userName":"%s"}' "$big" | status -H "$json" --data-binary @- "$BASE/api/auth/login")"
for p in '/../../etc/passwd' '/assets/..%2f..%2f..%2fpackage.json' '/%2e%2e/%2e%2e/server/config.ts'; do
  check "path traversal $p leaks no file" 0 "$(curl -s --path-as-is "${H[@]}" "$BASE$p" | grep -c -e 'root:' -e '"dependencies"' -e 'JWT_SECRET')"
done
check "an unknown API is a 404" 404 "$(status "$BASE/api/nothing-here")"
check "anonymous cannot read a request" 401 "$(status "$BASE/api/requests/00000000-0000-4000-8000-000000000000")"
check "anonymous cannot read a queue" 401 "$(status "$BASE/api/queues/registration")"
check "anonymous cannot read the audit log" 401 "$(status "$BASE/api/admin/audit-logs")"

# Hostile events on a request, and another facility reaching for it (tests/walk/attack-requests.ts): two applicants
# the administrator creates, each with its own facility. Before the rate-limit check: it signs in twice.
while IFS= read -r line; do
  echo "$line"
  case $line in ok*) pass=$((pass + 1)) ;; FAIL*) fail=$((fail + 1)) ;; esac
done < <(BASE=$BASE RUN_ID=$$ ADMIN_SESSION="$(awk '$6 == "halal_session" { print $7 }' /tmp/$DB.jar)" npx tsx tests/walk/attack-requests.ts 2>&1)

# Sign-in is rate-limited per address.
last=0
for _ in $(seq 15); do last=$(status -H "$json" -d '{"userName":"prodadmin","password":"wrong-password-1"}' "$BASE/api/auth/login"); done
check "the 15th wrong password in a minute is rate-limited" 429 "$last"

echo "checks=$((pass + fail)) passed=$pass failed=$fail"
[ "$fail" = 0 ]

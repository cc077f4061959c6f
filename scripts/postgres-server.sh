#!/usr/bin/env bash
# A throwaway PostgreSQL server for the store tests: Debian's postgresql, initdb into a temporary folder owned by the
# unprivileged user postgres, on a free loopback port, with a user and a database for the tests; the superuser's and
# the test user's passwords are separate and only files of mode 600 hold them (scram-sha-256, never on a command line).
#   scripts/postgres-server.sh start ENVFILE   starts it and writes the variables the tests read into ENVFILE
#   scripts/postgres-server.sh stop ENVFILE    stops it and removes its folder
#   scripts/postgres-server.sh restart ENVFILE restarts it at once (-m immediate: connections dropped, as in a crash)
#   scripts/postgres-server.sh start-tls ENVFILE  starts one that takes TLS connections only (hostssl), with a server
#                                                 certificate for localhost and 127.0.0.1 from a throwaway CA; ENVFILE
#                                                 also names that CA (BOARDARCHIVE_TEST_POSTGRES_CA_FILE) and an
#                                                 unrelated one (BOARDARCHIVE_TEST_POSTGRES_OTHER_CA_FILE)
# ENVFILE (sourced by test.sh) sets BOARDARCHIVE_TEST_POSTGRES_URL (postgres://archiver@127.0.0.1:PORT/archive_test),
# BOARDARCHIVE_TEST_POSTGRES_PASSWORD_FILE, BOARDARCHIVE_TEST_POSTGRES_DATA and BOARDARCHIVE_TEST_POSTGRES_CTL (for the
# tests that restart the server).
set -euo pipefail
command="${1:-}"
envfile="${2:-}"
if [ -z "$command" ] || [ -z "$envfile" ]; then echo "usage: scripts/postgres-server.sh start|start-tls|stop|restart ENVFILE" >&2; exit 64; fi
bin=$( (ls -d /usr/lib/postgresql/*/bin 2>/dev/null || true) | sort -V | tail -1)
if [ -z "$bin" ]; then echo "PostgreSQL is not installed; run scripts/bootstrap.sh --postgres" >&2; exit 69; fi
as_postgres() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$command" in
start|start-tls)
    folder=$(mktemp -d /tmp/boardarchive-pg.XXXXXX)
    # Written first, so that `stop` removes the folder even when a later step fails.
    printf 'export BOARDARCHIVE_TEST_POSTGRES_FOLDER=%s\n' "$folder" > "$envfile"
    chmod 755 "$folder"
    cd "$folder" # initdb and pg_ctl run as postgres, who may not read the caller's working folder
    data="$folder/data"
    # Two passwords: the superuser's stays in this folder (postgres only), the archiver's is for the tests (the caller only).
    superuser=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')
    archiver=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')
    if [ "$(id -u)" -eq 0 ]; then chown postgres "$folder"; fi
    (umask 077 && printf '%s\n' "$superuser" > "$folder/superuser-password")
    if [ "$(id -u)" -eq 0 ]; then chown postgres "$folder/superuser-password"; fi
    (umask 077 && printf '%s' "$archiver" > "$folder/archiver-password")
    as_postgres "$bin/initdb" -D "$data" -U postgres --auth=scram-sha-256 --pwfile="$folder/superuser-password" \
        --encoding=UTF8 --locale=C.UTF-8 >"$folder/initdb.log"
    options="-c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off"
    if [ "$command" = start-tls ]; then
        # A CA, a server certificate it signs for localhost and 127.0.0.1, and an unrelated CA; TLS connections only.
        (
            cd "$folder"
            for ca in ca other-ca; do
                openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=boardarchive test $ca" -keyout "$ca.key" -out "$ca.pem" 2>/dev/null
            done
            openssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" -keyout server.key -out server.csr 2>/dev/null
            printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\n' > server.ext
            openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 -extfile server.ext -out server.pem 2>/dev/null
            chmod 600 server.key ca.key other-ca.key
            chmod 644 ca.pem other-ca.pem server.pem
            if [ "$(id -u)" -eq 0 ]; then chown postgres server.key server.pem; fi
        )
        sed -i 's/^host /hostssl /' "$data/pg_hba.conf"
        options="$options -c ssl=on -c ssl_cert_file=$folder/server.pem -c ssl_key_file=$folder/server.key"
    fi
    # A free port can be taken between the probe and the start: try a few.
    port=""
    for _ in 1 2 3 4 5; do
        candidate=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
        if as_postgres "$bin/pg_ctl" -D "$data" -o "-p $candidate -k $folder $options" \
            -l "$folder/server.log" -w start >/dev/null; then
            port=$candidate
            break
        fi
    done
    if [ -z "$port" ]; then echo "PostgreSQL did not start; its log: $folder/server.log" >&2; cat "$folder/server.log" >&2; exit 69; fi
    # The password goes to psql on standard input and in the environment, never on a command line.
    # pg_signal_backend: the tests drop their databases WITH (FORCE), which must also end an autovacuum worker that
    # happens to be in one (a worker has no role, so without it the drop fails: seen after a killed-crawl test).
    PGPASSWORD="$superuser" "$bin/psql" -q -h 127.0.0.1 -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 >/dev/null <<SQL
CREATE ROLE archiver LOGIN CREATEDB PASSWORD '$archiver';
GRANT pg_signal_backend TO archiver;
CREATE DATABASE archive_test OWNER archiver;
SQL
    cat > "$envfile" <<VARS
export BOARDARCHIVE_TEST_POSTGRES_URL=postgres://archiver@127.0.0.1:$port/archive_test
export BOARDARCHIVE_TEST_POSTGRES_PASSWORD_FILE=$folder/archiver-password
export BOARDARCHIVE_TEST_POSTGRES_DATA=$data
export BOARDARCHIVE_TEST_POSTGRES_CTL="$bin/pg_ctl"
export BOARDARCHIVE_TEST_POSTGRES_FOLDER=$folder
VARS
    if [ "$command" = start-tls ]; then
        printf 'export BOARDARCHIVE_TEST_POSTGRES_CA_FILE=%s\nexport BOARDARCHIVE_TEST_POSTGRES_OTHER_CA_FILE=%s\n' \
            "$folder/ca.pem" "$folder/other-ca.pem" >> "$envfile"
    fi
    echo "PostgreSQL on 127.0.0.1:$port (data in $data)" >&2
    ;;
stop)
    [ -f "$envfile" ] || exit 0
    # shellcheck disable=SC1090
    . "$envfile"
    if [ -n "${BOARDARCHIVE_TEST_POSTGRES_CTL:-}" ]; then
        (cd / && as_postgres "$BOARDARCHIVE_TEST_POSTGRES_CTL" -D "$BOARDARCHIVE_TEST_POSTGRES_DATA" -m immediate -w stop >/dev/null 2>&1) || true
    fi
    if [ -n "${BOARDARCHIVE_TEST_POSTGRES_FOLDER:-}" ]; then rm -rf "$BOARDARCHIVE_TEST_POSTGRES_FOLDER"; fi
    rm -f "$envfile"
    ;;
restart)
    # shellcheck disable=SC1090
    . "$envfile"
    cd /
    as_postgres "$BOARDARCHIVE_TEST_POSTGRES_CTL" -D "$BOARDARCHIVE_TEST_POSTGRES_DATA" -m immediate -w restart >/dev/null
    ;;
*)
    echo "usage: scripts/postgres-server.sh start|start-tls|stop|restart ENVFILE" >&2; exit 64 ;;
esac

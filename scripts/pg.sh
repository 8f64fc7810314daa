# Sourced by test.sh: a throwaway PostgreSQL server for the tests (Debian's package, installed
# when missing), its data folder in a temporary directory, run as a non-root user on a free
# port, stopped when the calling shell exits. Sets SCOPONE_TEST_DATABASE_URL.

pg_bin() {
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}

start_postgres() {
  local bin
  bin=$(pg_bin)
  if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
    if [ "$(id -u)" != 0 ]; then
      echo "note: PostgreSQL is missing and we are not root: its tests will be skipped" >&2
      return 0
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq postgresql >/dev/null
    bin=$(pg_bin)
  fi
  # initdb and postgres refuse to run as root: use the package's postgres user then.
  local as=()
  PG_DIR=$(mktemp -d /tmp/scopone-pg.XXXXXX)
  if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || useradd --system --home-dir "$PG_DIR" postgres
    chown postgres "$PG_DIR"
    as=(runuser -u postgres --)
  fi
  local port
  port=$(.venv/bin/python -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  # From / : the postgres user may not enter the caller's folder.
  (cd / && "${as[@]}" "$bin/initdb" -D "$PG_DIR/data" -U scopone -A trust --no-sync -E UTF8 >/dev/null)
  # fsync off: a test database may lose everything in a crash, and it is faster.
  (cd / && "${as[@]}" "$bin/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w -s start \
    -o "-p $port -k $PG_DIR -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200")
  PG_STOP=("${as[@]}" "$bin/pg_ctl" -D "$PG_DIR/data" -m immediate -w -s stop)
  trap stop_postgres EXIT
  export SCOPONE_TEST_DATABASE_URL="postgresql://scopone@127.0.0.1:$port/postgres"
  export SCOPONE_REQUIRE_POSTGRES=1
  echo "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on port $port"
}

stop_postgres() {
  if [ -n "${PG_STOP+x}" ]; then
    (cd / && "${PG_STOP[@]}") || true
    rm -rf "$PG_DIR"
  fi
}

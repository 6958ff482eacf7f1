#!/bin/sh
# The official postgres image's first start, in short: an empty data directory becomes a
# cluster whose superuser is POSTGRES_USER (password auth from the network), with POSTGRES_DB.
set -eu
as_postgres() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }
if [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA" /var/run/postgresql
  chown postgres:postgres "$PGDATA" /var/run/postgresql
  chmod 700 "$PGDATA"
fi
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pwfile="$(mktemp)"; printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"; chown postgres "$pwfile"
  as_postgres initdb --username="${POSTGRES_USER:-postgres}" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 -D "$PGDATA" >/dev/null
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  as_postgres pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
  if [ -n "${POSTGRES_DB:-}" ] && [ "$POSTGRES_DB" != "${POSTGRES_USER:-postgres}" ]; then
    as_postgres createdb --username="${POSTGRES_USER:-postgres}" "$POSTGRES_DB"
  elif [ -n "${POSTGRES_USER:-}" ] && [ "$POSTGRES_USER" != postgres ]; then
    as_postgres createdb --username="$POSTGRES_USER" "$POSTGRES_USER"
  fi
  as_postgres pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
fi
exec setpriv --reuid=postgres --regid=postgres --init-groups "$@" -c listen_addresses='*'

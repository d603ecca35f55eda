#!/usr/bin/env bash
# Two API processes and one worker on one PostgreSQL, on this machine (docs/operations.md):
#
#   DATABASE_URL=postgres://user@127.0.0.1:5432/adrules deploy/run-local.sh
#
# APIs on http://127.0.0.1:8001 and :8002 (a load balancer goes in front), the worker's probes on
# :8003, and — unless META_ACCESS_TOKEN or META_GRAPH_URL is set — one Graph API simulator on :8090
# that they all share. Everything listens on 127.0.0.1. JWT_SECRET and CREDENTIALS_KEY are taken
# from the environment, else made once into RUN_DIR; each process has its own DATA_DIR there (its
# log, its mail outbox). Ctrl-C or SIGTERM stops them all; so does any one of them stopping.
# Settings: API_PORTS ("8001 8002"), WORKER_PORTS ("8003"), SIMULATOR_PORT (8090),
# RUN_DIR (.run-local), NO_BUILD=1 (skip building the browser app: the APIs then serve /api only).
set -euo pipefail
cd "$(dirname "$0")/.."
: "${DATABASE_URL:?set DATABASE_URL=postgres://… (the one database every process shares)}"
RUN_DIR=${RUN_DIR:-.run-local}
API_PORTS=${API_PORTS:-"8001 8002"}
WORKER_PORTS=${WORKER_PORTS:-8003}
SIMULATOR_PORT=${SIMULATOR_PORT:-8090}
NODE=node_modules/.bin/node # Node 24, pinned as a dev dependency (npm ci)
mkdir -p "$RUN_DIR"
chmod 700 "$RUN_DIR"

# What every process must share besides the database: the token key and the credentials key.
kept_secret() {
  local file="$RUN_DIR/$1"
  if [ ! -s "$file" ]; then
    (umask 077 && "$NODE" -e "process.stdout.write(require('crypto').randomBytes(48).toString('base64url'))" >"$file")
  fi
  cat "$file"
}
export DATABASE_URL
export JWT_SECRET=${JWT_SECRET:-$(kept_secret jwt.secret)}
export CREDENTIALS_KEY=${CREDENTIALS_KEY:-$(kept_secret credentials.secret)}
export HOST=127.0.0.1
first_api=${API_PORTS%% *}
export PUBLIC_URL=${PUBLIC_URL:-http://127.0.0.1:$first_api}

pids=()
declare -A pid_of
stop() {
  local status=$?
  trap - INT TERM EXIT
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait
  echo "Stopped."
  exit "$status"
}
trap stop INT TERM EXIT

# start NAME VAR=VALUE… COMMAND…: one process, its log in RUN_DIR/NAME.log.
start() {
  local name=$1
  shift
  mkdir -p "$RUN_DIR/$name"
  env DATA_DIR="$RUN_DIR/$name" "$@" >"$RUN_DIR/$name.log" 2>&1 &
  pids+=($!)
  pid_of[$name]=$!
  echo "$name: pid $!, log $RUN_DIR/$name.log"
}

# Waits until http://127.0.0.1:PORT/readyz answers 200 (3 minutes at most).
ready() {
  local name=$1 port=$2
  for _ in $(seq 180); do
    if curl -fs -o /dev/null "http://127.0.0.1:$port/readyz"; then return 0; fi
    if ! kill -0 "${pid_of[$name]}" 2>/dev/null; then break; fi
    sleep 1
  done
  echo "$name is not ready on port $port; the end of its log:" >&2
  tail -n 30 "$RUN_DIR/$name.log" >&2
  exit 1
}

if [ -z "${NO_BUILD:-}" ] && [ ! -f dist/index.html ]; then npm run build; fi

if [ -z "${META_ACCESS_TOKEN:-}" ] && [ -z "${META_GRAPH_URL:-}" ]; then
  start simulator SIMULATOR_HOST=127.0.0.1 SIMULATOR_PORT="$SIMULATOR_PORT" \
    "$NODE" --import tsx server/adplatform/simulator/main.ts
  export META_GRAPH_URL=http://127.0.0.1:$SIMULATOR_PORT
fi

# The first API alone first: it migrates and creates the admin account (printed in its log once).
n=0
for port in $API_PORTS; do
  n=$((n + 1))
  start "api$n" ROLE=api PORT="$port" "$NODE" --import tsx server/main.ts
  if [ "$n" = 1 ]; then ready api1 "$port"; fi
done
n=0
for port in $WORKER_PORTS; do
  n=$((n + 1))
  start "worker$n" ROLE=worker PORT="$port" "$NODE" --import tsx server/main.ts
done
n=0
for port in $API_PORTS; do n=$((n + 1)) && ready "api$n" "$port"; done
n=0
for port in $WORKER_PORTS; do n=$((n + 1)) && ready "worker$n" "$port"; done

echo "Ready: APIs on $(for port in $API_PORTS; do printf 'http://127.0.0.1:%s ' "$port"; done)— workers' probes on $WORKER_PORTS."
grep -h 'Created the admin account' "$RUN_DIR"/api1.log || true
wait -n "${pids[@]}" || true
echo "A process stopped; stopping the others." >&2

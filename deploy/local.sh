#!/usr/bin/env bash
# N Streamlit processes of the dashboard on 127.0.0.1 and nginx in front of them, without Docker.
#   deploy/local.sh [N]     (default N: one per CPU core; PORT=8080 and NGINX=nginx from the environment)
# Runs in the foreground; Ctrl-C stops nginx and every process it started. Needs nginx on the PATH (or in
# /usr/sbin) and the project's Python environment active (or .venv next to this folder). The processes read the
# client's address from nginx's X-Forwarded-For (CLASS_TRUSTED_PROXIES, and the server's own FORWARDED_ALLOW_IPS):
# class mode's limits are per address.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-$(nproc 2>/dev/null || echo 2)}
port=${PORT:-8080}
first_backend=${BACKEND_PORT:-8601}
nginx=${NGINX:-$(command -v nginx || echo /usr/sbin/nginx)}
python=$(command -v python || command -v python3)
if [[ -z ${VIRTUAL_ENV:-} && -x .venv/bin/python ]]; then python=.venv/bin/python; fi
[[ -x $nginx ]] || { echo "nginx not found: install it (apt-get install nginx) or set NGINX=/path/to/nginx" >&2; exit 1; }

run=$(mktemp -d "${TMPDIR:-/tmp}/attention-deploy.XXXXXX")
pids=()
stop() {
  trap - INT TERM EXIT
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  echo "stopped; logs were in $run"
}
trap stop INT TERM EXIT

cp deploy/nginx/nginx.conf "$run/nginx.conf"
echo "listen $port;" > "$run/listen.conf"
: > "$run/upstreams.conf"
for ((i = 0; i < n; i++)); do
  backend=$((first_backend + i))
  echo "server 127.0.0.1:$backend;" >> "$run/upstreams.conf"
  CLASS_TRUSTED_PROXIES=127.0.0.1 FORWARDED_ALLOW_IPS=127.0.0.1 "$python" -m streamlit run dashboard.py \
    --server.port "$backend" --server.address 127.0.0.1 --server.headless true > "$run/streamlit-$backend.log" 2>&1 &
  pids+=($!)
done

healthy() {  # until the process on port $1 answers its health check; 60 s at most
  for _ in $(seq 300); do
    "$python" -c "import urllib.request as u; u.urlopen('http://127.0.0.1:$1/_stcore/health', timeout=1)" \
      2>/dev/null && return 0
    kill -0 "$2" 2>/dev/null || break
    sleep 0.2
  done
  echo "the Streamlit process on port $1 did not start:" >&2
  tail -n 20 "$run/streamlit-$1.log" >&2
  return 1
}
for ((i = 0; i < n; i++)); do healthy $((first_backend + i)) "${pids[$i]}"; done

"$nginx" -c "$run/nginx.conf" -p "$run/" -e stderr -g "daemon off; pid $run/nginx.pid;" > "$run/access.log" &
pids+=($!)
echo "$n Streamlit processes behind nginx: http://$(hostname -f 2>/dev/null || hostname):$port/ (Ctrl-C stops all; logs in $run)"
wait -n  # the first of them to exit (or Ctrl-C) stops all

#!/usr/bin/env bash
# A private, throw-away S3 server for the tests and the benchmark of 云文档: Ceph's RADOS Gateway
# from Debian's packages (ceph-mon, ceph-osd, radosgw) as one monitor, one OSD that keeps objects
# in memory (memstore: nothing survives a stop) and one gateway, all on loopback, run as the
# current user with everything in a temporary folder.
#
#   scripts/rgw.sh [s3-port] [monitor-port]
#
# Prints one JSON line once the gateway answers S3 with the account below:
#   {"endpoint":"http://127.0.0.1:<port>","accessKeyId":…,"secretAccessKey":…,"region":"us-east-1","dir":…,"startMs":…}
# then runs until its standard input closes (Enter or Ctrl-D in a terminal; the parent's pipe
# closing when it stops or dies), and then stops the daemons and removes the folder.
# Free ports are chosen when none are given. Needs about 200 MB of memory.
set -euo pipefail

started=$(date +%s%3N)
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
pick_port() {
  local p
  for _ in $(seq 1 200); do
    p=$((20000 + RANDOM % 40000))
    if port_free "$p"; then echo "$p"; return 0; fi
  done
  echo "no free port" >&2
  return 1
}
S3_PORT=${1:-$(pick_port)}
MON_PORT=${2:-$(pick_port)}
ports_given=${1:+yes}
for tool in monmaptool ceph-mon ceph-osd radosgw radosgw-admin ceph; do
  command -v "$tool" >/dev/null 2>&1 || { echo "rgw.sh: $tool is missing (Debian packages ceph-mon, ceph-osd, radosgw)" >&2; exit 127; }
done

dir=$(mktemp -d "${TMPDIR:-/tmp}/yunwendang-rgw-XXXXXX")
# the daemons started, and for each its output and log files
pids=()
logs=()
stop_daemons() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  done
  pids=()
  logs=()
}
stop() {
  stop_daemons
  rm -rf -- "$dir"
}
trap stop EXIT
trap 'exit 143' TERM INT

# One bring-up of the monitor, the OSD and the gateway on S3_PORT and MON_PORT: 0 once the gateway
# answers; else 1, the reason in $dir/failure and the daemons left for the caller to stop.
bring_up() {
  mkdir -p "$dir"/{run,log,mon,osd,rgw}
  fsid=$(cat /proc/sys/kernel/random/uuid)
  conf="$dir/ceph.conf"
  cat >"$conf" <<EOF
[global]
fsid = $fsid
mon host = v2:127.0.0.1:$MON_PORT
mon initial members = a
ms bind msgr1 = false
public addr = 127.0.0.1
# no authentication inside this private cluster; without the client modes the gateway cannot reach the monitor
auth cluster required = none
auth service required = none
auth client required = none
ms mon client mode = crc secure
ms client mode = crc secure
# one copy, no manager
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
mon allow pool size one = true
mon max pg per osd = 1000
mon data avail crit = 0
mon data avail warn = 0
osd crush chooseleaf type = 0
# objects in memory; the size is only what the OSD reports (at 1 GiB the gateway answers 507 early)
osd objectstore = memstore
memstore device bytes = 8589934592
run dir = $dir/run
admin socket = $dir/run/\$name.asok
log file = $dir/log/\$name.log
pid file = $dir/run/\$name.pid
mon data = $dir/mon/\$cluster-\$id
osd data = $dir/osd/\$cluster-\$id
[client.rgw.a]
rgw frontends = beast endpoint=127.0.0.1:$S3_PORT
rgw data = $dir/rgw
EOF

  monmaptool --create --fsid "$fsid" --addv a "[v2:127.0.0.1:$MON_PORT]" "$dir/monmap" >/dev/null 2>"$dir/log/monmap.err" ||
    { echo "monmaptool failed: $(cat "$dir/log/monmap.err")" >"$dir/failure"; return 1; }
  ceph-mon -c "$conf" --mkfs -i a --monmap "$dir/monmap" >"$dir/log/mon-mkfs.out" 2>&1 ||
    { echo "ceph-mon --mkfs failed: $(tail -n 20 "$dir/log/mon-mkfs.out")" >"$dir/failure"; return 1; }
  ceph-mon -c "$conf" -i a -f </dev/null >"$dir/log/mon.out" 2>&1 &
  pids+=($!)
  logs+=("$dir/log/mon.out $dir/log/mon.a.log")
  osd_uuid=$(cat /proc/sys/kernel/random/uuid)
  osd_id=$(timeout 60 ceph -c "$conf" --connect-timeout 30 osd new "$osd_uuid" 2>"$dir/log/osd-new.err") ||
    { echo "the monitor did not answer: $(tail -n 5 "$dir/log/osd-new.err" "$dir/log/mon.out" 2>/dev/null)" >"$dir/failure"; return 1; }
  mkdir -p "$dir/osd/ceph-$osd_id"
  ceph-osd -c "$conf" -i "$osd_id" --mkfs --osd-uuid "$osd_uuid" >"$dir/log/osd-mkfs.out" 2>&1 ||
    { echo "ceph-osd --mkfs failed: $(tail -n 20 "$dir/log/osd-mkfs.out")" >"$dir/failure"; return 1; }
  ceph-osd -c "$conf" -i "$osd_id" -f </dev/null >"$dir/log/osd.out" 2>&1 &
  pids+=($!)
  logs+=("$dir/log/osd.out $dir/log/osd.$osd_id.log")
  radosgw -c "$conf" -n client.rgw.a -f </dev/null >"$dir/log/rgw.out" 2>&1 &
  pids+=($!)
  logs+=("$dir/log/rgw.out $dir/log/client.rgw.a.log")

  endpoint="http://127.0.0.1:$S3_PORT"
  for _ in $(seq 1 600); do
    code=$(curl -s -o /dev/null -m 2 -w '%{http_code}' "$endpoint/" || true)
    [ "$code" = 200 ] && return 0
    for k in "${!pids[@]}"; do
      # shellcheck disable=SC2086 # two paths: the daemon's output and its log
      kill -0 "${pids[$k]}" 2>/dev/null ||
        { echo "a daemon exited: $(tail -n 20 ${logs[$k]} 2>/dev/null)" >"$dir/failure"; return 1; }
    done
    sleep 0.1
  done
  echo "the gateway did not answer on $endpoint within 60 s" >"$dir/failure"
  return 1
}

# A daemon has now and then exited while the cluster formed (once in several full test runs): the
# bring-up is tried up to three times, on other free ports unless ports were given, and each
# failure is told on standard error.
for attempt in 1 2 3; do
  bring_up && break
  echo "rgw.sh: attempt $attempt of 3 failed: $(cat "$dir/failure" 2>/dev/null)" >&2
  stop_daemons
  [ "$attempt" = 3 ] && exit 1
  rm -rf -- "${dir:?}"/*
  if [ -z "$ports_given" ]; then
    S3_PORT=$(pick_port)
    MON_PORT=$(pick_port)
  fi
done

access_key="YWD$(head -c 8 /dev/urandom | od -An -tx1 | tr -d ' \n' | tr a-f A-F)"
secret_key=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
radosgw-admin -c "$conf" user create --uid=yunwendang --display-name=yunwendang \
  --access-key="$access_key" --secret-key="$secret_key" >/dev/null 2>"$dir/log/user.err" || {
  echo "rgw.sh: radosgw-admin user create failed: $(cat "$dir/log/user.err")" >&2
  exit 1
}
printf '{"endpoint":"%s","accessKeyId":"%s","secretAccessKey":"%s","region":"us-east-1","dir":"%s","startMs":%d}\n' \
  "$endpoint" "$access_key" "$secret_key" "$dir" "$(($(date +%s%3N) - started))"

# until the input closes (or a daemon dies)
read -r _ || true

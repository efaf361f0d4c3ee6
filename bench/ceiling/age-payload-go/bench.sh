#!/usr/bin/env bash
# Times agepayload (1 and 2 threads), Go age and cp on a 1 GiB file in
# /dev/shm, interleaved, ROUNDS rounds; prints the median wall/user/sys of
# each case. At most four 1 GiB files exist at once; all are removed at exit.
set -euo pipefail
cd "$(dirname "$0")"
ROUNDS=${ROUNDS:-3}
D=/dev/shm
AGE=${AGE:-$HOME/go/bin/age}
KEYGEN=${KEYGEN:-$HOME/go/bin/age-keygen}
BIN=$(mktemp -d)/agepayload
LOG=$(mktemp)
trap 'rm -f $D/ref-* "$BIN" "$LOG"; rmdir "$(dirname "$BIN")"' EXIT

go build -o "$BIN" .
head -c 1073741824 /dev/urandom > $D/ref-plain
"$KEYGEN" -o $D/ref-key.txt 2>/dev/null
RCPT=$("$KEYGEN" -y $D/ref-key.txt)

t() { # t NAME OUTFILE CMD...: remove OUTFILE, then time CMD into the log
  local name=$1 out=$2; shift 2
  rm -f "$out"
  /usr/bin/time -f "$name %e %U %S" -a -o "$LOG" "$@"
}

for r in $(seq "$ROUNDS"); do
  echo "round $r" >&2
  t "agepayload-encrypt-1" $D/ref-enc "$BIN" -threads 1 encrypt $D/ref-plain $D/ref-enc
  t "agepayload-encrypt-2" $D/ref-enc "$BIN" -threads 2 encrypt $D/ref-plain $D/ref-enc
  t "agepayload-decrypt-1" $D/ref-dec "$BIN" -threads 1 decrypt $D/ref-enc $D/ref-dec
  t "agepayload-decrypt-2" $D/ref-dec "$BIN" -threads 2 decrypt $D/ref-enc $D/ref-dec
  cmp $D/ref-plain $D/ref-dec   # the round trip, untimed
  rm -f $D/ref-dec
  t "age-encrypt" $D/ref-out.age "$AGE" -r "$RCPT" -o $D/ref-out.age $D/ref-plain
  t "age-decrypt" $D/ref-out "$AGE" -d -i $D/ref-key.txt -o $D/ref-out $D/ref-out.age
  cmp $D/ref-plain $D/ref-out
  rm -f $D/ref-out
  t "cp" $D/ref-copy cp $D/ref-plain $D/ref-copy
  rm -f $D/ref-copy
done

# Tamper test: flip one byte in the middle of the sealed file.
rm -f $D/ref-out.age
printf '\xff' | dd of=$D/ref-enc bs=1 seek=536870912 conv=notrunc status=none
if "$BIN" decrypt $D/ref-enc $D/ref-dec; then
  echo "tamper test FAILED: decrypt succeeded" >&2; exit 1
fi
[ ! -e $D/ref-dec ] && [ ! -e $D/ref-dec.tmp ] || { echo "tamper test FAILED: output left" >&2; exit 1; }
echo "tamper test ok: exit 1, no output" >&2

echo "| case | wall s | user s | sys s |"
echo "|---|---:|---:|---:|"
awk '{ n[$1]++; w[$1,n[$1]]=$2; u[$1,n[$1]]=$3; s[$1,n[$1]]=$4; if (!($1 in seen)) { seen[$1]=1; order[++k]=$1 } }
  function med(a, name, c,   i, j, v, tmp) {
    for (i = 1; i <= c; i++) v[i] = a[name, i]
    for (i = 1; i <= c; i++) for (j = i + 1; j <= c; j++) if (v[j] < v[i]) { tmp = v[i]; v[i] = v[j]; v[j] = tmp }
    return c % 2 ? v[(c + 1) / 2] : (v[c / 2] + v[c / 2 + 1]) / 2
  }
  END { for (i = 1; i <= k; i++) { c = order[i]; printf "| %s | %.2f | %.2f | %.2f |\n", c, med(w, c, n[c]), med(u, c, n[c]), med(s, c, n[c]) } }' "$LOG"
echo "raw samples:" >&2; cat "$LOG" >&2

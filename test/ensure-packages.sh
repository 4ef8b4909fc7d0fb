#!/usr/bin/env bash
# Installs the Debian packages the tests run against, when missing. CI runs as root on a clean
# machine; elsewhere, a missing package without root is an error that names the package.
set -uo pipefail

missing=()
/usr/bin/python3 -c 'import grpc' >/dev/null 2>&1 || missing+=(python3-grpcio)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v redis-cli >/dev/null 2>&1 || missing+=(redis-tools)
command -v memcached >/dev/null 2>&1 || missing+=(memcached)
# Installed without Recommends: prometheus recommends prometheus-node-exporter, a daemon no test uses.
lean=()
# The reference Alertmanager (0.25) and its CLI, amtool, come in one package; Prometheus (2.42)
# is the real alert producer.
{ command -v prometheus-alertmanager && command -v amtool; } >/dev/null 2>&1 || lean+=(prometheus-alertmanager)
command -v prometheus >/dev/null 2>&1 || lean+=(prometheus)
# Score audio exports: FluidSynth (without its GUI front end, qsynth) plays the MIDI with a small
# General MIDI SoundFont; LAME encodes MP3 and decodes it again in the tests.
command -v fluidsynth >/dev/null 2>&1 || lean+=(fluidsynth)
[ -e /usr/share/sounds/sf2/default-GM.sf2 ] || lean+=(timgm6mb-soundfont)
command -v lame >/dev/null 2>&1 || lean+=(lame)
# The score API's PostgreSQL store: the tests start their own servers from the package's binaries.
compgen -G '/usr/lib/postgresql/*/bin/postgres' >/dev/null || lean+=(postgresql)

all=("${missing[@]}" "${lean[@]}")
[ ${#all[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "tests need these Debian packages: ${all[*]} (run: sudo apt-get install -y ${all[*]})" >&2
  exit 1
fi
echo "installing ${all[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null &&
  { [ ${#missing[@]} -eq 0 ] || apt-get install -y -qq "${missing[@]}" >/dev/null; } &&
  { [ ${#lean[@]} -eq 0 ] || apt-get install -y -qq --no-install-recommends "${lean[@]}" >/dev/null; }

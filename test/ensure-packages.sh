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

[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "tests need these Debian packages: ${missing[*]} (run: sudo apt-get install -y ${missing[*]})" >&2
  exit 1
fi
echo "installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null && apt-get install -y -qq "${missing[@]}" >/dev/null

#!/usr/bin/env python3
"""Envoy RLS v3 and grpc.health.v1 client on gRPC C-core (the `grpc` module), for interop tests.

No generated code: the protobuf messages are encoded and decoded by hand (protowire.py; field numbers
from envoy/service/ratelimit/v3/rls.proto, envoy/extensions/common/ratelimit/v3/ratelimit.proto
and grpc/health/v1/health.proto). Responses are printed in the proto3 JSON shape that /json
uses (camelCase, enums by name, defaults omitted, Duration as "<n>s").

Usage: rls_client.py '<spec json>'   (or the spec on stdin)

  {"target": "127.0.0.1:8081",            # or "unix:/path.sock"
   "mode": "plain" | "tls" | "mtls",
   "ca": "ca.crt", "cert": "client.crt", "key": "client.key",   # tls / mtls
   "serverName": "localhost",              # optional: TLS name override
   "timeout": 5,
   "calls": [{"method": "ShouldRateLimit",
              "request": {"domain": "d", "hitsAddend": 0,
                          "descriptors": [{"entries": [{"key": "k", "value": "v"}],
                                           "limit": {"requestsPerUnit": 1, "unit": "MINUTE"},
                                           "hitsAddend": 0}]}},
             {"method": "Check", "service": "ratelimit"}]}

Prints {"grpcVersion": "...", "results": [...]}, one result per call:
  {"ok": true, "response": {...}}  /  {"ok": true, "status": "SERVING"}
  {"ok": false, "code": 2, "codeName": "UNKNOWN", "details": "..."}
"""
import json
import sys

import grpc

from protowire import bytes_field, fields, string_field, uint_field

RLS_METHOD = "/envoy.service.ratelimit.v3.RateLimitService/ShouldRateLimit"
CHECK_METHOD = "/grpc.health.v1.Health/Check"

CODES = {0: "UNKNOWN", 1: "OK", 2: "OVER_LIMIT"}
UNITS = {0: "UNKNOWN", 1: "SECOND", 2: "MINUTE", 3: "HOUR", 4: "DAY", 5: "MONTH", 6: "YEAR", 7: "WEEK"}
UNIT_NUMBERS = {name: number for number, name in UNITS.items()}
HEALTH = {0: "UNKNOWN", 1: "SERVING", 2: "NOT_SERVING", 3: "SERVICE_UNKNOWN"}


# --- encoding -------------------------------------------------------------------------------

def encode_descriptor(descriptor):
    out = b""
    for entry in descriptor.get("entries", []):
        out += bytes_field(1, string_field(1, entry.get("key", "")) + string_field(2, entry.get("value", "")))
    if "limit" in descriptor:
        limit = descriptor["limit"]
        unit = limit.get("unit", 0)
        unit = UNIT_NUMBERS[unit] if isinstance(unit, str) else int(unit)
        out += bytes_field(2, uint_field(1, int(limit.get("requestsPerUnit", 0))) + uint_field(2, unit))
    if "hitsAddend" in descriptor:
        # google.protobuf.UInt64Value: present (even when 0) means "set".
        out += bytes_field(3, uint_field(1, int(descriptor["hitsAddend"])))
    return out


def encode_rate_limit_request(request):
    out = string_field(1, request.get("domain", ""))
    for descriptor in request.get("descriptors", []):
        out += bytes_field(2, encode_descriptor(descriptor))
    out += uint_field(3, int(request.get("hitsAddend", 0)))
    return out


def encode_health_request(service):
    return string_field(1, service)


# --- decoding -------------------------------------------------------------------------------

def decode_rate_limit(buf):
    out = {}
    for field, _, value in fields(buf):
        if field == 3:
            out["name"] = value.decode("utf-8")
        elif field == 1:
            out["requestsPerUnit"] = value
        elif field == 2:
            out["unit"] = UNITS.get(value, value)
    # protojson writes fields in declaration order: name, requests_per_unit, unit.
    return {k: out[k] for k in ("name", "requestsPerUnit", "unit") if k in out and out[k] not in ("", 0)}


def decode_duration(buf):
    seconds = nanos = 0
    for field, _, value in fields(buf):
        if field == 1:
            seconds = value
        elif field == 2:
            nanos = value
    return "%ds" % seconds if nanos == 0 else "%.9fs" % (seconds + nanos / 1e9)


def decode_status(buf):
    out = {}
    for field, _, value in fields(buf):
        if field == 1 and value:
            out["code"] = CODES.get(value, value)
        elif field == 2:
            out["currentLimit"] = decode_rate_limit(value)
        elif field == 3 and value:
            out["limitRemaining"] = value
        elif field == 4:
            out["durationUntilReset"] = decode_duration(value)
    return out


def decode_header(buf):
    out = {}
    for field, _, value in fields(buf):
        if field == 1:
            out["key"] = value.decode("utf-8")
        elif field == 2:
            out["value"] = value.decode("utf-8")
    return out


def decode_rate_limit_response(buf):
    out = {}
    for field, _, value in fields(buf):
        if field == 1 and value:
            out["overallCode"] = CODES.get(value, value)
        elif field == 2:
            out.setdefault("statuses", []).append(decode_status(value))
        elif field == 3:
            out.setdefault("responseHeadersToAdd", []).append(decode_header(value))
        elif field == 4:
            out.setdefault("requestHeadersToAdd", []).append(decode_header(value))
    return out


def decode_health_response(buf):
    status = 0
    for field, _, value in fields(buf):
        if field == 1:
            status = value
    return HEALTH.get(status, status)


# --- calls ----------------------------------------------------------------------------------

def read(path):
    with open(path, "rb") as f:
        return f.read()


def open_channel(spec):
    target = spec["target"]
    options = []
    if spec.get("serverName"):
        options.append(("grpc.ssl_target_name_override", spec["serverName"]))
    mode = spec.get("mode", "plain")
    if mode == "plain":
        return grpc.insecure_channel(target, options=options)
    root = read(spec["ca"])
    if mode == "tls":
        credentials = grpc.ssl_channel_credentials(root_certificates=root)
    elif mode == "mtls":
        credentials = grpc.ssl_channel_credentials(
            root_certificates=root, private_key=read(spec["key"]), certificate_chain=read(spec["cert"]))
    else:
        raise SystemExit("unknown mode %r" % mode)
    return grpc.secure_channel(target, credentials, options=options)


def main():
    spec = json.loads(sys.argv[1] if len(sys.argv) > 1 else sys.stdin.read())
    timeout = spec.get("timeout", 5)
    results = []
    with open_channel(spec) as channel:
        rls = channel.unary_unary(RLS_METHOD)
        check = channel.unary_unary(CHECK_METHOD)
        for call in spec["calls"]:
            try:
                if call["method"] == "ShouldRateLimit":
                    reply = rls(encode_rate_limit_request(call["request"]), timeout=timeout)
                    results.append({"ok": True, "response": decode_rate_limit_response(reply)})
                elif call["method"] == "Check":
                    reply = check(encode_health_request(call.get("service", "")), timeout=timeout)
                    results.append({"ok": True, "status": decode_health_response(reply)})
                else:
                    raise SystemExit("unknown method %r" % call["method"])
            except grpc.RpcError as error:
                code = error.code()
                results.append({"ok": False, "code": code.value[0], "codeName": code.name, "details": error.details()})
    json.dump({"grpcVersion": grpc.__version__, "results": results}, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()

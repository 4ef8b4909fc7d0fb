#!/usr/bin/env python3
"""An xDS ADS management server on gRPC C-core (the `grpc` module): a second implementation, apart
from grpc-js, that pushes ratelimit.config.ratelimit.v3.RateLimitConfig sets.

No generated code: the protobuf messages are encoded and decoded by hand (protowire.py; field numbers
from envoy/service/discovery/v3/discovery.proto, google/protobuf/any.proto, google/rpc/status.proto
and ratelimit/config/ratelimit/v3/rls_conf.proto).

Usage: ads_server.py [PORT]   (0 or none: a free port)
  prints {"port": N}, then one JSON line per DiscoveryRequest received:
    {"versionInfo", "responseNonce", "typeUrl", "node": {"id"}, "errorDetail": {"code", "message"} | null, "metadata": {...}}
  reads one JSON line per push on stdin:
    {"version": "1", "configs": [{"name", "domain", "descriptors": [{"key", "value",
      "rateLimit": {"unit": 2, "requestsPerUnit": 3}, "descriptors": [...]}]}]}
"""
import json
import queue
import sys
import threading
from concurrent import futures

import grpc

from protowire import bytes_field, fields, string_field, uint_field

METHOD = "/envoy.service.discovery.v3.AggregatedDiscoveryService/StreamAggregatedResources"
TYPE_URL = "type.googleapis.com/ratelimit.config.ratelimit.v3.RateLimitConfig"


def policy(p):
    return (uint_field(1, p.get("unit", 0)) + uint_field(2, p.get("requestsPerUnit", 0))
            + uint_field(3, 1 if p.get("unlimited") else 0) + string_field(4, p.get("name", "")))


def descriptor(d):
    out = string_field(1, d.get("key", "")) + string_field(2, d.get("value", ""))
    if "rateLimit" in d:
        out += bytes_field(3, policy(d["rateLimit"]))
    for child in d.get("descriptors", []):
        out += bytes_field(4, descriptor(child))
    return out + uint_field(5, 1 if d.get("shadowMode") else 0)


def rate_limit_config(c):
    out = string_field(1, c.get("name", "")) + string_field(2, c.get("domain", ""))
    for d in c.get("descriptors", []):
        out += bytes_field(3, descriptor(d))
    return out


def discovery_response(version, configs, nonce):
    out = string_field(1, version)
    for c in configs:
        out += bytes_field(2, string_field(1, TYPE_URL) + bytes_field(2, rate_limit_config(c)))
    return out + string_field(4, TYPE_URL) + string_field(5, nonce)


def discovery_request(data):
    request = {"versionInfo": "", "responseNonce": "", "typeUrl": "", "node": None, "errorDetail": None}
    for number, _, value in fields(data):
        if number == 1:
            request["versionInfo"] = value.decode()
        elif number == 2:
            request["node"] = {"id": next((v.decode() for n, _, v in fields(value) if n == 1), "")}
        elif number == 4:
            request["typeUrl"] = value.decode()
        elif number == 5:
            request["responseNonce"] = value.decode()
        elif number == 6:
            status = {"code": 0, "message": ""}
            for n, _, v in fields(value):
                if n == 1:
                    status["code"] = v
                elif n == 2:
                    status["message"] = v.decode()
            request["errorDetail"] = status
    return request


streams = []
streams_lock = threading.Lock()
print_lock = threading.Lock()


def emit(obj):
    with print_lock:
        sys.stdout.write(json.dumps(obj) + "\n")
        sys.stdout.flush()


def stream_aggregated_resources(request_iterator, context):
    outgoing = queue.Queue()
    with streams_lock:
        streams.append(outgoing)
    metadata = {key: value for key, value in context.invocation_metadata()}

    def read():
        try:
            for data in request_iterator:
                emit(dict(discovery_request(data), metadata=metadata))
        except Exception:  # the client went away
            pass
        outgoing.put(None)

    threading.Thread(target=read, daemon=True).start()
    try:
        while True:
            message = outgoing.get()
            if message is None:
                return
            yield message
    finally:
        with streams_lock:
            streams.remove(outgoing)


def main():
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    handler = grpc.method_handlers_generic_handler(
        "envoy.service.discovery.v3.AggregatedDiscoveryService",
        {"StreamAggregatedResources": grpc.stream_stream_rpc_method_handler(stream_aggregated_resources)},
    )
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=16), handlers=[handler])
    bound = server.add_insecure_port("127.0.0.1:%d" % port)
    server.start()
    emit({"port": bound})
    nonce = 0
    for line in sys.stdin:
        if not line.strip():
            continue
        push = json.loads(line)
        nonce += 1
        message = discovery_response(push["version"], push["configs"], str(nonce))
        with streams_lock:
            for outgoing in streams:
                outgoing.put(message)
    server.stop(0)


if __name__ == "__main__":
    main()

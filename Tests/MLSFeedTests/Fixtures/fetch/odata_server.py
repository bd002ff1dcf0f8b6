#!/usr/bin/env python3
"""A loopback RESO Web API (OData) server for the replication tests.

    python3 odata_server.py STATE_DIR [--watch-stdin] [--tls CERT KEY]
        prints the port it listens on (127.0.0.1, ephemeral); with --watch-stdin it exits when its stdin closes

STATE_DIR/records.json holds the resource's records (a JSON array; re-read on every request, so a test can change
the market between runs); STATE_DIR/faults.json (optional, re-read too) asks for faults, each used once:
    {"busy_page": 2}          page 2 answers 429 with Retry-After: 1 the first time
    {"drop_page": 3}          page 3 sends half its body and closes the connection the first time
    {"expire_token_after": 1} the first token stops working after 1 data request (the next answers 401)
    {"hold_page": 2}          page 2 waits until STATE_DIR/release exists (the test kills the client meanwhile)
Every request is appended to STATE_DIR/log as "METHOD PATH?QUERY" (decoded), one a line, and to STATE_DIR/received
as "HOST authorization=... x-api-key=... access_token=..." (- for none): the credentials it carried.
STATE_DIR/next_origin (optional, re-read) holds the scheme://host:port the @odata.nextLink names instead of this
server's own (another port, or localhost for 127.0.0.1).

Routes:
    POST /token                 client_credentials for client_id "mls-client", client_secret "s3cret-client";
                                answers {"access_token": "tok-N", "expires_in": 3600, "token_type": "Bearer"}
    GET /odata/Property         Bearer tok-N (or X-Api-Key: k3y-abcdef, or access_token=k3y-abcdef) required;
                                $filter "ModificationTimestamp ge X" (optionally "(...) and
                                ModificationTimestamp ge X"), $orderby ModificationTimestamp, $top page size
                                (default 2); pages continue with $skiptoken=N in @odata.nextLink
"""
import json
import os
import ssl
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

STATE = os.path.abspath(sys.argv[1])
LOCK = threading.Lock()
TOKENS = {}          # token -> data requests left (None: unlimited)
USED_FAULTS = set()
COUNTER = [0]


def read_json(name, default):
    try:
        with open(os.path.join(STATE, name)) as f:
            return json.load(f)
    except FileNotFoundError:
        return default


def fault(name):
    """The fault's value if asked for and not used yet (marking it used)."""
    faults = read_json("faults.json", {})
    with LOCK:
        if name in faults and name not in USED_FAULTS:
            USED_FAULTS.add(name)
            return faults[name]
    return None


def peek_fault(name):
    faults = read_json("faults.json", {})
    with LOCK:
        return faults.get(name) if name not in USED_FAULTS else None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def log_request_line(self):
        query = urllib.parse.parse_qs(urllib.parse.urlparse(self.path).query)
        carried = [self.headers.get("Host"), "authorization=" + (self.headers.get("Authorization") or "-"),
                   "x-api-key=" + (self.headers.get("X-Api-Key") or "-"),
                   "access_token=" + ",".join(query.get("access_token", ["-"]))]
        with LOCK:
            with open(os.path.join(STATE, "log"), "a") as f:
                f.write(self.command + " " + urllib.parse.unquote(self.path) + "\n")
            with open(os.path.join(STATE, "received"), "a") as f:
                f.write(" ".join(carried) + "\n")

    def send_json(self, status, value, headers=()):
        body = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        for name, v in headers:
            self.send_header(name, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        self.log_request_line()
        length = int(self.headers.get("Content-Length", "0"))
        form = urllib.parse.parse_qs(self.rfile.read(length).decode())
        if self.path != "/token" or form.get("grant_type") != ["client_credentials"] \
                or form.get("client_id") != ["mls-client"] or form.get("client_secret") != ["s3cret-client"]:
            return self.send_json(401, {"error": "invalid_client"})
        with LOCK:
            COUNTER[0] += 1
            token = "tok-%d" % COUNTER[0]
            TOKENS[token] = None
        expire = fault("expire_token_after")
        if expire is not None:
            with LOCK:
                TOKENS[token] = expire
        self.send_json(200, {"access_token": token, "expires_in": 3600, "token_type": "Bearer"})

    def do_GET(self):
        self.log_request_line()
        url = urllib.parse.urlparse(self.path)
        if url.path != "/odata/Property":
            return self.send_json(404, {"error": "not found"})
        auth = self.headers.get("Authorization", "")
        token = auth[len("Bearer "):] if auth.startswith("Bearer ") else None
        with LOCK:
            left = TOKENS.get(token, "missing")
            if left == "missing" or left == 0:
                allowed = False
            else:
                allowed = True
                if left is not None:
                    TOKENS[token] = left - 1
        query = urllib.parse.parse_qs(url.query)
        if self.headers.get("X-Api-Key") == "k3y-abcdef" or "k3y-abcdef" in query.get("access_token", []):
            allowed = True
        if not allowed:
            return self.send_json(401, {"error": "invalid_token"}, [("WWW-Authenticate", "Bearer")])
        top = int(query.get("$top", ["2"])[0])
        skip = int(query.get("$skiptoken", ["0"])[0])
        page = skip // top + 1
        if peek_fault("busy_page") == page and fault("busy_page") == page:
            return self.send_json(429, {"error": "slow down"}, [("Retry-After", "1")])
        if peek_fault("hold_page") == page:
            while not os.path.exists(os.path.join(STATE, "release")):
                time.sleep(0.05)
        records = read_json("records.json", [])
        mark = None
        for clause in query.get("$filter", [""])[0].split(" and "):
            clause = clause.strip().strip("()")
            if clause.startswith("ModificationTimestamp ge "):
                mark = clause[len("ModificationTimestamp ge "):]
        if mark:
            records = [r for r in records if r.get("ModificationTimestamp", "") >= mark]
        records.sort(key=lambda r: (r.get("ModificationTimestamp", ""), r.get("ListingKey", "")))
        chunk = records[skip:skip + top]
        value = {"@odata.context": "$metadata#Property", "@odata.count": len(records), "value": chunk}
        if skip + top < len(records):
            rest = {k: v[0] for k, v in query.items() if k != "$skiptoken"}
            rest["$skiptoken"] = str(skip + top)
            origin = "http%s://127.0.0.1:%d" % ("s" if TLS else "", self.server.server_address[1])
            try:
                with open(os.path.join(STATE, "next_origin")) as f:
                    origin = f.read().strip()
            except FileNotFoundError:
                pass
            value["@odata.nextLink"] = "%s/odata/Property?%s" % (origin, urllib.parse.urlencode(rest))
        body = json.dumps(value, indent=1).encode()
        if peek_fault("drop_page") == page and fault("drop_page") == page:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[:len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


TLS = "--tls" in sys.argv

if __name__ == "__main__":
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    if TLS:
        i = sys.argv.index("--tls")
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[i + 1], sys.argv[i + 2])
        server.socket = context.wrap_socket(server.socket, server_side=True)
    print(server.server_address[1], flush=True)
    if "--watch-stdin" in sys.argv:
        def watch():
            sys.stdin.read()
            os._exit(0)
        threading.Thread(target=watch, daemon=True).start()
    server.serve_forever()

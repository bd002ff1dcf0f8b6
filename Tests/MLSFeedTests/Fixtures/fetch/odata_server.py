#!/usr/bin/env python3
"""A loopback RESO Web API (OData) server for the replication tests.

    python3 odata_server.py STATE_DIR [--watch-stdin] [--tls CERT KEY]
        prints the port it listens on (127.0.0.1, ephemeral); with --watch-stdin it exits when its stdin closes

STATE_DIR/records.json holds the resource's records (a JSON array; re-read on every request, so a test can change
the market between runs: a record removed from it is gone from the server without any `MlgCanView: false`);
STATE_DIR/faults.json (optional, re-read too) asks for faults, each used once:
    {"busy_page": 2}          page 2 answers 429 with Retry-After: 1 the first time
    {"drop_page": 3}          page 3 sends half its body and closes the connection the first time
    {"expire_token_after": 1} the first token stops working after 1 data request (the next answers 401)
    {"hold_page": 2}          page 2 waits until STATE_DIR/release exists (the test kills the client meanwhile)
STATE_DIR/settings.json (optional, re-read too) sets how the server behaves on every request:
    {"stop_after_pages": 3}   page 3 (and any later) gives no @odata.nextLink, whatever records remain
    {"count_as_string": true} @odata.count is sent as a string ("20")
    {"count_text": "many"}    @odata.count is sent as this text instead of the number
    {"count_always": true}    @odata.count is sent even when $count=true was not asked
    {"broken_page": 2}        page 2's body is cut in the middle of its JSON (a complete HTTP response)
Every request is appended to STATE_DIR/log as "METHOD PATH?QUERY" (decoded), one a line, and to STATE_DIR/received
as "HOST authorization=... x-api-key=... access_token=..." (- for none): the credentials it carried.
STATE_DIR/next_origin (optional, re-read) holds the scheme://host:port the @odata.nextLink names instead of this
server's own (another port, or localhost for 127.0.0.1).

Routes:
    POST /token                 client_credentials for client_id "mls-client", client_secret "s3cret-client";
                                answers {"access_token": "tok-N", "expires_in": 3600, "token_type": "Bearer"}
    GET /odata/Property         Bearer tok-N (or X-Api-Key: k3y-abcdef, or access_token=k3y-abcdef) required. $filter: comparisons "Field eq|ne|gt|ge|lt|le literal" joined
                                by "and"/"or" with parentheses, a literal being a timestamp (compared as an instant),
                                a 'quoted string' ('' for a quote), a number, true, false or null;
                                $orderby "Field [asc|desc],..." (default: ModificationTimestamp, ListingKey);
                                $select "Field,..." keeps only those fields; $count=true adds @odata.count (the
                                filtered total) to every page; $top page size (default 2); pages continue with
                                $skiptoken=N in @odata.nextLink
"""
import json
import os
import ssl
import sys
import threading
import time
import re
import urllib.parse
from datetime import datetime
from functools import cmp_to_key
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


TOKEN = re.compile(r"\s*(\(|\)|'(?:[^']|'')*'|[A-Za-z_][A-Za-z0-9_/.]*|[0-9][0-9:.\-TZ+]*)")
TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T")


def instant(text):
    """A timestamp's instant (naive ones read as UTC), or None."""
    if not isinstance(text, str) or not TIMESTAMP.match(text):
        return None
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


def literal(token):
    if token.startswith("'"):
        return token[1:-1].replace("''", "'")
    if token in ("true", "false"):
        return token == "true"
    if token == "null":
        return None
    if TIMESTAMP.match(token):
        return ("instant", instant(token))
    return float(token)


def compare(value, op, expected):
    """OData comparison of a record's value with a literal; a missing value compares false (but eq null)."""
    if isinstance(expected, tuple):
        value, expected = instant(value), expected[1]
    elif isinstance(expected, float) and isinstance(value, (int, float)) and not isinstance(value, bool):
        value = float(value)
    if op == "eq":
        return value == expected
    if op == "ne":
        return value != expected
    if value is None or expected is None or type(value) != type(expected):
        return False
    return {"gt": value > expected, "ge": value >= expected, "lt": value < expected, "le": value <= expected}[op]


def parse_filter(text):
    """The $filter expression as a predicate over a record (the subset the tests send)."""
    tokens = TOKEN.findall(text)
    at = [0]

    def peek():
        return tokens[at[0]] if at[0] < len(tokens) else None

    def take():
        at[0] += 1
        return tokens[at[0] - 1]

    def expression():
        left = conjunction()
        while peek() == "or":
            take()
            right = conjunction()
            left = (lambda a, b: lambda r: a(r) or b(r))(left, right)
        return left

    def conjunction():
        left = factor()
        while peek() == "and":
            take()
            right = factor()
            left = (lambda a, b: lambda r: a(r) and b(r))(left, right)
        return left

    def factor():
        if peek() == "(":
            take()
            inner = expression()
            if take() != ")":
                raise ValueError("expected )")
            return inner
        field, op, value = take(), take(), literal(take())
        return lambda r: compare(r.get(field), op, value)

    predicate = expression()
    if at[0] != len(tokens):
        raise ValueError("unexpected " + tokens[at[0]])
    return predicate


def sort_records(records, orderby):
    """Records in $orderby order: timestamps as instants, other values as they are; missing values first."""
    keys = []
    for item in orderby.split(","):
        words = item.split()
        keys.append((words[0], len(words) > 1 and words[1] == "desc"))

    def value(record, field):
        v = record.get(field)
        t = instant(v)
        return (0, None) if v is None else (1, t if t is not None else v)

    def order(a, b):
        for field, descending in keys:
            x, y = value(a, field), value(b, field)
            if x != y:
                result = -1 if (x[0], x[1] if x[1] is not None else 0) < (y[0], y[1] if y[1] is not None else 0) \
                    else 1
                return -result if descending else result
        return 0

    return sorted(records, key=cmp_to_key(order))


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
        query = urllib.parse.parse_qs(url.query)
        top = int(query.get("$top", ["2"])[0])
        skip = int(query.get("$skiptoken", ["0"])[0])
        page = skip // top + 1
        if peek_fault("busy_page") == page and fault("busy_page") == page:
            return self.send_json(429, {"error": "slow down"}, [("Retry-After", "1")])
        if peek_fault("hold_page") == page:
            while not os.path.exists(os.path.join(STATE, "release")):
                time.sleep(0.05)
        records = read_json("records.json", [])
        settings = read_json("settings.json", {})
        if "$filter" in query:
            condition = parse_filter(query["$filter"][0])
            records = [r for r in records if condition(r)]
        records = sort_records(records, query.get("$orderby", ["ModificationTimestamp,ListingKey"])[0])
        chunk = records[skip:skip + top]
        if "$select" in query:
            fields = [f.strip() for f in query["$select"][0].split(",")]
            chunk = [{f: r[f] for f in fields if f in r} for r in chunk]
        value = {"@odata.context": "$metadata#Property"}
        if query.get("$count") == ["true"] or settings.get("count_always"):
            count = len(records)
            value["@odata.count"] = settings.get("count_text", str(count) if settings.get("count_as_string")
                                                 else count)
        value["value"] = chunk
        stop = settings.get("stop_after_pages")
        if skip + top < len(records) and (stop is None or page < stop):
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
        if settings.get("broken_page") == page:
            body = body[:len(body) // 2]
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

#!/usr/bin/env python3
"""A loopback HTTP server for the Fetch tests and bench/fetch.sh.

    python3 server.py ROOT [--watch-stdin] [--tls CERT KEY]
        serves ROOT; prints the port it listens on (127.0.0.1, ephemeral) on stdout; with --watch-stdin it
        exits when its stdin closes (the test process ended); with --tls it speaks HTTPS with that PEM
        certificate (chain) and key

Routes (KEY makes per-test state independent; /count/KEY tells how many requests KEY had):
    /files/NAME                   a file under ROOT, with ETag and Last-Modified; 304 on a matching If-None-Match
    /flaky/KEY/NAME               HTTP 500 on the first request, then /files/NAME
    /fail/KEY                     HTTP 500 always
    /busy/KEY/NAME?retry_after=S  HTTP 429 with Retry-After: S (default 1) on the first request, then /files/NAME
    /stall/KEY/NAME?after=N       Content-Length of NAME but only its first N bytes, then nothing for 60 s; counts
                                  the request once those bytes are sent
    /lastmod/NAME                 /files/NAME with Last-Modified but no ETag; 304 when If-Modified-Since is not
                                  older than the file
    /hang?seconds=S               answers nothing for S seconds (then 503)
    /drip/NAME?pieces=N&delay=S   /files/NAME sent in N pieces, S seconds apart
    /short/KEY/NAME               Content-Length of NAME but only its first half, then the connection closes
    /auth/basic/NAME              401 unless Authorization is Basic feeduser:s3cret-pass
    /auth/bearer/NAME             401 unless Authorization is Bearer tok-123456
    /auth/key/NAME                401 unless the X-Api-Key header or the apikey parameter is k3y-abcdef
    /paged/KEY?page=N&limit=M     pages 1..3 hold M listings each, later pages none; records the query
    /query/KEY                    echoes nothing; records the query (see /log/KEY)
    /log/KEY                      the queries KEY received, one a line
    /encoded/NAME                 /files/NAME sent with Content-Encoding: gzip
    /gzipped/NAME                 /files/NAME gzipped as an application/gzip body
    /redirect/KEY?to=URL&status=N answers N (default 302) with Location: URL (GET or POST); counts the request
    /record/KEY/NAME              /files/NAME, after recording in /log/KEY what the request carried:
                                  "METHOD HOST PATH?QUERY authorization=... x-api-key=... cookie=..." (- for none)
"""
import base64
import email.utils
import gzip
import hashlib
import os
import ssl
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("--") else ".")
COUNTS = {}
LOGS = {}
LOCK = threading.Lock()


def hit(key):
    with LOCK:
        COUNTS[key] = COUNTS.get(key, 0) + 1
        return COUNTS[key]


def listing_page(page, limit):
    rows = []
    if 1 <= page <= 3:
        for i in range(limit):
            n = page * 1000 + i
            rows.append(f"  <listing><values>{n}|Active|$5{n:05d}</values></listing>\n")
    return ("<dump>\n  <keys>mls_number|status|list_price</keys>\n" + "".join(rows) + "</dump>\n").encode()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send_body(self, status, body, headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def fail(self, status, text=b"no\n", headers=()):
        self.send_body(status, text, list(headers) + [("Content-Type", "text/plain")])

    def read_file(self, name):
        path = os.path.abspath(os.path.join(ROOT, name))
        if not path.startswith(ROOT + os.sep) or not os.path.isfile(path):
            return None, None
        return path, os.stat(path)

    def serve_file(self, name, extra=()):
        path, st = self.read_file(name)
        if path is None:
            return self.fail(404)
        etag = '"%s"' % hashlib.sha1(f"{name}:{st.st_size}:{st.st_mtime_ns}".encode()).hexdigest()[:16]
        modified = email.utils.formatdate(st.st_mtime, usegmt=True)
        if self.headers.get("If-None-Match") == etag:
            self.send_response(304)
            self.send_header("ETag", etag)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(st.st_size))
        self.send_header("ETag", etag)
        self.send_header("Last-Modified", modified)
        for header in extra:
            self.send_header(*header)
        self.end_headers()
        with open(path, "rb") as f:
            while True:
                block = f.read(1 << 20)
                if not block:
                    break
                self.wfile.write(block)

    def serve_last_modified(self, name):
        path, st = self.read_file(name)
        if path is None:
            return self.fail(404)
        since = self.headers.get("If-Modified-Since")
        if since:
            try:
                if email.utils.parsedate_to_datetime(since).timestamp() >= int(st.st_mtime):
                    self.send_response(304)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
            except (TypeError, ValueError):
                pass
        body = open(path, "rb").read()
        modified = email.utils.formatdate(st.st_mtime, usegmt=True)
        self.send_body(200, body, [("Content-Type", "application/xml"), ("Last-Modified", modified)])

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query)
        parts = url.path.strip("/").split("/")
        route, rest = parts[0], parts[1:]
        if route == "files":
            return self.serve_file("/".join(rest))
        if route == "count":
            return self.send_body(200, str(COUNTS.get(rest[0], 0)).encode())
        if route == "log":
            with LOCK:
                lines = LOGS.get(rest[0], [])
            return self.send_body(200, "".join(line + "\n" for line in lines).encode())
        if route == "flaky":
            if hit(rest[0]) == 1:
                return self.fail(500)
            return self.serve_file("/".join(rest[1:]))
        if route == "fail":
            hit(rest[0])
            return self.fail(500)
        if route == "busy":
            if hit(rest[0]) == 1:
                return self.fail(429, headers=[("Retry-After", query.get("retry_after", ["1"])[0])])
            return self.serve_file("/".join(rest[1:]))
        if route == "stall":
            path, _ = self.read_file("/".join(rest[1:]))
            if path is None:
                return self.fail(404)
            body = open(path, "rb").read()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[: int(query.get("after", ["100"])[0])])
            self.wfile.flush()
            hit(rest[0])
            time.sleep(60)
            self.close_connection = True
            return
        if route == "lastmod":
            return self.serve_last_modified("/".join(rest))
        if route == "hang":
            time.sleep(float(query.get("seconds", ["10"])[0]))
            return self.fail(503)
        if route == "drip":
            path, _ = self.read_file("/".join(rest))
            if path is None:
                return self.fail(404)
            body = open(path, "rb").read()
            pieces = int(query.get("pieces", ["5"])[0])
            delay = float(query.get("delay", ["0.2"])[0])
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            step = max(1, -(-len(body) // pieces))
            for start in range(0, len(body), step):
                self.wfile.write(body[start:start + step])
                self.wfile.flush()
                if start + step < len(body):
                    time.sleep(delay)
            return
        if route == "short":
            hit(rest[0])
            path, st = self.read_file("/".join(rest[1:]))
            if path is None:
                return self.fail(404)
            body = open(path, "rb").read()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        if route == "auth":
            kind, name = rest[0], "/".join(rest[1:])
            given = self.headers.get("Authorization", "")
            if kind == "basic":
                ok = given == "Basic " + base64.b64encode(b"feeduser:s3cret-pass").decode()
            elif kind == "bearer":
                ok = given == "Bearer tok-123456"
            else:
                ok = self.headers.get("X-Api-Key") == "k3y-abcdef" or query.get("apikey") == ["k3y-abcdef"]
            if not ok:
                return self.fail(401, headers=[("WWW-Authenticate", 'Basic realm="mls"')])
            return self.serve_file(name)
        if route in ("paged", "query"):
            hit(rest[0])
            with LOCK:
                LOGS.setdefault(rest[0], []).append(url.query)
            if route == "query":
                return self.send_body(200, b"<dump/>\n")
            page = int(query.get("page", ["1"])[0])
            limit = int(query.get("limit", ["2"])[0])
            return self.send_body(200, listing_page(page, limit), [("Content-Type", "application/xml")])
        if route == "redirect":
            hit(rest[0])
            status = int(query.get("status", ["302"])[0])
            return self.send_body(status, b"moved\n", [("Location", query.get("to", ["/"])[0])])
        if route == "record":
            carried = " ".join("%s=%s" % (name.lower(), self.headers.get(name) or "-")
                               for name in ("Authorization", "X-Api-Key", "Cookie"))
            with LOCK:
                LOGS.setdefault(rest[0], []).append("%s %s %s %s" % (self.command, self.headers.get("Host"),
                                                                      self.path, carried))
            return self.serve_file("/".join(rest[1:]))
        if route == "encoded":
            path, _ = self.read_file("/".join(rest))
            if path is None:
                return self.fail(404)
            body = gzip.compress(open(path, "rb").read())
            return self.send_body(200, body, [("Content-Encoding", "gzip"), ("Content-Type", "application/xml")])
        if route == "gzipped":
            path, _ = self.read_file("/".join(rest))
            if path is None:
                return self.fail(404)
            body = gzip.compress(open(path, "rb").read())
            return self.send_body(200, body, [("Content-Type", "application/gzip")])
        self.fail(404)


    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        if length:
            self.rfile.read(length)
        route = urllib.parse.urlsplit(self.path).path.strip("/").split("/")[0]
        if route not in ("redirect", "record"):
            return self.fail(405)
        return self.do_GET()


def exit_when_parent_goes():
    """The test process holds our stdin open; at its end (even a crash) stdin closes and we stop."""
    sys.stdin.buffer.read()
    os._exit(0)


def main():
    if "--watch-stdin" in sys.argv:
        threading.Thread(target=exit_when_parent_goes, daemon=True).start()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    if "--tls" in sys.argv:
        at = sys.argv.index("--tls")
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[at + 1], sys.argv[at + 2])
        server.socket = context.wrap_socket(server.socket, server_side=True)
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()

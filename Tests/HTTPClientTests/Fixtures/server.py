#!/usr/bin/env python3
"""A loopback HTTP server for the HTTPClient tests: prints its port (127.0.0.1, ephemeral), exits when stdin closes.

Routes:
    /echo            200 with "METHOD PATH\\n", the request headers (lower-cased names, sorted) and the body
    /twice           200 with two X-Value headers and one x-other
    /redirect/N      302 to /redirect/N-1, /redirect/0 is /echo
    /cut             Content-Length: 100 but 10 bytes, then the connection closes
    /bytes/N         N bytes of "x"
    /stall           headers and 5 bytes of a 100-byte body, then nothing for 60 s
    /status/N        status N with body "status N"
    /goto?to=URL&status=N
                     status N (default 302) with Location: URL
"""
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


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

    def echo(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length) if length else b""
        lines = [f"{self.command} {self.path}"]
        lines += sorted(f"{name.lower()}: {value}" for name, value in self.headers.items())
        self.send_body(200, ("\n".join(lines) + "\n\n").encode() + body)

    def route(self):
        if self.path.startswith("/goto?"):
            query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
            length = int(self.headers.get("Content-Length", "0"))
            if length:
                self.rfile.read(length)
            return self.send_body(int(query.get("status", ["302"])[0]), b"moved", [("Location", query["to"][0])])
        parts = self.path.strip("/").split("/")
        if parts[0] == "echo":
            return self.echo()
        if parts[0] == "twice":
            return self.send_body(200, b"ok", [("X-Value", "one"), ("x-value", "two"), ("X-Other", "three")])
        if parts[0] == "redirect":
            n = int(parts[1])
            target = "/echo" if n == 0 else f"/redirect/{n - 1}"
            return self.send_body(302, b"moved", [("Location", target)])
        if parts[0] == "cut":
            self.send_response(200)
            self.send_header("Content-Length", "100")
            self.end_headers()
            self.wfile.write(b"x" * 10)
            self.wfile.flush()
            self.close_connection = True
            return
        if parts[0] == "bytes":
            return self.send_body(200, b"x" * int(parts[1]))
        if parts[0] == "stall":
            self.send_response(200)
            self.send_header("Content-Length", "100")
            self.end_headers()
            self.wfile.write(b"x" * 5)
            self.wfile.flush()
            time.sleep(60)
            self.close_connection = True
            return
        if parts[0] == "status":
            return self.send_body(int(parts[1]), f"status {parts[1]}".encode())
        self.send_body(404, b"no")

    do_GET = route
    do_POST = route


def main():
    threading.Thread(target=lambda: (sys.stdin.buffer.read(), __import__("os")._exit(0)), daemon=True).start()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()

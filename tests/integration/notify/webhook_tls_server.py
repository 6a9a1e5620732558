"""A real HTTPS webhook receiver for the notification tests: Python's http.server behind ssl on 127.0.0.1, with the
certificate and key given, answering every POST 200 and appending it to OUT as one JSON line (path, headers, body).

Usage: python3 webhook_tls_server.py --port P --cert CERT --key KEY --out FILE
"""

import argparse
import json
import ssl
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length).decode("utf-8")
            record = {"path": self.path, "headers": dict(self.headers.items()), "body": body}
            with open(args.out, "a", encoding="utf-8") as out:
                out.write(json.dumps(record) + "\n")
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *_):
            pass

    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(args.cert, args.key)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    server.serve_forever()


if __name__ == "__main__":
    main()

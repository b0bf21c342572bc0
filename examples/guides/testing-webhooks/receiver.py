"""A minimal webhook handler for the payments service, standard library only:
it verifies the Payments-Signature header of each delivery and prints the event.

    WEBHOOK_SECRET=$(terraform output -raw webhook_secret) python3 receiver.py
"""
import hashlib
import hmac
import json
import os
import time
from http.server import BaseHTTPRequestHandler, HTTPServer

TOLERANCE = 300  # seconds: older signatures are replays


def verify(header, secret, body, now=None):
    """Raise ValueError unless header ("t=<unix>,v1=<hex>") signs body."""
    pairs = [part.strip().split("=", 1) for part in header.split(",") if "=" in part]
    stamps = [v for k, v in pairs if k == "t"]
    sigs = [v for k, v in pairs if k == "v1"]
    if len(stamps) != 1 or not stamps[0].isdigit() or not sigs:
        raise ValueError("malformed Payments-Signature header")
    now = time.time() if now is None else now
    if abs(now - int(stamps[0])) > TOLERANCE:
        raise ValueError("signature timestamp outside the tolerance")
    want = hmac.new(secret.encode(), stamps[0].encode() + b"." + body, hashlib.sha256).hexdigest()
    if not any(hmac.compare_digest(want, sig) for sig in sigs):
        raise ValueError("no signature matches")


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        try:
            verify(self.headers.get("Payments-Signature", ""), os.environ["WEBHOOK_SECRET"], body)
        except ValueError as err:
            self.send_response(400)
            self.end_headers()
            self.wfile.write(str(err).encode())
            return
        event = json.loads(body)
        # Answer quickly and key any work by event["id"]: it may come twice.
        print(event["id"], event["type"], flush=True)
        self.send_response(200)
        self.end_headers()


if __name__ == "__main__":
    HTTPServer(("127.0.0.1", 4242), Handler).serve_forever()

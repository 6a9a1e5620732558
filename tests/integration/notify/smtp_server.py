"""A real SMTP server for the notification tests: aiosmtpd on 127.0.0.1, optionally with STARTTLS required and
AUTH, that writes every message it accepts to DIR/mail-N.json (envelope, decoded headers, text parts) and answers
as DIR/control.json says at the time (read on every command, so a test can change it while the server runs):
{"data": "451 4.3.0 Try again later", "times": 1} answers DATA so once, {"rcpt": "550 5.1.1 No such user"}
answers RCPT TO so; "times" -1 (the default) is for ever; "only": ADDRESS limits a "rcpt" answer to that recipient;
an absent or empty file accepts everything. {"hold": true} takes each message (written to DIR as below) but holds
its answer to DATA until "hold" is gone: a relay that has the message while its sender is still waiting.

Usage: python3 smtp_server.py --port P --dir DIR [--cert CERT --key KEY] [--auth USER:PASSWORD]
"""

import argparse
import asyncio
import email
import email.policy
import json
import os
import signal
import ssl
import threading
import time

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword


class Handler:
    def __init__(self, directory):
        self.directory = directory
        self.lock = threading.Lock()
        self.used = {}
        self.count = 0

    def _control(self, command, address=None):
        """The answer control.json gives `command` (for recipient `address`) now, or None to go on normally."""
        try:
            with open(os.path.join(self.directory, "control.json")) as file:
                control = json.load(file)
        except (OSError, ValueError):
            return None
        reply = control.get(command)
        if not reply:
            return None
        only = control.get("only")
        if only and address is not None and address.lower() != only.lower():
            return None
        times = control.get("times", -1)
        with self.lock:
            key = (command, reply, times)
            used = self.used.get(key, 0)
            if times >= 0 and used >= times:
                return None
            self.used[key] = used + 1
        return reply

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        reply = self._control("rcpt", address)
        if reply:
            return reply
        envelope.rcpt_tos.append(address)
        return "250 OK"

    def _holding(self):
        try:
            with open(os.path.join(self.directory, "control.json")) as file:
                return bool(json.load(file).get("hold"))
        except (OSError, ValueError):
            return False

    async def handle_DATA(self, server, session, envelope):
        reply = self._control("data")
        if reply:
            return reply
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        parts = []
        for part in message.walk():
            if part.get_content_maintype() == "multipart":
                continue
            parts.append({"content_type": part.get_content_type(), "content": part.get_content()})
        record = {
            # When the message was taken, by the wall clock, before its 250 is answered: a test compares it with
            # when the sender's own answer came.
            "received_at": time.time(),
            "mail_from": envelope.mail_from,
            "rcpt_tos": envelope.rcpt_tos,
            "tls": session.ssl is not None,
            "authenticated": bool(session.authenticated),
            "headers": {name.lower(): str(value) for name, value in message.items()},
            "parts": parts,
            "raw": envelope.content.decode("utf-8", "replace"),
        }
        with self.lock:
            self.count += 1
            name = os.path.join(self.directory, f"mail-{self.count}.json")
        # Written whole, then renamed: a test polling the folder never reads half a message.
        with open(name + ".partial", "w") as file:
            json.dump(record, file)
        os.rename(name + ".partial", name)
        while self._holding():
            await asyncio.sleep(0.02)
        return "250 2.0.0 OK queued"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--dir", required=True)
    parser.add_argument("--cert")
    parser.add_argument("--key")
    parser.add_argument("--auth")
    args = parser.parse_args()
    options = {}
    if args.cert:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(args.cert, args.key)
        options.update(tls_context=context, require_starttls=True)
    if args.auth:
        user, password = args.auth.split(":", 1)

        def authenticator(server, session, envelope, mechanism, auth_data):
            ok = isinstance(auth_data, LoginPassword) and auth_data.login.decode() == user \
                and auth_data.password.decode() == password
            return AuthResult(success=ok, handled=False)

        options.update(authenticator=authenticator, auth_required=True, auth_require_tls=bool(args.cert))
    controller = Controller(Handler(args.dir), hostname="127.0.0.1", port=args.port, **options)
    controller.start()
    print("ready", flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    stop.wait()
    controller.stop()


if __name__ == "__main__":
    main()

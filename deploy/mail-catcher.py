#!/usr/bin/env python3
"""A mail catcher for trying the notifications on your own machine: an SMTP server on 127.0.0.1 that accepts every
message and prints its subject, sender, recipients and plain-text part, decoded, so the status links in the agency's
e-mail can be clicked or copied whole from the terminal. Nothing is sent anywhere. Needs Python's aiosmtpd
(`python3 -m pip install aiosmtpd`).

    python3 deploy/mail-catcher.py            # listens on 127.0.0.1:2525
    TRUCKINS_SMTP_URL='smtp://127.0.0.1:2525?tls=none' TRUCKINS_MAIL_FROM=leads@agency.example \
    TRUCKINS_NOTIFY_TO=you@agency.example TRUCKINS_BASE_URL=http://127.0.0.1:8000 cargo run --release
"""

import asyncio
import email
import email.policy
import sys

from aiosmtpd.controller import Controller


class Printer:
    async def handle_DATA(self, server, session, envelope):
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        body = message.get_body(preferencelist=("plain",))
        text = body.get_content() if body is not None else "(no plain-text part)"
        print("=" * 78)
        print(f"Subject: {message['subject']}")
        print(f"From:    {envelope.mail_from}")
        print(f"To:      {', '.join(envelope.rcpt_tos)}")
        print("-" * 78)
        print(text.rstrip())
        print(flush=True)
        return "250 OK"


def main() -> None:
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 2525
    controller = Controller(Printer(), hostname="127.0.0.1", port=port)
    controller.start()
    print(f"catching mail on 127.0.0.1:{port} (Ctrl-C to stop)", flush=True)
    try:
        asyncio.new_event_loop().run_forever()
    except KeyboardInterrupt:
        pass
    finally:
        controller.stop()


if __name__ == "__main__":
    main()

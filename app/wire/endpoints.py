"""Whether an endpoint may carry hidden states and a token: encrypted, or never leaving this computer.

Hidden states can be read back into the text they came from (docs/PRIVACY.md) and the token opens the
worker to whoever holds it, so neither crosses a network in the clear unless the administrator's policy
says so (``allow_unencrypted_endpoints``). The check sits where a connection is made, so every path that
connects — the chat, Test connection, ``splitchat ask``, the bench, prefill while typing — makes it before
any byte leaves.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit


def encrypted_or_local(endpoint: str) -> bool:
    """wss://, or ws:// to this computer (the loopback interface never leaves it)."""
    if endpoint.startswith("wss://"):
        return True
    host = urlsplit(endpoint).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


UNENCRYPTED_REFUSAL = (
    "{endpoint} is ws:// to another computer: the hidden states and the access token would cross the network "
    "unencrypted. Use wss:// (docs/DEPLOY.md), or ask your administrator to allow unencrypted endpoints in the "
    "policy (allow_unencrypted_endpoints). Nothing was sent."
)

"""Test connection applies Save's rule before a byte leaves: no token in plain text to another computer."""

from __future__ import annotations

import pytest

from tests.helpers import Listener, network_address


@pytest.fixture
def listener():
    heard = Listener(network_address())
    yield heard
    heard.close()


async def test_test_connection_sends_no_token_in_plain_text(qtbot, listener, engine_host):
    from app.data.settings import AppSettings
    from app.ui.settings_dialog import SettingsDialog

    dialog = SettingsDialog(AppSettings(), 30, None, engine_host.probe)
    qtbot.addWidget(dialog)
    dialog.provider_page.endpoint.setText(listener.endpoint)
    dialog.provider_page.token.setText("s3cret-token")
    await dialog.provider_page.test_connection()
    assert (
        dialog.provider_page.test_result.text().startswith("✗")
        and "unencrypted" in dialog.provider_page.test_result.text()
    )
    assert listener.connections == 0 and b"s3cret-token" not in listener.received
